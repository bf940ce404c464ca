package trench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"trench/alphabeta"
	"trench/engine"
	"trench/engine/trench"
	"trench/games/plugin"
	"trench/internal/excerpt"
	"trench/nnue"
)

// classical is package alphabeta as Trench's classical search.
type classical struct{}

func (classical) Name() string { return "alphabeta" }

func (classical) MaxDepth() int { return alphabeta.MaxDepth }

func (classical) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	return evaluation(hand).NewSearcher(tableBits)
}

// The evaluations of alphabeta's searchers: the hand-written one, the
// rules' alone (the score difference) and an efficiently updatable net
// read from a file (package nnue).
const (
	evalHand  = "hand"
	evalRules = "rules"
	evalNet   = "net"
)

func (classical) Evaluations() []string { return []string{evalHand, evalRules, evalNet} }

func (c classical) Evaluation(name, file string) (plugin.ClassicalEvaluation, error) {
	if name == "" {
		name = evalHand
		if file != "" {
			name = evalNet
		}
	}
	if name != evalNet && file != "" {
		return nil, fmt.Errorf("alphabeta: the %s evaluation reads no net file, got %s", name, excerpt.Quote(file))
	}
	switch name {
	case evalHand:
		return evaluation(hand), nil
	case evalRules:
		return evaluation(func() (alphabeta.Evaluator, error) { return alphabeta.Rules{}, nil }), nil
	case evalNet:
		if file == "" {
			return nil, errors.New("alphabeta: the net evaluation needs a net file")
		}
		net, err := nnue.Load(file)
		if err != nil {
			return nil, fmt.Errorf("alphabeta: %w", err)
		}
		return evaluation(func() (alphabeta.Evaluator, error) { return nnue.NewEvaluator(net) }), nil
	}
	return nil, fmt.Errorf("alphabeta: unknown evaluation %s (known: %s)", excerpt.Quote(name), strings.Join(c.Evaluations(), ", "))
}

// evaluation makes each searcher its own evaluator.
type evaluation func() (alphabeta.Evaluator, error)

// hand is the hand-written evaluation's.
func hand() (alphabeta.Evaluator, error) { return alphabeta.Hand{}, nil }

func (ev evaluation) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	eval, err := ev()
	if err != nil {
		return nil, err
	}
	e, err := alphabeta.NewWith(tableBits, eval)
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
type searcher struct{ e *alphabeta.Searcher }

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
