package nnue

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"trench/engine/trichess"
)

// trichessPath is a random Trichess game's positions, each with the move
// played from it, for the benchmarks.
func trichessPath(seed uint64) ([]trichess.Position, []trichess.Move) {
	r := rand.New(rand.NewPCG(seed, 17))
	p := trichess.StartPosition()
	ps := []trichess.Position{p}
	var ms, moves []trichess.Move
	for {
		if moves = p.GenerateMoves(moves[:0]); len(moves) == 0 {
			return ps, ms
		}
		m := moves[r.IntN(len(moves))]
		p.Play(m)
		ps, ms = append(ps, p), append(ms, m)
	}
}

// benchTrichessUpdate pushes one move and evaluates the child with
// eval, ns/op, for each hidden size and vector path.
func benchTrichessUpdate(b *testing.B, eval func(e *TrichessEvaluator, p *trichess.Position) float32) {
	ps, ms := trichessPath(1)
	for _, h := range []int{64, 128, 256} {
		net := mustTrichessNet(b, h, 1)
		for _, k := range allKernels() {
			b.Run(fmt.Sprintf("H=%d/%s", h, k.name), func(b *testing.B) {
				e := mustTrichessEvaluator(b, net)
				e.k = k
				e.SetRoot(&ps[0])
				e.grow(1)
				i := 0
				var sum float32
				for b.Loop() {
					// Ply 0 stays the root's; only the update is timed.
					e.stack[0].ready = true
					e.Push(0, &ps[i], &ps[i+1], ms[i])
					sum += eval(e, &ps[i+1])
					if i++; i == len(ms) {
						i = 0
					}
				}
				_ = sum
			})
		}
	}
}

// BenchmarkTrichessUpdateEvaluate pushes one move and evaluates the
// child for its side to move: an alpha-beta search's work per evaluated
// node.
func BenchmarkTrichessUpdateEvaluate(b *testing.B) {
	benchTrichessUpdate(b, func(e *TrichessEvaluator, p *trichess.Position) float32 { return e.Output(1, p) })
}

// BenchmarkTrichessUpdateValues pushes one move and computes all three
// seats' values of the child: a max^n search's work per evaluated node.
func BenchmarkTrichessUpdateValues(b *testing.B) {
	benchTrichessUpdate(b, func(e *TrichessEvaluator, _ *trichess.Position) float32 {
		v := e.Values(1)
		return v[0] + v[1] + v[2]
	})
}

// BenchmarkTrichessRefresh computes the three accumulators from scratch
// and evaluates the side to move.
func BenchmarkTrichessRefresh(b *testing.B) {
	ps, _ := trichessPath(2)
	for _, h := range []int{64, 128, 256} {
		net := mustTrichessNet(b, h, 1)
		b.Run(fmt.Sprintf("H=%d/%s", h, best.name), func(b *testing.B) {
			e := mustTrichessEvaluator(b, net)
			i := 0
			var sum float32
			for b.Loop() {
				e.SetRoot(&ps[i])
				sum += e.Output(0, &ps[i])
				if i++; i == len(ps) {
					i = 0
				}
			}
			_ = sum
		})
	}
}
