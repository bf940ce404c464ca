package checkpoints

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample() *Checkpoint {
	return &Checkpoint{
		Step: 123, Games: 45, Positions: 6789,
		Created: time.Unix(1700000000, 42),
		Parent:  "ckpt-000100.tnet",
		Config:  []byte(`{"channels":8}`),
		Tensors: []Tensor{
			{Name: "a/conv", Shape: []int{2, 1, 3, 3}, Data: make([]float32, 18)},
			{Name: "a/bias", Shape: []int{2}, Data: []float32{-1.5, 3e-8}},
		},
		Optimizer: []Tensor{{Name: "momentum/a/bias", Shape: []int{2}, Data: []float32{0.25, -0.5}}},
	}
}

func TestRoundTrip(t *testing.T) {
	c := sample()
	for i := range c.Tensors[0].Data {
		c.Tensors[0].Data[i] = float32(i) * 0.1
	}
	path := filepath.Join(t.TempDir(), "x.tnet")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != path {
		t.Errorf("Path = %q, want %q", got.Path, path)
	}
	got.Path = ""
	if !got.Created.Equal(c.Created) {
		t.Errorf("Created = %v, want %v", got.Created, c.Created)
	}
	got.Created = c.Created
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip changed the checkpoint:\n got %+v\nwant %+v", got, c)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("save left %d files, want 1", len(entries))
	}
}

func TestDamagedFiles(t *testing.T) {
	good, err := sample().Encode()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	// reseal recomputes the checksum, so damage behind it is seen.
	reseal := func(b []byte) []byte {
		end := len(b) - 4
		binary.LittleEndian.PutUint32(b[end:], crcOf(b[:end]))
		return b
	}
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"flipped body byte", edit(func(b []byte) []byte { b[40] ^= 0x10; return b }), ErrChecksum},
		{"flipped checksum byte", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), ErrChecksum},
		{"flipped tensor value", edit(func(b []byte) []byte { b[len(b)-10] ^= 0x80; return b }), ErrChecksum},
		{"truncated by one byte", good[:len(good)-1], ErrTruncated},
		{"truncated in the body", good[:len(good)/2], ErrTruncated},
		{"truncated in the header", good[:10], ErrTruncated},
		{"empty", nil, ErrTruncated},
		{"not a checkpoint", []byte("hello, world, this is text"), ErrMagic},
		{"wrong magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), ErrMagic},
		{"wrong version", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 2); return reseal(b) }), ErrVersion},
		{"trailing bytes", append(append([]byte(nil), good...), 0), ErrCorrupt},
		{"tensor larger than the file", edit(func(b []byte) []byte {
			i := strings.Index(string(b), "a/conv") + len("a/conv") + 4
			binary.LittleEndian.PutUint32(b[i:], 1<<30)
			return reseal(b)
		}), ErrCorrupt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.data, "run/x.tnet")
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			for _, other := range []error{ErrMagic, ErrVersion, ErrTruncated, ErrChecksum, ErrCorrupt, ErrShape} {
				if other != tc.want && errors.Is(err, other) {
					t.Errorf("error %v also matches %v", err, other)
				}
			}
			if !strings.Contains(err.Error(), "run/x.tnet") || !strings.Contains(err.Error(), "offset") {
				t.Errorf("error %q does not name the file and offset", err)
			}
		})
	}
}

func TestEncodeRejectsInconsistentTensor(t *testing.T) {
	c := sample()
	c.Tensors[1].Shape = []int{3}
	if _, err := c.Encode(); !errors.Is(err, ErrShape) {
		t.Errorf("Encode of a 3-shaped tensor with 2 values: error %v, want ErrShape", err)
	}
}

func TestRunDirectory(t *testing.T) {
	run := t.TempDir()
	if _, err := Latest(run); !errors.Is(err, ErrNone) {
		t.Fatalf("Latest of an empty run: %v, want ErrNone", err)
	}
	for _, step := range []uint64{12, 3, 1000000, 200} {
		c := sample()
		c.Step = step
		if _, err := SaveToRun(run, c); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(run, Subdir, "notes.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(run, Subdir, "ckpt-12x.tnet"), nil, 0o644)
	paths, err := List(run)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	want := []string{"ckpt-000003.tnet", "ckpt-000012.tnet", "ckpt-000200.tnet", "ckpt-1000000.tnet"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("List = %v, want %v", names, want)
	}
	latest, err := Resolve(run, "latest")
	if err != nil || filepath.Base(latest) != want[3] {
		t.Errorf("Resolve latest = %q, %v", latest, err)
	}
	if p, _ := Resolve(run, "ckpt-000012.tnet"); p != filepath.Join(run, Subdir, "ckpt-000012.tnet") {
		t.Errorf("Resolve of a bare name = %q", p)
	}
	c, err := Load(latest)
	if err != nil || c.Step != 1000000 {
		t.Errorf("Load latest: step %v, %v", c, err)
	}
}

func FuzzDecode(f *testing.F) {
	good, err := sample().Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:30])
	empty, _ := (&Checkpoint{}).Encode()
	f.Add(empty)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data, "fuzz")
		if err != nil {
			return
		}
		again, err := c.Encode()
		if err != nil {
			t.Fatalf("re-encoding a decoded file: %v", err)
		}
		if _, err := Decode(again, "fuzz"); err != nil {
			t.Fatalf("decoding a re-encoded file: %v", err)
		}
	})
}

