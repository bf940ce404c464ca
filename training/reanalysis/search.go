package reanalysis

import (
	"context"
	"fmt"

	"trench/engine"
	"trench/mcts"
)

// Searcher is an mcts.Evaluator whose answers come from a search, as in
// MuZero's Reanalyse: each state's values are the root values of a search
// of Sims simulations with Evaluator, and its priors the search's policy
// (mcts.ActionStats.Policy: the shares of the root's visits for PUCT). The states of one call are searched together, their
// leaves evaluated in one batch per step. A Searcher is not safe for
// concurrent use.
type Searcher struct {
	// Evaluator guides the searches.
	Evaluator mcts.Evaluator
	// Params are the searches' settings (PUCT with no noise for values
	// that depend on the position alone).
	Params mcts.Params
	// Sims is each search's number of simulations.
	Sims int

	batch  mcts.BatchSearch
	trees  []*mcts.Tree
	result mcts.Result
}

// Evaluate searches every state, whose legal actions out[i].Actions holds
// in LegalActions order, and fills out with the searches' values and
// policies.
func (s *Searcher) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	if s.Sims < 1 {
		return fmt.Errorf("reanalysis: a search needs at least 1 simulation, got %d", s.Sims)
	}
	s.batch.Evaluator = s.Evaluator
	for i, st := range states {
		if i < len(s.trees) {
			s.trees[i].Reset(st)
			continue
		}
		t, err := mcts.NewTree(st, s.Params)
		if err != nil {
			return err
		}
		s.trees = append(s.trees, t)
	}
	trees := s.trees[:len(states)]
	if err := s.batch.Run(context.Background(), trees, s.Sims); err != nil {
		return err
	}
	for i, t := range trees {
		if err := t.Result(&s.result); err != nil {
			return err
		}
		o := &out[i]
		o.Values = append(o.Values[:0], s.result.Value...)
		if len(s.result.Actions) != len(o.Actions) {
			return fmt.Errorf("reanalysis: the search of %s has %d root actions, the caller %d", states[i], len(s.result.Actions), len(o.Actions))
		}
		o.Policy = o.Policy[:0]
		for _, a := range s.result.Actions {
			o.Policy = append(o.Policy, a.Policy)
		}
	}
	return nil
}
