package neteval

import (
	"math"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/nn"
	"trench/tactics"
)

// TestCaptureBaseStartsAtNoNet checks that a new net with both bases
// evaluates every position as the search with no net does: the capture
// aid's priors and the material aid's values, so that training starts
// from that search and not below it.
func TestCaptureBaseStartsAtNoNet(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		ev, err := New(g, basedNet(t, g, nn.ValueBaseMaterial, nn.PolicyBaseCapture))
		if err != nil {
			t.Fatal(err)
		}
		var states []engine.State
		for seed := range uint64(3) {
			states = append(states, playedPositions(g, 10, 3, seed)...)
		}
		out := make([]mcts.Evaluation, len(states))
		if err := ev.Evaluate(states, out); err != nil {
			t.Fatal(err)
		}
		captures := 0
		for i, s := range states {
			acts := s.LegalActions(nil)
			want := tactics.CapturePriors(s, acts, nil)
			if len(out[i].Policy) != len(want) {
				t.Fatalf("%s, %s: %d priors for %d legal actions", g.Name(), s, len(out[i].Policy), len(want))
			}
			for j, p := range want {
				if math.Abs(float64(out[i].Policy[j]-p)) > 1e-6 {
					t.Fatalf("%s, %s: prior of action %d is %v, want the capture prior %v", g.Name(), s, acts[j], out[i].Policy[j], p)
				}
				if tactics.Taken(s, acts[j]) > 0 {
					captures++
				}
			}
			for p, v := range tactics.MaterialValues(s, nil) {
				if math.Abs(float64(out[i].Values[p]-v)) > 1e-5 {
					t.Fatalf("%s, %s: player %d's value %v, want the material value %v", g.Name(), s, p, out[i].Values[p], v)
				}
			}
		}
		if captures == 0 {
			t.Errorf("%s: no position with a capture", g.Name())
		}
	}
}

// TestCaptureBaseAddsToLogits checks a trained-looking net (random final
// layers) with the capture base: each prior is the softmax over the legal
// actions of its own logit plus the logarithm of its capture prior, which
// differs from the priors of the same net without the base.
func TestCaptureBaseAddsToLogits(t *testing.T) {
	states, _, pout, bout := withAndWithoutBase(t, func(c *nn.Config) { c.PolicyBase = nn.PolicyBaseCapture })
	differ := 0
	for i, s := range states {
		acts := s.LegalActions(nil)
		caps := tactics.CapturePriors(s, acts, nil)
		// softmax(z + log c) = p·c / Σ p·c for the plain priors p.
		var sum float64
		for j := range acts {
			sum += float64(pout[i].Policy[j]) * float64(caps[j])
		}
		for j := range acts {
			want := float64(pout[i].Policy[j]) * float64(caps[j]) / sum
			got := float64(bout[i].Policy[j])
			if math.Abs(got-want) > 1e-5*max(want, 1e-3) {
				t.Fatalf("%s: prior of action %d is %v, want %v", s, acts[j], got, want)
			}
			if math.Abs(got-float64(pout[i].Policy[j])) > 1e-4 {
				differ++
			}
		}
		if pout[i].Values[s.ToMove()] != bout[i].Values[s.ToMove()] {
			t.Fatalf("%s: the policy base changed the value", s)
		}
	}
	if differ == 0 {
		t.Error("the capture base changed no prior")
	}
}
