package rundir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
)

// layout makes a directory holding files (a name ending in / is a
// folder) and returns its path.
func layout(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestHolds(t *testing.T) {
	netLine := `{"generation":0,"net":"gen-000000.nnue","gate":{"Accepted":true}}` + "\n"
	cases := []struct {
		name  string
		files map[string]string
		want  Marker
		err   error // wrapped by the error, if set
		says  string
	}{
		{name: "marked NNUE", files: map[string]string{MarkerFile: `{"kind":"nnue","game":"trench"}`}, want: Marker{NNUE, "trench"}},
		{name: "marked conv", files: map[string]string{MarkerFile: `{"kind":"conv","game":"trichess"}`}, want: Marker{Conv, "trichess"}},
		{name: "old NNUE by its config", files: map[string]string{NNUEConfigFile: `{}`, MetricsFile: netLine}, want: Marker{NNUE, NNUEGame}},
		{name: "old NNUE by its nets", files: map[string]string{NetsDir + "/": "", MetricsFile: "{\"step\":1}\n" + netLine}, want: Marker{NNUE, NNUEGame}},
		{name: "old conv", files: map[string]string{CheckpointsDir + "/": "", ConvConfigFile: `{"game":"trichess"}`}, want: Marker{Conv, "trichess"}},
		{name: "old conv without config", files: map[string]string{CheckpointsDir + "/": ""}, want: Marker{Conv, ""}},
		{name: "empty", files: nil, err: ErrNotRun},
		{name: "only the lock", files: map[string]string{"train.lock": "1\n"}, err: ErrNotRun},
		{name: "nets without net lines", files: map[string]string{NetsDir + "/": "", MetricsFile: `{"step":1}` + "\n"}, err: ErrNotRun},
		{name: "corrupt marker", files: map[string]string{MarkerFile: `{"kind":`}, says: "corrupt run marker"},
		{name: "unknown kind", files: map[string]string{MarkerFile: `{"kind":"mlp"}`}, says: `"mlp"`},
		{name: "both kinds", files: map[string]string{NNUEConfigFile: `{}`, CheckpointsDir + "/": ""}, says: "both"},
		{name: "corrupt conv config", files: map[string]string{CheckpointsDir + "/": "", ConvConfigFile: `{`}, says: ConvConfigFile},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := layout(t, c.files)
			m, err := Read(dir)
			if c.err == nil && c.says == "" {
				if err != nil || m != c.want {
					t.Fatalf("Read = %+v, %v; want %+v", m, err, c.want)
				}
				if k, err := Holds(dir); err != nil || k != c.want.Kind {
					t.Errorf("Holds = %v, %v; want %v", k, err, c.want.Kind)
				}
				// The nets' loader tells a run by the same marker and layout.
				want := map[Kind]checkpoints.Holds{NNUE: checkpoints.NNUERun, Conv: checkpoints.ConvRun}[c.want.Kind]
				if h, err := checkpoints.Identify(dir); err != nil || h != want {
					t.Errorf("checkpoints.Identify = %v, %v; want %v", h, err, want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Read = %+v, want an error", m)
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q does not name %s", err, dir)
			}
			if c.err != nil && !errors.Is(err, c.err) {
				t.Errorf("error %q does not wrap %v", err, c.err)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not say %q", err, c.says)
			}
		})
	}
}

func TestHoldsMissingOrFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	if _, err := Holds(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing directory: %v, want fs.ErrNotExist naming %s", err, missing)
	}
	file := filepath.Join(t.TempDir(), "net.nnue")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Holds(file); !errors.Is(err, ErrNotRun) || !strings.Contains(err.Error(), file) {
		t.Errorf("a file: %v, want ErrNotRun naming %s", err, file)
	}
}

func TestMarkThenHolds(t *testing.T) {
	dir := layout(t, map[string]string{CheckpointsDir + "/": ""})
	if err := Mark(dir, Marker{Kind: NNUE, Game: NNUEGame}); err != nil {
		t.Fatal(err)
	}
	// The marker wins over the layout.
	if k, err := Holds(dir); err != nil || k != NNUE {
		t.Errorf("Holds = %v, %v; want %v", k, err, NNUE)
	}
}

func TestHoldsShippedRecord(t *testing.T) {
	// The shipped NNUE's run record predates markers.
	if k, err := Holds(filepath.Join("..", "..", "docs", "runs", "r2")); err != nil || k != NNUE {
		t.Errorf("Holds(docs/runs/r2) = %v, %v; want %v", k, err, NNUE)
	}
}

func TestSameDir(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		x, y string
		same bool
		err  bool
	}{
		{a, a, true, false},
		{a, filepath.Join(a, ".", "..", filepath.Base(a)), true, false},
		{a, b, false, false},
		{a, filepath.Join(b, "new"), false, false},
		{filepath.Join(a, "missing"), b, false, true},
	} {
		same, err := SameDir(c.x, c.y)
		if same != c.same || (err != nil) != c.err {
			t.Errorf("SameDir(%s, %s) = %v, %v; want %v, error %v", c.x, c.y, same, err, c.same, c.err)
		}
	}
}
