package mcts_test

import (
	"context"
	"fmt"
	"testing"

	"trench/engine/trench"
	"trench/mcts"
)

// BenchmarkSearch plays Trench from the start with one tree, searching
// each move for 64 simulations with the uniform evaluator and the given
// number of threads, and reports simulations per second: the cost of the
// tree itself (selection, expansion, backup and the rules engine).
func BenchmarkSearch(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("uniform/threads=%d", threads), func(b *testing.B) {
			const sims = 64
			tree, err := mcts.NewTree(trench.Game.Start(), mcts.DefaultParams())
			if err != nil {
				b.Fatal(err)
			}
			var r mcts.Result
			for b.Loop() {
				if err := tree.Search(context.Background(), mcts.UniformEvaluator{}, sims, threads); err != nil {
					b.Fatal(err)
				}
				if err := tree.Result(&r); err != nil {
					b.Fatal(err)
				}
				if err := tree.Advance(r.Action); err != nil {
					b.Fatal(err)
				}
				if tree.State().Over() {
					tree.Reset(trench.Game.Start())
				}
			}
			b.ReportMetric(float64(b.N*sims)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
