package trichess

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	trichessab "trench/alphabeta/trichess"
	"trench/engine"
	"trench/engine/trichess"
	"trench/games/plugin"
	"trench/internal/excerpt"
	"trench/nnue"
)

// classical is package alphabeta/trichess as Trichess's classical search.
type classical struct{}

func (classical) Name() string { return "alphabeta" }

func (classical) MaxDepth() int { return trichessab.MaxDepth }

func (classical) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	return handEvaluation.NewSearcher(tableBits)
}

// evalMaterial names the evaluation by the rules' piece points alone,
// beside the hand-written one and the net's (plugin.EvalNNUE), as the
// bot's eval setting names it.
const evalMaterial = "material"

func (classical) Evaluations() []string {
	return []string{plugin.EvalHand, evalMaterial, plugin.EvalNNUE}
}

// Evaluation returns the evaluation named name, searching with the
// default algorithm; nnue (the evaluation of a net given alone) reads
// the Trichess net that net names, a file, a run directory or the one
// built in (shipped.Ref), with nnue.Trichess.LoadRef, which refuses
// another game's.
func (c classical) Evaluation(name, net string) (plugin.ClassicalEvaluation, error) {
	name, err := plugin.EvalName(name, net)
	if err != nil {
		return nil, fmt.Errorf("alphabeta: %w", err)
	}
	switch name {
	case plugin.EvalHand:
		return handEvaluation, nil
	case evalMaterial:
		return evaluation{trichessab.Default, "the rules' piece points", func() (trichessab.Evaluator, error) { return trichessab.Material{}, nil }}, nil
	case plugin.EvalNNUE:
		n, source, err := nnue.Trichess.LoadRef(net)
		if err != nil {
			return nil, fmt.Errorf("alphabeta: %w", err)
		}
		doc := fmt.Sprintf("nnue %s (%d hidden units)", source, n.Hidden)
		return evaluation{trichessab.Default, doc, func() (trichessab.Evaluator, error) { return trichessab.NewNNUE(n) }}, nil
	}
	return nil, fmt.Errorf("alphabeta: unknown evaluation %s (known: %s)", excerpt.Quote(name), strings.Join(c.Evaluations(), ", "))
}

func (classical) Algorithms() []string { return trichessab.AlgorithmNames() }

// WithAlgorithm returns ev searching with the algorithm named name:
// paranoid, brs or maxn.
func (classical) WithAlgorithm(ev plugin.ClassicalEvaluation, name string) (plugin.ClassicalEvaluation, error) {
	e, ok := ev.(evaluation)
	if !ok {
		return nil, fmt.Errorf("alphabeta: %s is not a Trichess evaluation", ev)
	}
	a, err := trichessab.ParseAlgorithm(name)
	if err != nil {
		return nil, fmt.Errorf("alphabeta: %w", err)
	}
	e.algorithm = a
	return e, nil
}

// evaluation is an evaluation searched with an algorithm: make makes
// each searcher and valuer its own evaluator (what it read, a net, is
// shared); doc describes it.
type evaluation struct {
	algorithm trichessab.Algorithm
	doc       string
	make      func() (trichessab.Evaluator, error)
}

// handEvaluation is the hand-written evaluation's, with the default
// algorithm.
var handEvaluation = evaluation{trichessab.Default, "the hand-written evaluation", func() (trichessab.Evaluator, error) { return trichessab.Hand{}, nil }}

func (ev evaluation) String() string {
	return fmt.Sprintf("%s, %s search", ev.doc, ev.algorithm)
}

func (ev evaluation) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	eval, err := ev.make()
	if err != nil {
		return nil, err
	}
	s, err := trichessab.New(ev.algorithm, tableBits)
	if err != nil {
		return nil, err
	}
	s.SetEvaluator(eval)
	return searcher{s}, nil
}

// valuerTableBits sizes the table of a valuer's searcher, which its
// quiescence search does not use: the smallest the search takes.
const valuerTableBits = 10

