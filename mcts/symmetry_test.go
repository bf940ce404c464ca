package mcts

import (
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// hashedEvaluator answers from a hash of each state's text and actions:
// values and priors that differ between a state and its mirror images, as
// a net's do.
type hashedEvaluator struct{ calls, states int }

func hashOf(parts ...string) float32 {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write([]byte(p))
	}
	return float32(h.Sum32()%1000) / 1000
}

func (h *hashedEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	h.calls++
	h.states += len(states)
	for i, s := range states {
		o := &out[i]
		v := 2*hashOf(s.String()) - 1
		o.Values = o.Values[:0]
		for p := range s.Game().Players() {
			o.Values = append(o.Values, v*float32(p+1)/float32(s.Game().Players()))
		}
		o.Policy = o.Policy[:0]
		total := float32(0)
		for _, a := range o.Actions {
			w := 0.1 + hashOf(s.String(), s.ActionString(a))
			o.Policy = append(o.Policy, w)
			total += w
		}
		for j := range o.Policy {
			o.Policy[j] /= total
		}
	}
	return nil
}

// randomStates plays n random plies from g's start, keeping every state.
func randomStates(g engine.Game, n int, seed uint64) []engine.State {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := g.Start()
	var out []engine.State
	for range n {
		if s.Over() {
			break
		}
		out = append(out, s.Clone())
		acts := s.LegalActions(nil)
		s.Play(acts[rng.IntN(len(acts))])
	}
	return out
}

// SymmetryAverage answers with the mean, over a state's images, of the
// values and of each action's image's prior, in one call to the inner
// evaluator, for games with 2 and 8 symmetries; a game with one is
// passed through.
func TestSymmetryAverage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		states []engine.State
	}{
		{"trench", randomStates(trench.Game, 30, 1)},
		{"tictactoe", randomStates(tictactoe.Game{}, 6, 2)},
		{"trichess", randomStates(trichess.Game, 10, 3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner := &hashedEvaluator{}
			out := make([]Evaluation, len(tc.states))
			for i, s := range tc.states {
				out[i].Actions = s.LegalActions(nil)
			}
			if err := (SymmetryAverage{Evaluator: inner}).Evaluate(tc.states, out); err != nil {
				t.Fatal(err)
			}
			k := tc.states[0].Game().Symmetries()
			if inner.calls != 1 || inner.states != k*len(tc.states) {
				t.Errorf("%d calls for %d states, want 1 for %d", inner.calls, inner.states, k*len(tc.states))
			}
			differs := false
			for i, s := range tc.states {
				values := make([]float64, s.Game().Players())
				priors := make([]float64, len(out[i].Actions))
				for sym := range k {
					img := s.Transform(sym)
					e := []Evaluation{{Actions: img.LegalActions(nil)}}
					(&hashedEvaluator{}).Evaluate([]engine.State{img}, e)
					for p, v := range e[0].Values {
						values[p] += float64(v) / float64(k)
					}
					for j, a := range out[i].Actions {
						m := s.TransformAction(sym, a)
						for n, b := range e[0].Actions {
							if b == m {
								priors[j] += float64(e[0].Policy[n]) / float64(k)
							}
						}
					}
				}
				own := []Evaluation{{Actions: out[i].Actions}}
				(&hashedEvaluator{}).Evaluate([]engine.State{s}, own)
				sum := 0.0
				for p, v := range values {
					if math.Abs(float64(out[i].Values[p])-v) > 1e-5 {
						t.Errorf("%s: value %d is %g, the mean over its images %g", s, p, out[i].Values[p], v)
					}
					differs = differs || math.Abs(float64(own[0].Values[p])-v) > 1e-3
				}
				for j, q := range priors {
					sum += float64(out[i].Policy[j])
					if math.Abs(float64(out[i].Policy[j])-q) > 1e-5 {
						t.Errorf("%s: prior of %s is %g, the mean over its images %g", s, s.ActionString(out[i].Actions[j]), out[i].Policy[j], q)
					}
				}
				if math.Abs(sum-1) > 1e-4 {
					t.Errorf("%s: priors sum to %g", s, sum)
				}
			}
			if differs != (k > 1) {
				t.Errorf("%d symmetries: averaged values differ from the state's own: %v", k, differs)
			}
		})
	}
}

// failingEvaluator fails every call, or gives too few priors.
type failingEvaluator struct{ short bool }

func (f failingEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	if !f.short {
		return errors.New("net down")
	}
	for i := range states {
		out[i].Values = append(out[i].Values[:0], 0, 0)
		out[i].Policy = append(out[i].Policy[:0], 1)
	}
	return nil
}

// The inner evaluator's errors and malformed answers are errors.
func TestSymmetryAverageErrors(t *testing.T) {
	s := trench.Game.Start()
	for _, tc := range []struct {
		ev   Evaluator
		want string
	}{
		{failingEvaluator{}, "net down"},
		{failingEvaluator{short: true}, "priors for"},
	} {
		out := []Evaluation{{Actions: s.LegalActions(nil)}}
		if err := (SymmetryAverage{Evaluator: tc.ev}).Evaluate([]engine.State{s}, out); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want an error with %q", err, tc.want)
		}
	}
	if err := (SymmetryAverage{Evaluator: failingEvaluator{}}).Evaluate(nil, nil); err != nil {
		t.Errorf("no states: %v", err)
	}
}
