package mcts

import (
	"context"
	"math"
	"slices"
	"testing"

	"trench/engine/tictactoe"
)

func TestSurprise(t *testing.T) {
	ln := math.Log
	tests := []struct {
		name          string
		target, prior []float32
		want          float64
	}{
		{"identical", []float32{0.5, 0.3, 0.2}, []float32{0.5, 0.3, 0.2}, 0},
		{"identical, one move", []float32{1}, []float32{1}, 0},
		{"all on one of two", []float32{1, 0}, []float32{0.5, 0.5}, ln(2)},
		{"half and half from 0.8/0.2", []float32{0.5, 0.5}, []float32{0.8, 0.2}, 0.5*ln(0.5/0.8) + 0.5*ln(0.5/0.2)},
		{"uniform from 1/4 on four", []float32{0.25, 0.25, 0.25, 0.25}, []float32{0.7, 0.1, 0.1, 0.1}, 0.25*ln(0.25/0.7) + 0.75*ln(2.5)},
		{"zero targets count nothing", []float32{0, 1, 0}, []float32{0.9, 0.05, 0.05}, ln(20)},
		{"zero prior is floored", []float32{0.5, 0.5}, []float32{1, 0}, 0.5*ln(0.5) + 0.5*ln(0.5/SurpriseFloor)},
		{"no actions", nil, nil, 0},
	}
	for _, tc := range tests {
		var r Result
		for i := range tc.target {
			r.Actions = append(r.Actions, ActionStats{Action: i, Policy: tc.target[i], RawPrior: tc.prior[i], Prior: 0.5})
		}
		got := r.Surprise()
		if math.Abs(got-tc.want) > 1e-6 || math.IsNaN(got) {
			t.Errorf("%s: surprise %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRawPriorBeforeNoise checks that the raw priors are the evaluator's
// own under Dirichlet noise, while Prior carries the noise.
func TestRawPriorBeforeNoise(t *testing.T) {
	for _, fraction := range []float64{0, 0.25} {
		p := params(PUCT)
		p.DirichletFraction, p.PolicyTemperature = fraction, 1
		tree, err := NewTree(tictactoe.Game{}.Start(), p)
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Search(context.Background(), fixedPriorEvaluator{}, 16, 1); err != nil {
			t.Fatal(err)
		}
		var r Result
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		noisy := false
		for i, a := range r.Actions {
			want := float32(0.2) / 8
			if i == 0 {
				want = 0.8
			}
			if math.Abs(float64(a.RawPrior-want)) > 1e-6 {
				t.Errorf("noise fraction %g: action %d raw prior %v, want %v", fraction, a.Action, a.RawPrior, want)
			}
			noisy = noisy || a.Prior != a.RawPrior
		}
		if noisy != (fraction > 0) {
			t.Errorf("noise fraction %g: priors %+v differ from the raw ones: %v", fraction, r.Actions, noisy)
		}
		// The next move's root was never noised: its raw priors are its
		// priors, until its own search noises them.
		if err := tree.Advance(r.Action); err != nil {
			t.Fatal(err)
		}
		if err := tree.Search(context.Background(), fixedPriorEvaluator{}, 16, 1); err != nil {
			t.Fatal(err)
		}
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(r.Actions[0].RawPrior-0.8)) > 1e-6 {
			t.Errorf("noise fraction %g, second move: raw prior %v, want 0.8", fraction, r.Actions[0].RawPrior)
		}
	}
}

// TestLine checks each root move's main line: the chosen move's is the
// result's PV, and every other visited move's is the line the same tree
// reports after advancing to that move.
func TestLine(t *testing.T) {
	searched := func(t *testing.T) (*Tree, *Result) {
		t.Helper()
		tree, r := searchTree(t, tictactoe.Game{}.Start(), params(PUCT), UniformEvaluator{}, 300, 1)
		return tree, r
	}
	tree, r := searched(t)
	if got := tree.Line(r.Action, nil); !slices.Equal(got, r.PV) {
		t.Errorf("Line(chosen %d) = %v, want the result's PV %v", r.Action, got, r.PV)
	}
	if got := tree.Line(99, []int{7}); !slices.Equal(got, []int{7}) {
		t.Errorf("Line of a move not at the root = %v, want dst unchanged", got)
	}
	visited := 0
	for _, a := range r.Actions {
		if a.Visits < 2 || a.Action == r.Action {
			continue
		}
		visited++
		line := tree.Line(a.Action, nil)
		after, _ := searched(t)
		if err := after.Advance(a.Action); err != nil {
			t.Fatal(err)
		}
		var below Result
		if err := after.Result(&below); err != nil {
			t.Fatal(err)
		}
		if len(line) < 2 || line[0] != a.Action || !slices.Equal(line[1:], below.PV) {
			t.Errorf("Line(%d) = %v, want %d then the advanced tree's PV %v", a.Action, line, a.Action, below.PV)
		}
	}
	if visited == 0 {
		t.Fatal("no other root move was visited twice")
	}
	fresh, err := NewTree(tictactoe.Game{}.Start(), params(PUCT))
	if err != nil {
		t.Fatal(err)
	}
	if got := fresh.Line(4, nil); len(got) != 0 {
		t.Errorf("Line before any search = %v, want nothing", got)
	}
}