// NewValuer makes a valuer with an evaluator of its own, and with
// quiesce a searcher of its own, with that evaluator, for its quiescence
// search.
func (ev evaluation) NewValuer(quiesce bool) (plugin.ClassicalValuer, error) {
	eval, err := ev.make()
	if err != nil {
		return nil, err
	}
	v := &valuer{eval: eval}
	if quiesce {
		s, err := trichessab.New(ev.algorithm, valuerTableBits)
		if err != nil {
			return nil, err
		}
		s.SetEvaluator(eval)
		v.search = s
	}
	return v, nil
}

// valuer values positions with its evaluator, or with search at the end
// of its quiescence search.
type valuer struct {
	eval   trichessab.Evaluator
	search *trichessab.Searcher
	values []float32
}

// Value is the player to move's lead in s, by the evaluation or the
// quiescence search, as a value (leadValue); a finished game's result.
func (v *valuer) Value(s engine.State) (float64, error) {
	vs, err := v.Values(s, v.values)
	if err != nil {
		return 0, err
	}
	v.values = vs
	return float64(vs[s.ToMove()]), nil
}

// Values is every seat's lead in s, by the evaluation or the quiescence
// search, as values (leadValue); a finished game's results. With the
// quiescence of BRS+ or paranoid, which follow the mover's lead alone,
// each other seat's is the opposite of half of it.
func (v *valuer) Values(s engine.State, dst []float32) ([]float32, error) {
	st, err := fromState(s)
	if err != nil {
		return dst, err
	}
	if s.Over() {
		return s.Result(dst), nil
	}
	var leads trichessab.Values
	if v.search != nil {
		leads = v.search.Quiesce(st.Position).Leads
	} else {
		v.eval.SetRoot(&st.Position)
		leads = v.eval.Leads(0, &st.Position)
	}
	dst = dst[:0]
	for _, l := range leads {
		dst = append(dst, float32(leadValue(l)))
	}
	return dst, nil
}

// fromState returns the Trichess state s, or an error naming the game if
// s is not one.
func fromState(s engine.State) (*trichess.State, error) {
	st, ok := s.(*trichess.State)
	if !ok {
		return nil, fmt.Errorf("the trichess alphabeta plays only trichess, not %s", s.Game().Name())
	}
	return st, nil
}

// leadScale is the lead, in centipoints, whose value is tanh(1) ≈ 0.76:
// ten of the rules' piece points ahead of the other two's mean.
const leadScale = 1000

// leadValue is a lead as a value in [-1, 1]: tanh(lead/leadScale), or
// for a finished game's the title's utility (State.Result's scale:
// seigneur 1, chevalier 1/3, vassal -1/3, serf -1).
func leadValue(lead int) float64 {
	if t, ok := trichessab.TitleOf(lead); ok {
		return float64(2*t.Points()-3) / 3
	}
	return math.Tanh(float64(lead) / leadScale)
}

// Value is the hand-written evaluation of a Trichess state that is not
// over, the player to move's lead, as a value (leadValue).
func (classical) Value(s engine.State) float32 {
	st := s.(*trichess.State)
	return float32(leadValue(trichessab.Evaluate(&st.Position).Lead(st.SideToMove())))
}

// NodesPerSecond searches the bench positions with the default
// algorithm one depth deeper at a time while the next depth (a few
// times the last) fits in d.
func (classical) NodesPerSecond(ctx context.Context, d time.Duration) (float64, error) {
	return algorithmSpeed(ctx, trichessab.Default, d)
}

// benchHidden is the hidden size of the nnue net measured, with random
// weights.
const benchHidden = 128

// nnueNodes is the node limit of each bench position in the comparison
// of evaluations: at a fixed depth a net of random weights prunes far
// worse than the hand-written evaluation.
const nnueNodes = 100_000

