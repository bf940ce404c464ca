package mcts

import (
	"fmt"

	"trench/engine"
)

// SymmetryAverage is an Evaluator that asks Evaluator about every state
// under each of its game's board symmetries, all in one call, and answers
// with the means: each player's value over the images, and each legal
// action's prior over its images' priors. A net trained on positions
// under random symmetries gives each image a slightly different answer;
// their mean has less of that noise. It costs as many evaluations as the
// game has symmetries; for a game with none it is Evaluator itself.
type SymmetryAverage struct {
	Evaluator Evaluator
}

// Evaluate fills out with Evaluator's answers averaged over the states'
// symmetric images.
func (s SymmetryAverage) Evaluate(states []engine.State, out []Evaluation) error {
	if len(states) == 0 {
		return nil
	}
	k := states[0].Game().Symmetries()
	if k <= 1 {
		return s.Evaluator.Evaluate(states, out)
	}
	n := len(states)
	images := make([]engine.State, n*k)
	evals := make([]Evaluation, n*k)
	for sym := range k {
		for i, st := range states {
			j := sym*n + i
			if sym == 0 {
				images[j], evals[j].Actions = st, out[i].Actions
				continue
			}
			images[j] = st.Transform(sym)
			evals[j].Actions = images[j].LegalActions(nil)
		}
	}
	if err := s.Evaluator.Evaluate(images, evals); err != nil {
		return err
	}
	index := map[int]int{}
	for i, st := range states {
		o := &out[i]
		o.Values = append(o.Values[:0], evals[i].Values...)
		o.Policy = append(o.Policy[:0], evals[i].Policy...)
		if len(o.Policy) != len(o.Actions) {
			return fmt.Errorf("mcts: %d priors for %d legal actions of %s", len(o.Policy), len(o.Actions), st)
		}
		for sym := 1; sym < k; sym++ {
			e := &evals[sym*n+i]
			if len(e.Values) != len(o.Values) || len(e.Policy) != len(e.Actions) || len(e.Actions) != len(o.Actions) {
				return fmt.Errorf("mcts: the image of %s under symmetry %d has %d values, %d priors and %d legal actions, against %d, %d and %d",
					st, sym, len(e.Values), len(e.Policy), len(e.Actions), len(o.Values), len(o.Policy), len(o.Actions))
			}
			for p, v := range e.Values {
				o.Values[p] += v
			}
			clear(index)
			for j, a := range e.Actions {
				index[a] = j
			}
			for j, a := range o.Actions {
				m, ok := index[st.TransformAction(sym, a)]
				if !ok {
					return fmt.Errorf("mcts: action %s of %s has no image under symmetry %d", st.ActionString(a), st, sym)
				}
				o.Policy[j] += e.Policy[m]
			}
		}
		for p := range o.Values {
			o.Values[p] /= float32(k)
		}
		for j := range o.Policy {
			o.Policy[j] /= float32(k)
		}
	}
	return nil
}
