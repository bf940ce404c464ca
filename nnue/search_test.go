package nnue_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"trench/alphabeta"
	"trench/engine/trench"
	"trench/nnue"
)

var _ alphabeta.Evaluator = (*nnue.Evaluator)(nil)

func mustEvaluator(t testing.TB, net *nnue.Net) *nnue.Evaluator {
	t.Helper()
	e, err := nnue.NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestSearchWithNetIsDeterministic(t *testing.T) {
	net, err := nnue.New(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := trench.ParseFEN(alphabeta.BenchPositions[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, limits := range []alphabeta.Limits{{Depth: 2}, {Nodes: 20_000}} {
		var res [2]alphabeta.Result
		for i := range res {
			e, err := alphabeta.NewWith(16, mustEvaluator(t, net))
			if err != nil {
				t.Fatal(err)
			}
			if res[i], err = e.Search(context.Background(), p, limits); err != nil {
				t.Fatal(err)
			}
		}
		a, b := res[0], res[1]
		if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes || a.Depth != b.Depth {
			t.Errorf("%+v: two searches differ: %v %d %d nodes, %v %d %d nodes", limits, a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
		}
		if !p.IsLegal(a.Move) {
			t.Errorf("%+v: the best move %v is not legal", limits, a.Move)
		}
	}
}

// TestSearchScoreIsNets checks that a depth-1 search's score is the
// best child's evaluation by the reference computation: the accumulators
// the search kept agree with fresh ones.
func TestSearchScoreIsNets(t *testing.T) {
	net, err := nnue.New(64, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := trench.StartPosition()
	e, err := alphabeta.NewWith(16, mustEvaluator(t, net))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Search(context.Background(), p, alphabeta.Limits{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	best := -nnue.MaxEval - 1
	for _, m := range p.GenerateMoves(nil) {
		c := p
		c.Play(m)
		// No capture is possible from the start: each child is quiet.
		best = max(best, -nnue.Centipoints(net.Evaluate(&c)))
	}
	if d := r.Score - best; d < -1 || d > 1 {
		t.Errorf("depth-1 score %d, the reference's best child %d", r.Score, best)
	}
}

// BenchmarkSearch searches alphabeta's bench positions, 200000 nodes
// each, with the hand-written evaluation and with nets of random
// weights.
func BenchmarkSearch(b *testing.B) {
	evals := []struct {
		name string
		make func() alphabeta.Evaluator
	}{{"hand", func() alphabeta.Evaluator { return alphabeta.Hand{} }}}
	for _, h := range []int{64, 128, 256} {
		net, err := nnue.New(h, 1)
		if err != nil {
			b.Fatal(err)
		}
		evals = append(evals, struct {
			name string
			make func() alphabeta.Evaluator
		}{fmt.Sprintf("net-H=%d", h), func() alphabeta.Evaluator { return mustEvaluator(b, net) }})
	}
	for _, ev := range evals {
		b.Run(ev.name, func(b *testing.B) {
			// Nodes per second of the thread's CPU time, beside those
			// of the wall clock, which other processes disturb.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := threadCPU()
			var nodes uint64
			for b.Loop() {
				r, err := alphabeta.BenchWith(context.Background(), alphabeta.Limits{Nodes: 200_000}, ev.make())
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			if cpu := threadCPU() - cpu0; cpu0 > 0 && cpu > 0 {
				b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
			}
		})
	}
}