// EvaluationSpeeds measures each algorithm's nodes/s on one core, as
// NodesPerSecond does for the default, then the default algorithm's
// with the hand-written evaluation and with an nnue net of random
// weights side by side, from the same positions.
func (classical) EvaluationSpeeds(ctx context.Context, d time.Duration, add func(plugin.BenchFigure)) error {
	for _, name := range trichessab.AlgorithmNames() {
		a, _ := trichessab.ParseAlgorithm(name)
		nps, err := algorithmSpeed(ctx, a, d)
		if err != nil {
			return err
		}
		add(plugin.BenchFigure{Name: fmt.Sprintf("alphabeta search, %s, hand evaluation, one core", name), Value: nps, Unit: "nodes/s",
			Note: "the bench positions one depth deeper at a time"})
	}
	a := trichessab.Default
	hand, err := evaluationSpeed(ctx, a, func() (trichessab.Evaluator, error) { return trichessab.Hand{}, nil }, d)
	if err != nil {
		return err
	}
	add(plugin.BenchFigure{Name: fmt.Sprintf("alphabeta search, %s, hand evaluation, %d nodes a position, one core", a, nnueNodes), Value: hand, Unit: "nodes/s"})
	net, err := nnue.Trichess.New(benchHidden, 1)
	if err != nil {
		return err
	}
	nps, err := evaluationSpeed(ctx, a, func() (trichessab.Evaluator, error) { return trichessab.NewNNUE(net) }, d)
	if err != nil {
		return err
	}
	add(plugin.BenchFigure{Name: fmt.Sprintf("alphabeta search, %s, nnue net H=%d, %d nodes a position, one core", a, benchHidden, nnueNodes), Value: nps, Unit: "nodes/s",
		Note: fmt.Sprintf("random weights, %.0f%% of the hand evaluation's", 100*nps/hand)})
	return ctx.Err()
}

// evaluationSpeed searches the bench positions, nnueNodes each, with
// algorithm a and an evaluator made afresh for each round, for about d,
// and returns the nodes/s.
func evaluationSpeed(ctx context.Context, a trichessab.Algorithm, eval func() (trichessab.Evaluator, error), d time.Duration) (float64, error) {
	var nodes uint64
	var spent time.Duration
	for ctx.Err() == nil && (spent < d || nodes == 0) {
		ev, err := eval()
		if err != nil {
			return 0, err
		}
		r, err := trichessab.BenchWith(ctx, a, trichessab.Limits{Nodes: nnueNodes}, ev)
		if err != nil {
			return 0, err
		}
		nodes += r.Nodes
		spent += r.Elapsed
	}
	return float64(nodes) / spent.Seconds(), nil
}

// algorithmSpeed measures a's nodes/s on the bench positions within
// about d (plugin.DeepeningSpeed).
func algorithmSpeed(ctx context.Context, a trichessab.Algorithm, d time.Duration) (float64, error) {
	return plugin.DeepeningSpeed(ctx, trichessab.MaxDepth, d, func(ctx context.Context, depth int) (uint64, time.Duration, error) {
		r, err := trichessab.Bench(ctx, a, depth)
		return r.Nodes, r.Elapsed, err
	})
}

// searcher is one Trichess searcher with its table.
type searcher struct{ s *trichessab.Searcher }

// Search searches st: its Score is the player to move's lead in the
// rules' piece points, Forced the sign of a finished game's lead, Leads
// each seat's lead as trichessab.Searcher.SeatLeads says, and Value and
// Players the leads as values (leadValue).
func (s searcher) Search(ctx context.Context, st engine.State, l plugin.ClassicalLimits) (plugin.ClassicalResult, error) {
	ts, err := fromState(st)
	if err != nil {
		return plugin.ClassicalResult{}, err
	}
	r, err := s.s.Search(ctx, ts.Position, trichessab.Limits{Depth: l.Depth, Time: l.Time, Nodes: l.Nodes})
	if err != nil {
		return plugin.ClassicalResult{}, err
	}
	res := plugin.ClassicalResult{
		Action: trichess.MoveToAction(r.Move, ts.SideToMove()),
		Score:  float64(r.Score) / 100,
		Forced: r.Forced(),
		Depth:  r.Depth,
		Value:  leadValue(r.Score),
		Nodes:  r.Nodes,
	}
	for _, lead := range s.s.SeatLeads(&ts.Position, r) {
		res.Players = append(res.Players, leadValue(lead))
		res.Leads = append(res.Leads, float64(lead)/100)
	}
	p := ts.Position
	for _, m := range r.PV {
		res.PV = append(res.PV, trichess.MoveToAction(m, p.SideToMove()))
		p.Play(m)
	}
	return res, nil
}

// Clear forgets the searcher's table and move-ordering statistics.
func (s searcher) Clear() { s.s.Clear() }
