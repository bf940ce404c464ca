package mcts

import (
	"context"
	"fmt"

	"trench/engine"
)

// BatchSearch searches many trees at once, one tree per game: each step it
// selects up to LeavesPerTree leaves from every unfinished tree and
// evaluates them all in a single Evaluate call. It runs in the caller's
// goroutine, so with a deterministic evaluator and seeds the searches are
// reproducible. Its buffers are reused from one Run to the next.
type BatchSearch struct {
	// Evaluator evaluates every step's leaves in one call.
	Evaluator Evaluator
	// LeavesPerTree is the most leaves taken from one tree per step, under
	// virtual loss; 0 means 1.
	LeavesPerTree int

	leaves []Leaf
	states []engine.State
	evals  []Evaluation
	owners []int
}

// Run searches every tree for sims simulations. It stops early with ctx's
// error when ctx is done, or with the first evaluator or backup error,
// leaving every tree consistent.
func (b *BatchSearch) Run(ctx context.Context, trees []*Tree, sims int) error {
	for i, t := range trees {
		if err := t.BeginSearch(sims); err != nil {
			return fmt.Errorf("mcts: tree %d: %w", i, err)
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		active, err := b.Step(trees)
		if err != nil || !active {
			return err
		}
	}
}

// Step selects up to LeavesPerTree leaves from every tree whose search
// (begun with Tree.BeginSearch, each with its own budget) is not complete,
// evaluates them in one call and backs them up. It reports whether any
// leaf was evaluated; false means every search is complete. On an error
// every tree stays consistent.
func (b *BatchSearch) Step(trees []*Tree) (bool, error) {
	per := max(1, b.LeavesPerTree)
	if n := len(trees) * per; len(b.leaves) < n {
		b.leaves = append(b.leaves, make([]Leaf, n-len(b.leaves))...)
	}
	b.states, b.evals, b.owners = b.states[:0], b.evals[:0], b.owners[:0]
	for i, t := range trees {
		for j := range per {
			l := &b.leaves[i*per+j]
			if !t.SelectLeaf(l) {
				break
			}
			b.states = append(b.states, l.State)
			b.evals = append(b.evals, l.Eval)
			b.owners = append(b.owners, i*per+j)
		}
	}
	if len(b.states) == 0 {
		return false, nil
	}
	err := b.Evaluator.Evaluate(b.states, b.evals)
	for k, o := range b.owners {
		l, t := &b.leaves[o], trees[o/per]
		l.Eval = b.evals[k]
		if err != nil {
			t.Cancel(l)
		} else if berr := t.Backup(l); berr != nil && err == nil {
			err = berr
		}
	}
	clear(b.states)
	return true, err
}
