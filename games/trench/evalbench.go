package trench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"trench/alphabeta"
	"trench/engine/trench"
	"trench/games/plugin"
	"trench/nnue"
)

// benchHidden are the hidden sizes of the nnue nets measured, with
// random weights.
var benchHidden = []int{128, 256}

// nnueNodes is the node limit of each alphabeta bench position in the
// comparison of evaluations: at a fixed depth a net of random weights
// prunes far worse than the hand-written evaluation.
const nnueNodes = 100_000

// EvaluationSpeeds measures alphabeta's nodes/s on one core with the
// hand-written evaluation and with nnue nets of random weights, side by
// side, and the nets' incremental update and evaluation.
func (classical) EvaluationSpeeds(ctx context.Context, d time.Duration, add func(plugin.BenchFigure)) error {
	hand, err := alphaBetaSpeed(ctx, func() (alphabeta.Evaluator, error) { return alphabeta.Hand{}, nil }, d)
	if err != nil {
		return err
	}
	add(plugin.BenchFigure{Name: fmt.Sprintf("alphabeta search, hand evaluation, %d nodes a position, one core", nnueNodes), Value: hand, Unit: "nodes/s"})
	for _, h := range benchHidden {
		net, err := nnue.New(h, 1)
		if err != nil {
			return err
		}
		nps, err := alphaBetaSpeed(ctx, func() (alphabeta.Evaluator, error) { return nnue.NewEvaluator(net) }, d)
		if err != nil {
			return err
		}
		add(plugin.BenchFigure{Name: fmt.Sprintf("alphabeta search, nnue net H=%d, %d nodes a position, one core", h, nnueNodes), Value: nps, Unit: "nodes/s",
			Note: fmt.Sprintf("random weights, %.0f%% of the hand evaluation's", 100*nps/hand)})
		ns, err := nnueUpdateTime(ctx, net, d)
		if err != nil {
			return err
		}
		add(plugin.BenchFigure{Name: fmt.Sprintf("nnue update and evaluation, H=%d", h), Value: ns, Unit: "ns",
			Note: "one move's accumulator update, then the output, along random games"})
	}
	return ctx.Err()
}

// alphaBetaSpeed searches alphabeta's bench positions, nnueNodes each,
// with an engine and evaluator made afresh for each round, for about d,
// and returns the nodes/s.
func alphaBetaSpeed(ctx context.Context, eval func() (alphabeta.Evaluator, error), d time.Duration) (float64, error) {
	var nodes uint64
	var spent time.Duration
	for ctx.Err() == nil && (spent < d || nodes == 0) {
		ev, err := eval()
		if err != nil {
			return 0, err
		}
		r, err := alphabeta.BenchWith(ctx, alphabeta.Limits{Nodes: nnueNodes}, ev)
		if err != nil {
			return 0, err
		}
		nodes += r.Nodes
		spent += r.Elapsed
	}
	return float64(nodes) / spent.Seconds(), nil
}

// nnueUpdateTime is the mean time of one Push and Evaluate of a child
// along random games, in ns, over about d.
func nnueUpdateTime(ctx context.Context, net *nnue.Net, d time.Duration) (float64, error) {
	type step struct {
		parent, child trench.Position
		move          trench.Move
	}
	// Random games, without their last position: every child is
	// evaluated, so none may be over.
	r := rand.New(rand.NewPCG(1, 2))
	var games [][]step
	for range 16 {
		var g []step
		for p := trench.StartPosition(); ; {
			moves := p.GenerateMoves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[r.IntN(len(moves))]
			child := p
			child.Play(m)
			if child.Over() {
				break
			}
			g = append(g, step{p, child, m})
			p = child
		}
		games = append(games, g)
	}
	e, err := nnue.NewEvaluator(net)
	if err != nil {
		return 0, err
	}
	n := 0
	start := time.Now()
	for ctx.Err() == nil && (time.Since(start) < d || n == 0) {
		for _, g := range games {
			root := trench.StartPosition()
			e.SetRoot(&root)
			for ply := range g {
				e.Push(ply, &g[ply].parent, &g[ply].child, g[ply].move)
				// Output, not Evaluate: the games come round again,
				// and Evaluate would remember their positions.
				nnue.Centipoints(e.Output(ply+1, &g[ply].child))
			}
			n += len(g)
		}
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n), nil
}
