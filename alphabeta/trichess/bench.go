package trichess

import (
	"context"
	"fmt"

	"trench/engine/trichess"
	"trench/internal/excerpt"
)

// BenchPositions are the positions Bench searches: the start and a
// middle game with pieces exchanged and captures about.
var BenchPositions = []string{
	trichess.StartFEN,
	"wR1wBwQwKwB1wR/wPwPwP2wPwPwP/2wN2wN2/3wP1wP2|rR1rBrQrKrB1rR/rPrP1rP1rPrPrP/2rN2rN2/3rP4|bR1bBbQbKbB1bR/bPbPbP2bPbPbP/5bN2/3bPbP3 w KQ,KQ,KQ 1 5",
}

// Bench measures a search's speed: with algorithm a it searches each of
// BenchPositions to depth with a fresh searcher and returns the total
// nodes and time (the Move and Score are those of the last position).
// Result.NodesPerSecond is the figure to report.
func Bench(ctx context.Context, a Algorithm, depth int) (Result, error) {
	return BenchWith(ctx, a, Limits{Depth: depth}, Hand{})
}

// BenchWith is Bench with other limits and the evaluation eval, which
// the searcher then owns. Node limits compare evaluations best: the same
// depth can take one far more nodes than another.
func BenchWith(ctx context.Context, a Algorithm, limits Limits, eval Evaluator) (Result, error) {
	s, err := New(a, 18)
	if err != nil {
		return Result{}, err
	}
	s.SetEvaluator(eval)
	var total Result
	for _, fen := range BenchPositions {
		p, err := trichess.ParseFEN(fen)
		if err != nil {
			return Result{}, fmt.Errorf("trichess alphabeta bench position %s: %w", excerpt.Quote(fen), err)
		}
		s.Clear()
		r, err := s.Search(ctx, p, limits)
		if err != nil {
			return Result{}, err
		}
		total.Move, total.Score, total.Leads, total.Depth, total.PV = r.Move, r.Score, r.Leads, r.Depth, r.PV
		total.Nodes += r.Nodes
		total.Elapsed += r.Elapsed
	}
	return total, nil
}
