package checkpoints

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIdentify(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	conv := write("a.tnet", Magic+"rest")
	nnueFile := write("a.nnue", NNUEMagic+"rest")
	write("nnuerun/"+NNUEConfigFile, "{}")
	write("marked/"+RunMarkerFile, `{"kind":"conv","game":"trench"}`)
	mkdir("marked/" + NNUENetsDir)
	write("badmarker/"+RunMarkerFile, `{"kind":"chess"}`)
	write("tornmarker/"+RunMarkerFile, `{"kind":`)
	mkdir("nnuenets/" + NNUENetsDir)
	mkdir("convrun/" + Subdir)
	mkdir("empty")
	short := write("short", "TRN")
	other := write("other", "PK\x03\x04 a zip file")
	for _, tc := range []struct {
		ref     string
		want    Holds
		wantErr string
	}{
		{"", 0, "no such net file"},
		{conv, ConvFile, ""},
		{nnueFile, NNUEFile, ""},
		{filepath.Join(dir, "nnuerun"), NNUERun, ""},
		{filepath.Join(dir, "nnuenets"), NNUERun, ""},
		{filepath.Join(dir, "convrun"), ConvRun, ""},
		{filepath.Join(dir, "marked"), ConvRun, ""},
		{filepath.Join(dir, "badmarker"), 0, `names the run kind "chess"`},
		{filepath.Join(dir, "tornmarker"), 0, "a corrupt run.json"},
		{filepath.Join(dir, "empty"), 0, "no run directory"},
		{filepath.Join(dir, "missing"), 0, "no such net file or run directory"},
		{short, 0, "too short"},
		{other, 0, "neither a conv-net checkpoint"},
	} {
		got, err := Identify(tc.ref)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Identify(%q) = %v, %v; want an error with %q", tc.ref, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Identify(%q) = %v, %v; want %v", tc.ref, got, err, tc.want)
		}
	}
}

func TestHoldsKinds(t *testing.T) {
	for _, tc := range []struct {
		h          Holds
		nnue, conv bool
	}{
		{ConvFile, false, true}, {ConvRun, false, true}, {NNUEFile, true, false}, {NNUERun, true, false},
	} {
		if tc.h.NNUE() != tc.nnue || tc.h.Conv() != tc.conv {
			t.Errorf("%v: NNUE %v Conv %v, want %v %v", tc.h, tc.h.NNUE(), tc.h.Conv(), tc.nnue, tc.conv)
		}
	}
}
