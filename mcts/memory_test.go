package mcts

import (
	"context"
	"runtime"
	"testing"

	"trench/engine/tictactoe"
)

// playSequential plays one game with tree reuse and returns its length.
func playSequential(t testing.TB, tree *Tree, eval Evaluator, sims int) int {
	tree.Reset(tictactoe.Game{}.Start())
	var r Result
	n := 0
	for ; !tree.State().Over(); n++ {
		if err := tree.Search(context.Background(), eval, sims, 1); err != nil {
			t.Fatal(err)
		}
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		if err := tree.Advance(r.Action); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays hundreds of games")
	}
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		p := params(algo)
		p.Temperature = 1
		tree, err := NewTree(tictactoe.Game{}.Start(), p)
		if err != nil {
			t.Fatal(err)
		}
		heap := func() uint64 {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		for range 20 {
			playSequential(t, tree, UniformEvaluator{}, 300)
		}
		warm, warmCap := heap(), cap(tree.a.nodes)+cap(tree.spare.nodes)
		for range 200 {
			playSequential(t, tree, UniformEvaluator{}, 300)
		}
		if now := heap(); now > warm+1<<20 {
			t.Errorf("%s: heap grew from %d to %d bytes over 200 games", algo, warm, now)
		}
		if c := cap(tree.a.nodes) + cap(tree.spare.nodes); c > 2*warmCap {
			t.Errorf("%s: arenas grew from %d to %d nodes", algo, warmCap, c)
		}
	}
}
