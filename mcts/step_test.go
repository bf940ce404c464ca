package mcts

import (
	"testing"

	"trench/engine/tictactoe"
)

// TestStepWithOwnBudgets checks that BatchSearch.Step completes each tree's
// own budget, as self-play needs for playout cap randomization.
func TestStepWithOwnBudgets(t *testing.T) {
	budgets := []int{8, 64, 1, 200}
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		trees := make([]*Tree, len(budgets))
		for i, sims := range budgets {
			tree, err := NewTree(tictactoe.Game{}.Start(), params(algo))
			if err != nil {
				t.Fatal(err)
			}
			if err := tree.BeginSearch(sims); err != nil {
				t.Fatal(err)
			}
			trees[i] = tree
		}
		b := BatchSearch{Evaluator: UniformEvaluator{}, LeavesPerTree: 2}
		steps := 0
		for {
			active, err := b.Step(trees)
			if err != nil {
				t.Fatal(err)
			}
			if !active {
				break
			}
			steps++
		}
		for i, tree := range trees {
			var r Result
			if err := tree.Result(&r); err != nil {
				t.Fatal(err)
			}
			if !tree.Done() || r.Visits < budgets[i] {
				t.Errorf("%v tree %d: done %v with %d root visits, want at least %d", algo, i, tree.Done(), r.Visits, budgets[i])
			}
		}
		if steps > 200 {
			t.Errorf("%v: %d steps for a largest budget of 200 at 2 leaves per tree", algo, steps)
		}
	}
}
