package trench

import (
	"context"
	"math"
	"time"

	"trench/alphabeta"
	"trench/engine"
	"trench/engine/trench"
	"trench/games/plugin"
)

// classical is package alphabeta as Trench's classical engine.
type classical struct{}

func (classical) Name() string { return "alphabeta" }

func (classical) MaxDepth() int { return alphabeta.MaxDepth }

func (classical) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	e, err := alphabeta.New(tableBits)
	if err != nil {
		return nil, err
	}
	return searcher{e}, nil
}

// handScale is the alphabeta evaluation, in centipoints, that maps to a
// value of tanh(1) ≈ 0.76: a capture of x points moves the evaluation by
// about 120·x, so that the scale matches tactics.MaterialScale's 10
// points.
const handScale = 1200

// Value is alphabeta's evaluation of a Trench position that is not over,
// for the side to move, as a value: tanh(cp/handScale).
func (classical) Value(s engine.State) float32 {
	return float32(math.Tanh(float64(alphabeta.Evaluate(&s.(*trench.State).Position)) / handScale))
}

// NodesPerSecond searches the alphabeta benchmark positions one depth
// deeper at a time while the next depth (a few times the last) fits in d.
func (classical) NodesPerSecond(ctx context.Context, d time.Duration) (float64, error) {
	var nodes uint64
	var spent time.Duration
	for depth := 1; depth <= alphabeta.MaxDepth && (4*spent < d || nodes == 0) && ctx.Err() == nil; depth++ {
		r, err := alphabeta.Bench(ctx, depth)
		if err != nil {
			return 0, err
		}
		nodes += r.Nodes
		spent += r.Elapsed
	}
	if spent == 0 {
		return 0, nil
	}
	return float64(nodes) / spent.Seconds(), nil
}

// searcher is one alphabeta engine with its table.
type searcher struct{ e *alphabeta.Engine }

func (s searcher) Search(ctx context.Context, st engine.State, l plugin.ClassicalLimits) (plugin.ClassicalResult, error) {
	pos, err := alphabeta.FromState(st)
	if err != nil {
		return plugin.ClassicalResult{}, err
	}
	r, err := s.e.Search(ctx, *pos, alphabeta.Limits{Depth: l.Depth, Time: l.Time, Nodes: l.Nodes})
	if err != nil {
		return plugin.ClassicalResult{}, err
	}
	return plugin.ClassicalResult{
		Action: trench.MoveToAction(r.Move, pos.SideToMove()),
		Score:  float64(r.Score) / 100,
		Forced: r.Forced(),
		Depth:  r.Depth,
	}, nil
}
