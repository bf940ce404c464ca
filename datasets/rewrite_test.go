package datasets

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// rewriteMember returns the archive with one member's content replaced,
// or the member left out when content is nil.
func rewriteMember(t testing.TB, data []byte, name string, content []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name == name && content == nil {
			continue
		}
		w, _ := zw.Create(f.Name)
		if f.Name == name {
			w.Write(content)
			continue
		}
		rc, _ := f.Open()
		io.Copy(w, rc)
		rc.Close()
	}
	zw.Close()
	return buf.Bytes()
}

// memberNames lists an archive's members in order, with their contents.
func memberNames(t testing.TB, data []byte) (names []string, contents [][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		names, contents = append(names, f.Name), append(contents, b)
	}
	return names, contents
}
