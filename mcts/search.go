package mcts

import (
	"context"
	"sync"

	"trench/engine"
)

// Search runs sims simulations from the root with threads goroutines
// sharing the tree under virtual loss, each evaluating one leaf at a time.
// eval must be safe for concurrent use when threads > 1. Search returns
// early with ctx's error when ctx is done, or with the first evaluator
// error; the tree stays consistent either way.
func (t *Tree) Search(ctx context.Context, eval Evaluator, sims, threads int) error {
	if err := t.BeginSearch(sims); err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	threads = max(1, threads)
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for i := range threads {
		wg.Go(func() {
			if errs[i] = t.work(ctx, eval); errs[i] != nil {
				stop()
				t.mu.Lock()
				t.cond.Broadcast()
				t.mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// work selects, evaluates and backs up leaves until the search's
// simulations are all started, waiting when its path collides with a leaf
// out for evaluation.
func (t *Tree) work(ctx context.Context, eval Evaluator) error {
	var l Leaf
	states := make([]engine.State, 1)
	evals := make([]Evaluation, 1)
	t.mu.Lock()
	for {
		if err := ctx.Err(); err != nil {
			t.mu.Unlock()
			return err
		}
		if !t.selectLeaf(&l) {
			if t.a.nodes[0].status == expanded && t.allStarted() {
				t.mu.Unlock()
				return nil
			}
			t.cond.Wait()
			continue
		}
		t.mu.Unlock()
		states[0], evals[0] = l.State, l.Eval
		err := eval.Evaluate(states, evals)
		l.Eval = evals[0]
		if err != nil {
			t.Cancel(&l)
			return err
		}
		if err := t.Backup(&l); err != nil {
			return err
		}
		t.mu.Lock()
	}
}