// FuzzDecodeResealed fuzzes the body parser behind a valid checksum.
func FuzzDecodeResealed(f *testing.F) {
	good, _ := sample().Encode()
	f.Add(good[headerSize : len(good)-4])
	f.Fuzz(func(t *testing.T, body []byte) {
		b := append([]byte(nil), good[:headerSize]...)
		binary.LittleEndian.PutUint64(b[12:], uint64(len(body)))
		b = append(b, body...)
		b = binary.LittleEndian.AppendUint32(b, crcOf(b))
		Decode(b, "fuzz")
	})
}

// TestLoadNewestPassesOverDamaged damages the newest checkpoints of a run:
// LoadNewest returns the newest that loads and names the others, and
// MoveAside takes them out of the list without deleting them.
func TestLoadNewestPassesOverDamaged(t *testing.T) {
	run := t.TempDir()
	var paths []string
	for _, step := range []uint64{10, 20, 30, 40} {
		c := sample()
		c.Step = step
		p, err := SaveToRun(run, c)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	data, _ := os.ReadFile(paths[3])
	os.WriteFile(paths[3], data[:len(data)/2], 0o644) // truncated
	data, _ = os.ReadFile(paths[2])
	data[40] ^= 1
	os.WriteFile(paths[2], data, 0o644) // checksum
	refuse20 := func(c *Checkpoint) error {
		if c.Step == 20 {
			return fmt.Errorf("%s: %w: step 20 refused", c.Path, ErrCorrupt)
		}
		return nil
	}
	c, passed, err := LoadNewest(run, refuse20)
	if err != nil || c.Step != 10 {
		t.Fatalf("LoadNewest: %v, %v; want step 10", c, err)
	}
	wantErrs := []error{ErrTruncated, ErrChecksum, ErrCorrupt}
	if len(passed) != 3 {
		t.Fatalf("passed over %v, want 3 files", passed)
	}
	for i, p := range passed {
		if p.Path != paths[3-i] || !errors.Is(p.Err, wantErrs[i]) || !strings.Contains(p.Err.Error(), p.Path) || !Damaged(p.Err) {
			t.Errorf("passed over %s: %v; want %s and %v naming it", p.Path, p.Err, paths[3-i], wantErrs[i])
		}
		to, err := MoveAside(p.Path)
		if err != nil || to != p.Path+".bad" {
			t.Errorf("MoveAside(%s) = %s, %v", p.Path, to, err)
		}
	}
	if latest, err := Latest(run); err != nil || latest != paths[0] {
		t.Errorf("latest after moving aside: %s, %v", latest, err)
	}
	// A second damaged file of the same name keeps the first one aside.
	os.WriteFile(paths[3], []byte("garbage"), 0o644)
	if to, err := MoveAside(paths[3]); err != nil || to != paths[3]+".bad-2" {
		t.Errorf("second MoveAside = %s, %v", to, err)
	}
	if _, err := os.Stat(paths[3] + ".bad"); err != nil {
		t.Errorf("the first file moved aside is gone: %v", err)
	}
	if Damaged(fmt.Errorf("x: %w", ErrVersion)) || Damaged(os.ErrPermission) {
		t.Error("a newer version or a permission error counts as damage")
	}
	none := t.TempDir()
	if _, _, err := LoadNewest(none, nil); !errors.Is(err, ErrNone) {
		t.Errorf("LoadNewest of an empty run: %v, want ErrNone", err)
	}
	if _, passed, err := LoadNewest(run, func(*Checkpoint) error { return ErrShape }); !errors.Is(err, ErrShape) || len(passed) != 1 {
		t.Errorf("no checkpoint passes: %v, %d passed over", err, len(passed))
	}
}
