package trichess

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	trichessab "trench/alphabeta/trichess"
	"trench/engine"
	"trench/engine/trichess"
	"trench/games/plugin"
	"trench/internal/excerpt"
)

// classical is package alphabeta/trichess as Trichess's classical search.
type classical struct{}

func (classical) Name() string { return "alphabeta" }

func (classical) MaxDepth() int { return trichessab.MaxDepth }

func (classical) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	return evaluation{trichessab.Default}.NewSearcher(tableBits)
}

// evalHand is the one evaluation: the hand-written one.
const evalHand = "hand"

func (classical) Evaluations() []string { return []string{evalHand} }

// errNoNNUE says that Trichess has no efficiently updatable net.
var errNoNNUE = errors.New("trichess has no efficiently updatable net (its one evaluation is hand)")

// Evaluation returns the hand-written evaluation, searching with the
// default algorithm; Trichess has no net to read.
func (c classical) Evaluation(name, net string) (plugin.ClassicalEvaluation, error) {
	switch {
	case net != "":
		return nil, fmt.Errorf("alphabeta: %w, got net %s", errNoNNUE, excerpt.Quote(net))
	case name == "nnue" || name == "net":
		return nil, fmt.Errorf("alphabeta: evaluation %s: %w", excerpt.Quote(name), errNoNNUE)
	case name != "" && name != evalHand:
		return nil, fmt.Errorf("alphabeta: unknown evaluation %s (known: %s)", excerpt.Quote(name), strings.Join(c.Evaluations(), ", "))
	}
	return evaluation{trichessab.Default}, nil
}

func (classical) Algorithms() []string { return trichessab.AlgorithmNames() }

// WithAlgorithm returns the hand-written evaluation searching with the
// algorithm named name: paranoid, brs or maxn.
func (classical) WithAlgorithm(ev plugin.ClassicalEvaluation, name string) (plugin.ClassicalEvaluation, error) {
	if _, ok := ev.(evaluation); !ok {
		return nil, fmt.Errorf("alphabeta: %s is not a Trichess evaluation", ev)
	}
	a, err := trichessab.ParseAlgorithm(name)
	if err != nil {
		return nil, fmt.Errorf("alphabeta: %w", err)
	}
	return evaluation{a}, nil
}

// evaluation is the hand-written evaluation searched with an algorithm.
type evaluation struct{ algorithm trichessab.Algorithm }

func (ev evaluation) String() string {
	return fmt.Sprintf("the hand-written evaluation, %s search", ev.algorithm)
}

func (ev evaluation) NewSearcher(tableBits int) (plugin.ClassicalSearcher, error) {
	s, err := trichessab.New(ev.algorithm, tableBits)
	if err != nil {
		return nil, err
	}
	return searcher{s}, nil
}

// valuerTableBits sizes the table of a valuer's searcher, which its
// quiescence search does not use: the smallest the search takes.
const valuerTableBits = 10

// NewValuer makes a valuer, with quiesce one with a searcher of its own
// for its quiescence search.
func (ev evaluation) NewValuer(quiesce bool) (plugin.ClassicalValuer, error) {
	v := &valuer{}
	if quiesce {
		s, err := trichessab.New(ev.algorithm, valuerTableBits)
		if err != nil {
			return nil, err
		}
		v.search = s
	}
	return v, nil
}

// valuer values positions with the evaluation, or with search at the end
// of its quiescence search.
type valuer struct {
	search *trichessab.Searcher
	result []float32
}

// Value is the player to move's lead in s, by the evaluation or the
// quiescence search, as a value (leadValue); a finished game's result.
func (v *valuer) Value(s engine.State) (float64, error) {
	st, err := fromState(s)
	if err != nil {
		return 0, err
	}
	if s.Over() {
		v.result = s.Result(v.result)
		return float64(v.result[s.ToMove()]), nil
	}
	if v.search != nil {
		return leadValue(v.search.Quiesce(st.Position).Score), nil
	}
	return leadValue(trichessab.Evaluate(&st.Position).Lead(st.SideToMove())), nil
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

// EvaluationSpeeds measures each algorithm's nodes/s on one core, as
// NodesPerSecond does for the default.
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
	return ctx.Err()
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
// rules' piece points, Forced the sign of a finished game's lead, Value
// and Players the leads as values (leadValue).
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
	for _, lead := range r.Leads {
		res.Players = append(res.Players, leadValue(lead))
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
