package neteval

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nn/nntest"
)

func TestLoadNetDefault(t *testing.T) {
	for _, ref := range []string{"", shipped.Ref} {
		n, err := LoadNet(trench.Game, ref)
		if err != nil {
			t.Fatalf("LoadNet(%q): %v", ref, err)
		}
		if n.Inference.Config().Actions != trench.ActionCount || !strings.Contains(n.String(), "embedded") {
			t.Errorf("LoadNet(%q) = %v", ref, n)
		}
	}
}

// saveTiny writes a tiny net as a run's checkpoint at step and returns its path.
func saveTiny(t *testing.T, run string, step uint64) string {
	return nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), run, step)
}

func TestLoadNetFileAndRun(t *testing.T) {
	run := t.TempDir()
	saveTiny(t, run, 5)
	latest := saveTiny(t, run, 12)
	n, err := LoadNet(trench.Game, run)
	if err != nil {
		t.Fatal(err)
	}
	if n.Step != 12 || n.Source != latest {
		t.Errorf("run directory loaded %s step %d, want %s step 12", n.Source, n.Step, latest)
	}
	first := filepath.Join(run, checkpoints.Subdir, checkpoints.FileName(5))
	if n, err = LoadNet(trench.Game, first); err != nil || n.Step != 5 {
		t.Errorf("file: %v, %v", n, err)
	}
}

// TestLoadNetPassesOverDamaged damages a run's newest checkpoints (a
// truncated file, NaN weights): the run directory still loads, as its
// newest checkpoint that loads, and the files stay where they are.
func TestLoadNetPassesOverDamaged(t *testing.T) {
	run := t.TempDir()
	good := saveTiny(t, run, 5)
	nan := saveTiny(t, run, 10)
	truncated := saveTiny(t, run, 15)
	c, err := checkpoints.Load(nan)
	if err != nil {
		t.Fatal(err)
	}
	c.Tensors[0].Data[0] = float32(math.NaN())
	if err := c.Save(nan); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(truncated)
	os.WriteFile(truncated, data[:100], 0o644)
	n, err := LoadNet(trench.Game, run)
	if err != nil || n.Source != good {
		t.Fatalf("LoadNet of the run: %v, %v; want %s", n, err, good)
	}
	if len(n.Passed) != 2 || n.Passed[0].Path != truncated || n.Passed[1].Path != nan {
		t.Errorf("passed over %v, want %s and %s", n.Passed, truncated, nan)
	}
	var warnings strings.Builder
	n.WarnPassed(&warnings)
	for _, p := range []string{truncated, nan} {
		if !strings.Contains(warnings.String(), "warning: passing over "+p) {
			t.Errorf("warnings %q do not name %s", warnings.String(), p)
		}
	}
	for _, p := range []string{nan, truncated} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if _, err := LoadNet(trench.Game, p); err == nil {
			t.Errorf("LoadNet(%s) loaded a damaged file", p)
		}
	}
}

func TestLoadNetErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tnet")
	if err := os.WriteFile(bad, []byte("TRNCHNET garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "emptyrun")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ref, want string }{
		{filepath.Join(dir, "missing.tnet"), "missing.tnet"},
		{bad, "bad.tnet"},
		{empty, "emptyrun"},
	} {
		if _, err := LoadNet(trench.Game, tc.ref); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadNet(%q) error %v, want one naming %q", tc.ref, err, tc.want)
		}
	}
}

// Each error of a net that does not load names the file once, first,
// and says what is wrong with it.
func TestNetErrorMessages(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := saveTiny(t, filepath.Join(dir, "run"), 10)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	c, err := checkpoints.Load(good)
	if err != nil {
		t.Fatal(err)
	}
	c.Tensors[0].Data[3] = float32(math.NaN())
	nan := filepath.Join(dir, "nan.tnet")
	if err := c.Save(nan); err != nil {
		t.Fatal(err)
	}
	c.Path = ""
	empty := filepath.Join(dir, "emptyrun")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		game engine.Game
		path string
		load func(engine.Game, string) error
		want string // {path} stands for path
	}{
		{"missing file", trench.Game, filepath.Join(dir, "missing.tnet"), loadNet,
			`net "{path}": no such checkpoint file or run directory`},
		{"not a checkpoint", trench.Game, write("junk.tnet", []byte("not a net at all")), loadNet,
			`{path}: offset 0: not a checkpoint file: want magic "TRNCHNET"`},
		{"truncated", trench.Game, write("short.tnet", data[:8]), loadNet,
			"{path}: offset 8: truncated checkpoint: file has 8 bytes, shorter than the header"},
		{"weights not finite", trench.Game, nan, loadNet,
			`{path}: malformed checkpoint: tensor "stem/conv" holds NaN at index 3`},
		{"net of another game", trichess.Game, good, loadNet,
			"{path}: checkpoint shape mismatch: the net reads 19×8×8 features, the game has 37×12×8"},
		{"empty run directory", trench.Game, empty, loadNet,
			"{path}: no checkpoint in its checkpoints directory"},
		{"checkpoint not from a file", trench.Game, "the checkpoint of step 10", func(g engine.Game, _ string) error {
			_, err := NetFromCheckpoint(g, c)
			return err
		}, `{path}: malformed checkpoint: tensor "stem/conv" holds NaN at index 3`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load(tc.game, tc.path)
			want := strings.ReplaceAll(tc.want, "{path}", tc.path)
			if err == nil || err.Error() != want {
				t.Errorf("error %v\nwant  %s", err, want)
			}
			if err != nil && strings.Count(err.Error(), tc.path) != 1 {
				t.Errorf("error names %s %d times", tc.path, strings.Count(err.Error(), tc.path))
			}
		})
	}
}

func loadNet(g engine.Game, ref string) error {
	_, err := LoadNet(g, ref)
	return err
}

// Trichess with a value for each seat, and a game without a built-in net
// (tic-tac-toe) gets ErrNoDefaultNet naming the game.
func TestTrichessDefaultNet(t *testing.T) {
	for _, ref := range []string{"", shipped.Ref} {
		n, err := LoadNet(trichess.Game, ref)
		if err != nil {
			t.Fatalf("LoadNet(trichess, %q): %v", ref, err)
		}
		if n.Weights.Config.Seats != 3 {
			t.Errorf("LoadNet(trichess, %q): %d seats, want 3", ref, n.Weights.Config.Seats)
		}
		if _, err := New(trichess.Game, n.Inference); err != nil {
			t.Errorf("an evaluator with the built-in Trichess net: %v", err)
		}
		if _, err := New(trench.Game, n.Inference); err == nil {
			t.Error("the Trichess net was accepted for Trench")
		}
	}
	if _, err := LoadNet(tictactoe.Game{}, shipped.Ref); !errors.Is(err, ErrNoDefaultNet) || !strings.Contains(err.Error(), "tictactoe") {
		t.Errorf("LoadNet(tictactoe, default) = %v, want ErrNoDefaultNet naming the game", err)
	}
	if _, err := New(trichess.Game, tinyNet(t, trench.Game)); err == nil {
		t.Error("a Trench net was accepted for Trichess")
	}
}
