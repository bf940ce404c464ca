package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	for _, content := range []string{"first", "second, longer"} {
		if err := Write(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary left behind)", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestCreateNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := Create(name, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := Create(name, []byte("second")); !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), name) {
		t.Errorf("creating an existing file: %v, want an error naming it and wrapping fs.ErrExist", err)
	}
	if got, err := os.ReadFile(name); err != nil || string(got) != "first" {
		t.Errorf("the file holds %q, %v; want the first content", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary left behind)", len(entries))
	}
}
