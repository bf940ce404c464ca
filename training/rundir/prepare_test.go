package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settings is a loop's config in these tests.
type settings struct {
	Size  int `json:"size"`
	Steps int `json:"steps"`
}

var testLoop = Loop[settings]{
	Kind: NNUE, ConfigFile: NNUEConfigFile, Folders: []string{NetsDir},
	Game: func(settings) string { return NNUEGame },
	Decode: func(raw []byte) (settings, error) {
		s := settings{Size: 8}
		return s, json.Unmarshal(raw, &s)
	},
	Check: func(s settings) error {
		if s.Size < 1 {
			return fmt.Errorf("--size %d is out of range", s.Size)
		}
		return nil
	},
	Mutable: func(flag string) bool { return flag == "steps" },
}

func TestPrepareCreatesAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := testLoop.Prepare(dir, settings{Size: 0}, nil); err == nil {
		t.Fatal("a bad config was accepted")
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a bad config wrote %s: %v", dir, err)
	}
	if _, err := testLoop.Prepare(dir, settings{Size: 4, Steps: 10}, nil); err != nil {
		t.Fatal(err)
	}
	if m, err := Read(dir); err != nil || m != (Marker{NNUE, NNUEGame}) {
		t.Errorf("the new run reads as %+v, %v", m, err)
	}
	if _, err := os.Stat(filepath.Join(dir, NetsDir)); err != nil {
		t.Error(err)
	}
	got, err := testLoop.Prepare(dir, settings{Size: 6, Steps: 20}, []string{"steps"})
	if err != nil || got != (settings{Size: 4, Steps: 20}) {
		t.Errorf("resumed with --steps 20: %+v, %v", got, err)
	}
	if _, err := testLoop.Prepare(dir, settings{Size: 6}, []string{"size"}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "--size 6") {
		t.Errorf("a changed size: %v, want ErrConflict", err)
	}
	if got, err := testLoop.Prepare(dir, settings{}, nil); err != nil || got.Steps != 20 {
		t.Errorf("the raised steps were not saved: %+v, %v", got, err)
	}
}

func TestPrepareRefusesOtherKindAndCorruptMarker(t *testing.T) {
	conv := layout(t, map[string]string{CheckpointsDir + "/": "", ConvConfigFile: `{"game":"trench"}`})
	if _, err := testLoop.Prepare(conv, settings{Size: 4}, nil); !errors.Is(err, ErrOtherKind) || !strings.Contains(err.Error(), conv) || !strings.Contains(err.Error(), "a conv-net run") {
		t.Errorf("a conv-net run: %v, want ErrOtherKind naming %s", err, conv)
	}
	if _, err := os.Stat(filepath.Join(conv, NNUEConfigFile)); err == nil {
		t.Error("Prepare wrote an NNUE config into a conv-net run")
	}
	corrupt := layout(t, map[string]string{MarkerFile: "{\x00"})
	if _, err := testLoop.Prepare(corrupt, settings{Size: 4}, nil); err == nil || !strings.Contains(err.Error(), filepath.Join(corrupt, MarkerFile)) {
		t.Errorf("a corrupt marker: %v, want an error naming it", err)
	}
}

func TestPrepareMarksOldRunsAndFinishesKilledCreation(t *testing.T) {
	// A run made before markers gets one when it resumes.
	old := layout(t, map[string]string{NNUEConfigFile: `{"size":3}`})
	if got, err := testLoop.Prepare(old, settings{Size: 9}, nil); err != nil || got.Size != 3 {
		t.Fatalf("resuming an old run: %+v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(old, MarkerFile)); err != nil {
		t.Errorf("the old run got no marker: %v", err)
	}
	// A run killed after its marker, before its config: created again.
	killed := layout(t, map[string]string{MarkerFile: `{"kind":"nnue","game":"trench"}`})
	if got, err := testLoop.Prepare(killed, settings{Size: 5}, nil); err != nil || got.Size != 5 {
		t.Fatalf("a killed creation: %+v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(killed, NNUEConfigFile)); err != nil {
		t.Error(err)
	}
}

func TestRemoveTemporary(t *testing.T) {
	dir := layout(t, map[string]string{
		".tmp-run.json-1": "", NetsDir + "/": "", "keep.json": "",
	})
	for _, name := range []string{filepath.Join(NetsDir, ".tmp-gen.nnue-2"), filepath.Join(NetsDir, "gen.nnue")} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveTemporary(dir, NetsDir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{".tmp-run.json-1": false, "keep.json": true, NetsDir + "/.tmp-gen.nnue-2": false, NetsDir + "/gen.nnue": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", name, err == nil, want)
		}
	}
}

func TestJSONLinesAfterATornLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, MetricsFile), []byte(`{"size":1}`+"\n"+`{"si`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendMetrics(dir, settings{Size: 2}); err != nil {
		t.Fatal(err)
	}
	got, skipped, err := ReadMetrics[settings](dir)
	if err != nil || skipped != 1 || len(got) != 2 || got[1].Size != 2 {
		t.Errorf("ReadMetrics = %+v, %d skipped, %v; want two lines and the torn one skipped", got, skipped, err)
	}
}
