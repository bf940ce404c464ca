package training

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/datasets"
	"trench/engine/trench"
	"trench/games/plugin"
	trenchgame "trench/games/trench"
	"trench/training/rundir"
)

// TestClassicalTeacherSettings checks --classical-depth, --classical-eval
// and --classical-policy: off in every preset but long, whose relabelling
// phase teaches, and fitted to each game (Trichess's quick and long
// presets label in the loop), refused when they cannot teach, and
// described when they can.
func TestClassicalTeacherSettings(t *testing.T) {
	for _, name := range Presets {
		if c, _ := Preset(name); name != "long" && (c.ClassicalDepth != 0 || c.ClassicalEval != "" || c.ClassicalPolicy || c.RelabelSteps != 0) {
			t.Errorf("preset %s: a classical teacher (%d %q %v %d), want none", name, c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy, c.RelabelSteps)
		}
	}
	for _, tc := range []struct {
		preset, game, eval    string
		depth, relabel, steps int
		searchValue           float64
	}{
		{"long", "trench", "nnue", 3, 9000, 120000, 0.5},
		{"quick", "trench", "", 0, 0, 7000, 0.5},
		{"long", "trichess", "hand", 2, 0, 120000, 1},
		{"quick", "trichess", "hand", 2, 0, 4000, 1},
		{"full", "trichess", "", 0, 0, 0, 0},
		{"long", "tictactoe", "", 0, 0, 120000, 0.5},
	} {
		c, _ := Preset(tc.preset)
		c.Game = tc.game
		if err := c.FitGame(); err != nil {
			t.Fatal(err)
		}
		if c.ClassicalEval != tc.eval || c.ClassicalDepth != tc.depth || c.RelabelSteps != tc.relabel || c.ClassicalPolicy != (tc.depth > 0) || c.Steps != tc.steps || c.SearchValue != tc.searchValue {
			t.Errorf("the %s preset for %s: teacher depth %d eval %q policy %v, %d relabelling steps, %d steps, search value %v; want depth %d eval %q, %d relabelling steps, %d steps, search value %v",
				tc.preset, tc.game, c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy, c.RelabelSteps, c.Steps, c.SearchValue, tc.depth, tc.eval, tc.relabel, tc.steps, tc.searchValue)
		}
	}
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"negative depth", func(c *Config) { c.ClassicalDepth = -1 }, "--classical-depth -1 is out of range"},
		{"too deep", func(c *Config) { c.ClassicalDepth = 999 }, "depth must be in 1.."},
		{"an evaluation without a depth", func(c *Config) { c.ClassicalEval = "rules" }, "give --classical-depth"},
		{"a policy without a depth", func(c *Config) { c.ClassicalPolicy = true }, "give --classical-depth"},
		{"no such evaluation", func(c *Config) { c.ClassicalDepth, c.ClassicalEval = 1, "nosuch" }, `--classical-eval "nosuch"`},
		{"a game without a classical search", func(c *Config) { c.Game, c.EvalBaselines, c.ClassicalDepth = "tictactoe", "random", 1 }, "tictactoe has no classical search"},
	} {
		c := tinyConfig(t)
		tc.set(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	c := tinyConfig(t)
	c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy = 2, "nnue", true
	if _, doc, err := c.ClassicalTeacher(trench.Game); err != nil || doc != "alphabeta with nnue embedded NNUE (128 hidden units) at depth 2 (value scale 4 points), its moves the policy targets" {
		t.Errorf("the built-in NNUE as the teacher: %q, %v", doc, err)
	}
}

// A run with a classical teacher writes every self-play position with
// the classical search's values as its search value and, with
// --classical-policy, its best move as the policy target; the setting is
// saved and cannot change on resume.
func TestClassicalTeacherRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Steps, c.EvalEvery, c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy = 10, 0, 1, "rules", true
	c, err := Prepare(dir, c, []string{"classical-depth", "classical-eval", "classical-policy"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, c, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, rundir.ConvConfigFile)); !strings.Contains(string(data), `"classical-depth": 1`) {
		t.Errorf("the saved config has no classical-depth: %s", data)
	}
	ev, err := trenchgame.Plugin.Classical.Evaluation("rules", "")
	if err != nil {
		t.Fatal(err)
	}
	names, err := datasets.ShardNames(filepath.Join(dir, "datasets"))
	if err != nil || len(names) == 0 {
		t.Fatalf("shards %v, %v", names, err)
	}
	checked := 0
	for _, name := range names {
		samples, err := datasets.ReadShard(filepath.Join(dir, "datasets", name), trench.Game)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range samples {
			st, err := trench.Game.ParseState(s.State)
			if err != nil {
				t.Fatal(err)
			}
			searcher, err := ev.NewSearcher(16)
			if err != nil {
				t.Fatal(err)
			}
			r, err := searcher.Search(context.Background(), st, plugin.ClassicalLimits{Depth: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !s.FullSearch || s.Surprise != nil || !reflect.DeepEqual(s.Actions, []int32{int32(r.Action)}) || !reflect.DeepEqual(s.Probs, []float32{1}) {
				t.Fatalf("%s position %d: policy target %v %v full %v; want the classical search's move %d alone", name, i, s.Actions, s.Probs, s.FullSearch, r.Action)
			}
			if me := s.ToMove; len(s.SearchValue) != 2 || s.SearchValue[me] != -s.SearchValue[1-me] || !sameSign(float64(s.SearchValue[me]), r.Score, r.Forced) {
				t.Fatalf("%s position %d: search value %v for the mover %d; the classical search scores %.2f (forced %d)", name, i, s.SearchValue, me, r.Score, r.Forced)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no positions written")
	}
	other := c
	other.ClassicalDepth = 2
	if _, err := Prepare(dir, other, []string{"classical-depth"}); !errors.Is(err, rundir.ErrConflict) {
		t.Errorf("changing --classical-depth of a run: %v, want a conflict", err)
	}
}

// sameSign reports whether a teacher's value v agrees with the search's
// score and forced result: a forced result is ±1, else v has the score's
// sign.
func sameSign(v, score float64, forced int) bool {
	switch {
	case forced != 0:
		return v == float64(forced)
	case score == 0:
		return v == 0
	default:
		return (v > 0) == (score > 0)
	}
}
