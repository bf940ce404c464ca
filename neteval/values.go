package neteval

import (
	"fmt"
	"sync"

	"trench/engine"
	"trench/games/plugin"
	"trench/mcts"
)

// Values take a search's leaf values from a game's classical evaluation
// (Trench's NNUE) in place of its net's: the evaluation of the leaf
// itself, or with Quiescence its score at the end of the classical
// search's quiescence, the captures pending at the leaf resolved. The
// evaluator whose values they replace still gives the priors: the
// net's, or without one tactics.Fallback's capture-first priors. The
// games with a classical search have two players: the value is the
// player to move's, its negation the other's.
type Values struct {
	// Evaluation values the leaves; what it read (the net) is shared by
	// every search with these values.
	Evaluation plugin.ClassicalEvaluation
	// Quiescence values a leaf at the end of its quiescence search.
	Quiescence bool
}

// String describes the values for people, e.g. "values of nnue
// trench.nnue (128 hidden units) after its quiescence search".
func (v Values) String() string {
	if v.Quiescence {
		return fmt.Sprintf("values of %s after its quiescence search", v.Evaluation)
	}
	return fmt.Sprintf("values of %s at the leaf", v.Evaluation)
}

// Wrap returns an evaluator with priors's answers but v's values. Each
// Evaluate call values its states with a valuer of its own (one kept
// idle from an earlier call, or a new one), so that the goroutines of a
// search never share one: the evaluator is safe for concurrent use when
// priors is, and keeps as many valuers as calls ran at once.
func (v Values) Wrap(priors mcts.Evaluator) mcts.Evaluator {
	return &valuesEvaluator{priors: priors, values: v}
}

// valuesEvaluator is an evaluator of Values.Wrap.
type valuesEvaluator struct {
	priors mcts.Evaluator
	values Values
	mu     sync.Mutex
	idle   []plugin.ClassicalValuer
}

// Evaluate fills out[i] with the priors' answer for states[i], its
// values replaced by the valuer's: for two players the value for the
// player to move and its negation for the other, for more every seat's
// (plugin.SeatValuer).
func (e *valuesEvaluator) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	if err := e.priors.Evaluate(states, out); err != nil {
		return err
	}
	v, err := e.take()
	if err != nil {
		return err
	}
	defer e.give(v)
	for i, s := range states {
		o := &out[i]
		if n := s.Game().Players(); n != 2 {
			sv, ok := v.(plugin.SeatValuer)
			if !ok {
				return fmt.Errorf("neteval: %s values two players, %s has %d", e.values.Evaluation, s.Game().Name(), n)
			}
			if o.Values, err = sv.Values(s, o.Values); err != nil {
				return err
			}
			continue
		}
		x, err := v.Value(s)
		if err != nil {
			return err
		}
		o.Values = append(o.Values[:0], -float32(x), -float32(x))
		o.Values[s.ToMove()] = float32(x)
	}
	return nil
}

// take returns an idle valuer, or a new one when none is idle.
func (e *valuesEvaluator) take() (plugin.ClassicalValuer, error) {
	e.mu.Lock()
	if n := len(e.idle); n > 0 {
		v := e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.mu.Unlock()
		return v, nil
	}
	e.mu.Unlock()
	return e.values.Evaluation.NewValuer(e.values.Quiescence)
}

// give makes v idle again.
func (e *valuesEvaluator) give(v plugin.ClassicalValuer) {
	e.mu.Lock()
	e.idle = append(e.idle, v)
	e.mu.Unlock()
}
