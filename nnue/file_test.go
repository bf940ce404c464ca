package nnue

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSaveLoad(t *testing.T) {
	net, err := New(32, 7)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "net.nnue")
	if err := net.Save(file); err != nil {
		t.Fatal(err)
	}
	got, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if got.Hidden != net.Hidden || !slices.Equal(got.FT, net.FT) || !slices.Equal(got.FTBias, net.FTBias) ||
		!slices.Equal(got.Out, net.Out) || got.OutBias != net.OutBias {
		t.Error("the loaded net differs from the saved one")
	}
	if info, err := os.Stat(file); err != nil || info.Size() != int64(fileSize(32)) {
		t.Errorf("file size %v (%v), want %d", info.Size(), err, fileSize(32))
	}
}

// TestSaveLoadLinear round-trips nets of both games with the linear
// path, written as format version 2, and checks that a net without it
// is still written as version 1; the version-2 file cut back to version
// 1's size is refused.
func TestSaveLoadLinear(t *testing.T) {
	for _, fs := range []*FeatureSet{Trench, Trichess} {
		plain, err := fs.New(16, 21)
		if err != nil {
			t.Fatal(err)
		}
		data, err := plain.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(data[8:]); v != 1 || len(data) != fs.fileSize(16, false) {
			t.Errorf("%s: a net without the linear path written as version %d, %d bytes", fs, v, len(data))
		}
		net := withPSQT(plain, 22)
		file := filepath.Join(t.TempDir(), "net.nnue")
		if err := net.Save(file); err != nil {
			t.Fatal(err)
		}
		data, err = os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(data[8:]); v != Version || len(data) != fs.fileSize(16, true) {
			t.Errorf("%s: a net with the linear path written as version %d, %d bytes", fs, v, len(data))
		}
		got, err := fs.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.PSQT, net.PSQT) || !slices.Equal(got.FT, net.FT) || got.OutBias != net.OutBias {
			t.Errorf("%s: the loaded net differs from the saved one", fs)
		}
		cut := reseal(slices.Concat(data[:fs.fileSize(16, false)-4], data[len(data)-4:]))
		if _, err := fs.Decode(cut, "cut.nnue"); !errors.Is(err, ErrSize) {
			t.Errorf("%s: version 2 at version 1's size: %v, want %v", fs, err, ErrSize)
		}
		net.PSQT = net.PSQT[1:]
		if _, err := net.Encode(); err == nil {
			t.Errorf("%s: Encode of a net with a short PSQT succeeded", fs)
		}
	}
}

// reseal recomputes data's checksum after an edit.
func reseal(data []byte) []byte {
	body := data[:len(data)-4]
	binary.LittleEndian.PutUint32(data[len(body):], crc32.Checksum(body, castagnoli))
	return data
}

func TestDecodeRefuses(t *testing.T) {
	net, err := New(16, 8)
	if err != nil {
		t.Fatal(err)
	}
	good, err := net.Encode()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(d []byte) []byte) []byte { return f(slices.Clone(good)) }
	put := func(off int, v uint32) []byte {
		return edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[off:], v); return reseal(d) })
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrMagic},
		{"magic", edit(func(d []byte) []byte { d[0] = 'X'; return d }), ErrMagic},
		{"header cut", good[:20], ErrSize},
		{"version", put(8, 3), ErrVersion},
		{"linear path claimed", put(8, Version), ErrSize},
		{"feature set", put(12, 9), ErrVersion},
		{"inputs", put(16, 701), ErrSize},
		{"hidden too small", put(20, 8), ErrSize},
		{"hidden too large", put(20, 2048), ErrSize},
		{"hidden disagrees", put(20, 17), ErrSize},
		{"truncated", good[:len(good)-1], ErrSize},
		{"trailing byte", append(slices.Clone(good), 0), ErrSize},
		{"checksum", edit(func(d []byte) []byte { d[100] ^= 1; return d }), ErrChecksum},
		{"NaN", put(headerSize+8, math.Float32bits(float32(math.NaN()))), ErrWeights},
		{"infinity", put(len(good)-8, math.Float32bits(float32(math.Inf(-1)))), ErrWeights},
	} {
		_, err := Decode(tc.data, "x.nnue")
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "x.nnue") {
			t.Errorf("%s: error %v, want %v naming x.nnue", tc.name, err, tc.want)
		}
	}
	if _, err := Decode(good, "x.nnue"); err != nil {
		t.Errorf("the good file: %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "none.nnue")
	if _, err := Load(file); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("Load of a missing file: %v, want an error naming it", err)
	}
}

func TestEncodeRefuses(t *testing.T) {
	net, _ := New(16, 9)
	net.Out = net.Out[:5]
	if _, err := net.Encode(); err == nil {
		t.Error("Encode of a net with too few output weights succeeded")
	}
	net, _ = New(16, 9)
	net.FT[3] = float32(math.NaN())
	if _, err := net.Encode(); err == nil {
		t.Error("Encode of a net with a NaN succeeded")
	}
}

// FuzzDecode feeds the decoder arbitrary bytes, and the same bytes with
// a correct checksum appended, so that the checks past the checksum are
// reached too. A net that decodes must encode to the same bytes.
func FuzzDecode(f *testing.F) {
	net, _ := New(16, 10)
	good, _ := net.Encode()
	linear, _ := New(16, 11)
	withLinear, _ := withPSQT(linear, 12).Encode()
	f.Add(good[:headerSize])
	f.Add(good[:len(good)-4])
	f.Add(withLinear[:len(withLinear)-4])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range [][]byte{data, binary.LittleEndian.AppendUint32(slices.Clone(data), crc32.Checksum(data, castagnoli))} {
			n, err := Decode(d, "fuzz")
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz: ") {
					t.Fatalf("the error %q does not name the data", err)
				}
				continue
			}
			again, err := n.Encode()
			if err != nil {
				t.Fatalf("a decoded net does not encode: %v", err)
			}
			if !slices.Equal(again, d) {
				t.Fatal("a decoded net encodes to other bytes")
			}
		}
	})
}
