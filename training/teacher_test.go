package training

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
	"trench/selfplay"
	"trench/tactics"
	"trench/training/rundir"
)

// failingEvaluator stands for a net that must not be asked.
type failingEvaluator struct{}

func (failingEvaluator) Evaluate([]engine.State, []mcts.Evaluation) error {
	return errors.New("the net was asked")
}

// TestTeacherSteps checks --teacher-steps: off in every preset, refused
// when negative, and self-play searches without the net exactly while the
// newest checkpoint is before the step, keeping the checkpoint's name.
func TestTeacherSteps(t *testing.T) {
	for _, name := range Presets {
		if c, _ := Preset(name); c.TeacherSteps != 0 {
			t.Errorf("preset %s: teacher steps %d, want 0", name, c.TeacherSteps)
		}
	}
	c := tinyConfig(t)
	c.TeacherSteps = -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--teacher-steps -1") {
		t.Errorf("--teacher-steps -1: %v", err)
	}

	// Positions from a few random Trench games, to compare evaluations.
	rng := rand.New(rand.NewPCG(1, 2))
	var states []engine.State
	for g := 0; g < 4; g++ {
		s := trench.Game.Start()
		for ply := 0; ply < 30 && !s.Over(); ply++ {
			acts := s.LegalActions(nil)
			s.Play(acts[rng.IntN(len(acts))])
			states = append(states, s.Clone())
		}
	}
	evaluate := func(ev mcts.Evaluator) ([]mcts.Evaluation, error) {
		out := make([]mcts.Evaluation, len(states))
		for i, s := range states {
			out[i].Actions = s.LegalActions(nil)
		}
		return out, ev.Evaluate(states, out)
	}
	c.TeacherSteps = 500
	want, err := evaluate(c.SearchEvaluator(trench.Game, tactics.Fallback{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		teacher bool
	}{
		{"ckpt-000000.tnet", true},
		{"ckpt-000499.tnet", true},
		{"ckpt-000500.tnet", false},
		{"ckpt-001200.tnet", false},
	} {
		n := &selfplay.Net{Name: tc.name, Eval: c.SearchEvaluator(trench.Game, failingEvaluator{})}
		got := c.selfPlayNet(trench.Game, n)
		if got.Name != tc.name {
			t.Errorf("%s: self-play's net is named %s", tc.name, got.Name)
		}
		if !tc.teacher {
			if got != n {
				t.Errorf("%s: self-play does not search with the net", tc.name)
			}
			continue
		}
		evals, err := evaluate(got.Eval)
		if err != nil {
			t.Fatalf("%s: the teacher: %v", tc.name, err)
		}
		for i := range evals {
			if !slices.Equal(evals[i].Policy, want[i].Policy) || !slices.Equal(evals[i].Values, want[i].Values) {
				t.Fatalf("%s, %s: the teacher gives %v %v, the search without a net %v %v", tc.name, states[i],
					evals[i].Policy, evals[i].Values, want[i].Policy, want[i].Values)
			}
		}
	}
	c.TeacherSteps = 0
	if n := (&selfplay.Net{Name: "ckpt-000000.tnet"}); c.selfPlayNet(trench.Game, n) != n {
		t.Error("--teacher-steps 0: self-play does not search with the net")
	}
	if c.selfPlayNet(trench.Game, nil) != nil {
		t.Error("no net yet: self-play got one")
	}

	// A run taught for its whole length trains, saves the setting and
	// refuses to change it on resume.
	dir := filepath.Join(t.TempDir(), "run")
	c = tinyConfig(t)
	c.Steps, c.EvalEvery, c.TeacherSteps = 10, 0, 100
	if c, err = Prepare(dir, c, []string{"teacher-steps"}); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, c, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, rundir.ConvConfigFile)); !strings.Contains(string(data), `"teacher-steps": 100`) {
		t.Errorf("the saved config has no teacher-steps: %s", data)
	}
	m, _, err := ReadMetrics(dir)
	if err != nil || len(m) != 1 || m[0].Step != 10 || m[0].Games == 0 {
		t.Errorf("metrics of the taught run: %+v, %v", m, err)
	}
	other := c
	other.TeacherSteps = 0
	if _, err := Prepare(dir, other, []string{"teacher-steps"}); !errors.Is(err, rundir.ErrConflict) {
		t.Errorf("changing --teacher-steps of a run: %v, want a conflict", err)
	}
}
