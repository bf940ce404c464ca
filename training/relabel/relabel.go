// Package relabel gives self-play positions the targets of a teacher:
// an mcts.Evaluator's values become each position's search value, and
// optionally its policy the policy target. The teacher may be a net or a
// search with one (trench reanalyse), or the game's classical search,
// which knows nothing of any net (Classical): trench reanalyse relabels
// stored shards with it, and trench train's --classical-depth labels
// each self-play game as it is played.
package relabel

import (
	"errors"
	"fmt"

	"trench/datasets"
	"trench/engine"
	"trench/mcts"
)

// DefaultBatch is the number of positions evaluated at once by default.
const DefaultBatch = 256

// Labeller evaluates samples in batches, reusing its evaluations'
// buffers from one batch to the next. It is not safe for concurrent use.
type Labeller struct {
	g      engine.Game
	ev     mcts.Evaluator
	batch  int
	policy bool
	states []engine.State
	evals  []mcts.Evaluation
}

// New returns a labeller of game g's samples by ev, batch positions at a
// time (DefaultBatch when batch is 0 or less), that with policy also
// replaces their policy targets.
func New(g engine.Game, ev mcts.Evaluator, batch int, policy bool) *Labeller {
	if batch <= 0 {
		batch = DefaultBatch
	}
	return &Labeller{g: g, ev: ev, batch: batch, policy: policy}
}

// Relabel sets each sample's SearchValue to the evaluator's values of its
// position, each clamped to [-1, 1], and with policy its policy target to
// the evaluator's policy (SetPolicy). An error names the position by its
// index in samples.
func (r *Labeller) Relabel(samples []datasets.Sample) error {
	players := r.g.Players()
	for start := 0; start < len(samples); start += r.batch {
		part := samples[start:min(start+r.batch, len(samples))]
		r.states = r.states[:0]
		for len(r.evals) < len(part) {
			r.evals = append(r.evals, mcts.Evaluation{})
		}
		evals := r.evals[:len(part)]
		for i := range part {
			s, err := r.g.ParseState(part[i].State)
			if err != nil {
				return fmt.Errorf("position %d: %w", start+i, err)
			}
			r.states = append(r.states, s)
			evals[i].Actions = s.LegalActions(evals[i].Actions[:0])
		}
		if err := r.ev.Evaluate(r.states, evals); err != nil {
			return err
		}
		for i := range part {
			v := evals[i].Values
			if len(v) != players {
				return fmt.Errorf("position %d: the evaluator gave %d values for %d players", start+i, len(v), players)
			}
			sv := make([]float32, players)
			for p, x := range v {
				sv[p] = max(-1, min(1, x))
			}
			part[i].SearchValue = sv
			if r.policy {
				if err := SetPolicy(&part[i], evals[i]); err != nil {
					return fmt.Errorf("position %d: %w", start+i, err)
				}
			}
		}
	}
	return nil
}

// SetPolicy makes the evaluation's policy the sample's policy target,
// from a full search (with no policy surprise recorded).
func SetPolicy(s *datasets.Sample, e mcts.Evaluation) error {
	if len(e.Policy) != len(e.Actions) {
		return fmt.Errorf("the evaluator gave %d priors for %d legal actions", len(e.Policy), len(e.Actions))
	}
	s.Actions, s.Probs = s.Actions[:0], s.Probs[:0]
	for j, p := range e.Policy {
		if p > 0 {
			s.Actions = append(s.Actions, int32(e.Actions[j]))
			s.Probs = append(s.Probs, p)
		}
	}
	if len(s.Actions) == 0 {
		return errors.New("the evaluator's policy is empty")
	}
	s.FullSearch, s.Surprise = true, nil
	return nil
}
