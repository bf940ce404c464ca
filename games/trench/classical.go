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
	return handEvaluation.NewSearcher(tableBits)
}

// The evaluations of alphabeta's searchers beside the hand-written one
// and the net's (plugin.EvalNNUE): the rules' alone (the score
// difference), named as the bot's eval setting names it; evalNetOld is
// the net's former name, still read.
const (
	evalRules  = "rules"
	evalNetOld = "net"
)

func (classical) Evaluations() []string {
	return []string{plugin.EvalHand, evalRules, plugin.EvalNNUE}
}

// Evaluation reads the net of the net evaluation with nnue.LoadRef: a
// net file, a generation run directory's newest accepted net, or
// "default", the one built in.
func (c classical) Evaluation(name, net string) (plugin.ClassicalEvaluation, error) {
	if name == evalNetOld {
		name = plugin.EvalNNUE
	}
	name, err := plugin.EvalName(name, net)
	if err != nil {
		return nil, fmt.Errorf("alphabeta: %w", err)
	}
	switch name {
	case plugin.EvalHand:
		return handEvaluation, nil
	case evalRules:
		return evaluation{"the rules' score difference", func() (alphabeta.Evaluator, error) { return alphabeta.Rules{}, nil }}, nil
	case plugin.EvalNNUE:
		if net == "" {
			return nil, errors.New("alphabeta: the nnue evaluation needs a net")
		}
		n, source, err := nnue.LoadRef(net)
		if err != nil {
			return nil, fmt.Errorf("alphabeta: %w", err)
		}
		doc := fmt.Sprintf("nnue %s (%d hidden units)", source, n.Hidden)
		return evaluation{doc, func() (alphabeta.Evaluator, error) { return nnue.NewEvaluator(n) }}, nil
	}
	return nil, fmt.Errorf("alphabeta: unknown evaluation %s (known: %s)", excerpt.Quote(name), strings.Join(c.Evaluations(), ", "))
}

// evaluation makes each searcher its own evaluator; doc describes it.
type evaluation struct {
	doc  string
	make func() (alphabeta.Evaluator, error)
}

// handEvaluation is the hand-written evaluation's.
var handEvaluation = evaluation{"the hand-written evaluation", func() (alphabeta.Evaluator, error) { return alphabeta.Hand{}, nil }}

func (ev evaluation) String() string { return ev.doc }

func (ev evaluation) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	eval, err := ev.make()
	if err != nil {
		return nil, err
	}
	e, err := alphabeta.NewWith(tableBits, eval)
	if err != nil {
		return nil, err
	}
	return searcher{e}, nil
}

// valuerTableBits sizes the table of a valuer's searcher, which its
// quiescence search does not use: the smallest alphabeta takes.
const valuerTableBits = 10

// NewValuer makes a valuer with an evaluator of its own, and with
// quiesce a searcher of its own for Searcher.Quiesce.
func (ev evaluation) NewValuer(quiesce bool) (plugin.ClassicalValuer, error) {
	eval, err := ev.make()
	if err != nil {
		return nil, err
	}
	v := &valuer{eval: eval}
	if quiesce {
		if v.search, err = alphabeta.NewWith(valuerTableBits, eval); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// valuer values positions with its evaluator: at the position itself,
// or with search at the end of the searcher's quiescence.
type valuer struct {
	eval   alphabeta.Evaluator
	search *alphabeta.Searcher
	result []float32
}

// Value is the evaluation, or the quiescence search's score, of s as a
// value for the player to move (scoreValue); a finished game's result.
func (v *valuer) Value(s engine.State) (float64, error) {
	pos, err := alphabeta.FromState(s)
	if err != nil {
		return 0, err
	}
	if s.Over() {
		v.result = s.Result(v.result)
		return float64(v.result[s.ToMove()]), nil
	}
	if v.search != nil {
		r := v.search.Quiesce(*pos)
		return scoreValue(r.Score, r.Forced()), nil
	}
	v.eval.SetRoot(pos)
	return scoreValue(v.eval.Evaluate(0, pos), 0), nil
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
	return plugin.DeepeningSpeed(ctx, alphabeta.MaxDepth, d, func(ctx context.Context, depth int) (uint64, time.Duration, error) {
		r, err := alphabeta.Bench(ctx, depth)
		return r.Nodes, r.Elapsed, err
	})
}

// searcher is one alphabeta engine with its table.
type searcher struct{ e *alphabeta.Searcher }

func (s searcher) Search(ctx context.Context, st engine.State, l plugin.ClassicalLimits) (plugin.ClassicalResult, error) {
	pos, err := alphabeta.FromState(st)
	if err != nil {
		return plugin.ClassicalResult{}, err
	}
	r, err := s.e.SearchLines(ctx, *pos, alphabeta.Limits{Depth: l.Depth, Time: l.Time, Nodes: l.Nodes}, l.MultiPV)
	if err != nil {
		return plugin.ClassicalResult{}, err
	}
	side := pos.SideToMove()
	res := plugin.ClassicalResult{
		Action: trench.MoveToAction(r.Move, side),
		Score:  float64(r.Score) / 100,
		Forced: r.Forced(),
		Depth:  r.Depth,
		Value:  scoreValue(r.Score, r.Forced()),
		PV:     actions(r.PV, side),
		Nodes:  r.Nodes,
	}
	for _, l := range r.Lines {
		res.Lines = append(res.Lines, plugin.ClassicalLine{
			Action: trench.MoveToAction(l.Move, side),
			Score:  float64(l.Score) / 100,
			Forced: l.Forced(),
			Depth:  l.Depth,
			Value:  scoreValue(l.Score, l.Forced()),
			PV:     actions(l.PV, side),
		})
	}
	return res, nil
}

// actions is line, played from a position where side moves, as actions;
// nil for no move.
func actions(line []trench.Move, side trench.Color) []int {
	var acts []int
	for _, m := range line {
		acts = append(acts, trench.MoveToAction(m, side))
		side = side.Other()
	}
	return acts
}

// Clear forgets the engine's table and move-ordering statistics.
func (s searcher) Clear() { s.e.Clear() }

// scoreValue is a search's score, in centipoints, as the side to move's
// expected result in [-1, 1]: 2σ(cp/nnue.EvalScale) − 1, the NNUE's
// scale (its output is a logit of the win chance), taken for every
// evaluation; ±1 for a forced win or loss.
func scoreValue(cp, forced int) float64 {
	if forced != 0 {
		return float64(forced)
	}
	return math.Tanh(float64(cp) / (2 * nnue.EvalScale))
}
