package nnue

import (
	"fmt"
	"testing"

	"trench/engine/trench"
)

// pathMoves is a random game's positions, each with the move played
// from it, for the benchmarks.
func pathMoves(b *testing.B) ([]trench.Position, []trench.Move) {
	ps := randomPositions(1, 13)
	ms := make([]trench.Move, 0, len(ps)-1)
	for i := 0; i+1 < len(ps); i++ {
		for _, m := range ps[i].GenerateMoves(nil) {
			c := ps[i]
			c.Play(m)
			if c == ps[i+1] {
				ms = append(ms, m)
				break
			}
		}
	}
	if len(ms) != len(ps)-1 {
		b.Fatal("the game's moves were not found")
	}
	return ps, ms
}

// BenchmarkUpdateEvaluate pushes one move and evaluates the child: the
// search's work per evaluated node, ns/op.
func BenchmarkUpdateEvaluate(b *testing.B) {
	ps, ms := pathMoves(b)
	for _, h := range []int{64, 128, 256} {
		net, _ := New(h, 1)
		for _, k := range allKernels() {
			b.Run(fmt.Sprintf("H=%d/%s", h, k.name), func(b *testing.B) {
				e := mustEvaluator(b, net)
				e.k = k
				e.SetRoot(&ps[0])
				e.grow(1)
				i, sum := 0, 0
				for b.Loop() {
					// Ply 0 stays the root's; only the update is timed.
					e.stack[0].ready = true
					e.Push(0, &ps[i], &ps[i+1], ms[i])
					// Output, not Evaluate: the game's positions come
					// round again, and Evaluate would remember them.
					sum += Centipoints(e.Output(1, &ps[i+1]))
					if i++; i == len(ms) {
						i = 0
					}
				}
				_ = sum
			})
		}
	}
}

// BenchmarkRefresh computes both accumulators from scratch and
// evaluates.
func BenchmarkRefresh(b *testing.B) {
	ps := randomPositions(100, 14)
	for _, h := range []int{64, 128, 256} {
		net, _ := New(h, 1)
		b.Run(fmt.Sprintf("H=%d/%s", h, best.name), func(b *testing.B) {
			e := mustEvaluator(b, net)
			i, sum := 0, 0
			for b.Loop() {
				e.SetRoot(&ps[i])
				sum += Centipoints(e.Output(0, &ps[i]))
				if i++; i == len(ps) {
					i = 0
				}
			}
			_ = sum
		})
	}
}

// BenchmarkReference is Net.Evaluate, the plain Go computation from
// scratch.
func BenchmarkReference(b *testing.B) {
	ps := randomPositions(100, 15)
	net, _ := New(128, 1)
	i := 0
	var sum float32
	for b.Loop() {
		sum += net.Evaluate(&ps[i])
		if i++; i == len(ps) {
			i = 0
		}
	}
	_ = sum
}
