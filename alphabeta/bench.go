package alphabeta

import (
	"context"
	"fmt"

	"trench/engine/trench"
	"trench/internal/excerpt"
)

// BenchPositions are the positions Bench searches: the start and a middle
// game with captures about.
var BenchPositions = []string{
	trench.StartFEN,
	"5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 b 3 2 0 12",
}

// Bench measures the search's speed: it searches each of BenchPositions
// to depth with a fresh engine and returns the total nodes and time (the
// Move and Score are those of the last position). Result.NodesPerSecond
// is the figure to report.
func Bench(ctx context.Context, depth int) (Result, error) {
	return BenchWith(ctx, Limits{Depth: depth}, Hand{})
}

// BenchWith is Bench with other limits and the evaluation eval. Node
// limits compare evaluations best: the same depth can take one far
// more nodes than another.
func BenchWith(ctx context.Context, limits Limits, eval Evaluator) (Result, error) {
	e, err := NewWith(0, eval)
	if err != nil {
		return Result{}, err
	}
	var total Result
	for _, fen := range BenchPositions {
		p, err := trench.ParseFEN(fen)
		if err != nil {
			return Result{}, fmt.Errorf("alphabeta bench position %s: %w", excerpt.Quote(fen), err)
		}
		e.Clear()
		r, err := e.Search(ctx, p, limits)
		if err != nil {
			return Result{}, err
		}
		total.Move, total.Score, total.Depth, total.PV = r.Move, r.Score, r.Depth, r.PV
		total.Nodes += r.Nodes
		total.Elapsed += r.Elapsed
	}
	return total, nil
}
