package plugin

import (
	"context"
	"fmt"
	"time"

	"trench/engine"
	"trench/internal/excerpt"
)

// EvalHand names the hand-written evaluation, which every classical
// search has (Classical.Evaluations), as the bot's eval setting names it.
const EvalHand = "hand"

// EvalNNUE names the evaluation by an efficiently updatable net, the one
// evaluation of a classical search that reads a net.
const EvalNNUE = "nnue"

// EvalName is the evaluation the bot's eval and net settings name: name
// itself, or when it is empty the net's if a net is given and the
// hand-written one if not. Only the net's evaluation takes a net.
func EvalName(name, net string) (string, error) {
	switch {
	case name == "" && net != "":
		return EvalNNUE, nil
	case name == "":
		return EvalHand, nil
	case name != EvalNNUE && net != "":
		return "", fmt.Errorf("the %s evaluation reads no net, got %s", excerpt.Quote(name), excerpt.Quote(net))
	}
	return name, nil
}

// Classical is a game's hand-written search engine (Trench's alphabeta):
// the arena's alphabeta player, minimax's hand blend, the bot's guard and
// endgame, and a line of trench bench.
type Classical interface {
	// Name is the engine's name, e.g. "alphabeta".
	Name() string
	// MaxDepth is the deepest search it takes, in plies.
	MaxDepth() int
	// NewSearcher makes a searcher with a table of 2^tableBits entries
	// and the default evaluation.
	NewSearcher(tableBits int) (ClassicalSearcher, error)
	// Evaluations names the evaluations its searchers can use, the
	// default first.
	Evaluations() []string
	// Evaluation returns the evaluation named name (one of Evaluations;
	// "" for the default, or with a net for the one that reads a net),
	// having read the net that net names if it needs one (a file, or as
	// the engine's nets are named: Trench's a generation run directory
	// or "default", the one built in) and refused net if it does not, or
	// an error naming what is wrong.
	Evaluation(name, net string) (ClassicalEvaluation, error)
	// Value is its hand-written evaluation of s, which is not over, for
	// the player to move, as a value in (-1, 1).
	Value(s engine.State) float32
	// NodesPerSecond measures its search's speed on one core for about d.
	NodesPerSecond(ctx context.Context, d time.Duration) (float64, error)
	// EvaluationSpeeds measures its search on one core with each of its
	// evaluations side by side, and what else their speed depends on,
	// about d a figure, passing each figure to add as it is measured.
	EvaluationSpeeds(ctx context.Context, d time.Duration, add func(BenchFigure)) error
}

// BenchFigure is one figure a plug-in measures for trench bench.
type BenchFigure struct {
	// Name says what was measured, Value and Unit the result, Note adds
	// context.
	Name  string
	Value float64
	Unit  string
	Note  string
}

// ClassicalEvaluation is one evaluation of a classical search, with
// what it read (a net) shared by all its searchers and valuers.
type ClassicalEvaluation interface {
	// NewSearcher makes a searcher with this evaluation and a table of
	// 2^tableBits entries.
	NewSearcher(tableBits int) (ClassicalSearcher, error)
	// NewValuer makes a valuer of positions with this evaluation: of
	// the position itself, or with quiesce of the position at the end
	// of the search's quiescence (captures resolved), as the search
	// values its horizon.
	NewValuer(quiesce bool) (ClassicalValuer, error)
	// String describes the evaluation for people, with the net it read.
	String() string
}

// ClassicalValuer values positions one after another with a classical
// evaluation, keeping what it needs from one to the next (an efficiently
// updatable net's accumulators, a searcher). It is not safe for
// concurrent use.
type ClassicalValuer interface {
	// Value is s's value for the player to move in [-1, 1], on the scale
	// of ClassicalResult.Value (±1 for a forced result; a finished
	// game's result), or an error for a state of another game.
	Value(s engine.State) (float64, error)
}

// SeatValuer is a ClassicalValuer of a game of more than two players,
// which values every seat, not only the player to move's, for a tree
// search that backs up a value per player.
type SeatValuer interface {
	ClassicalValuer
	// Values writes each player's value of s by seat, on Value's scale,
	// into dst[:0].
	Values(s engine.State, dst []float32) ([]float32, error)
}

// ClassicalSearcher searches positions one after another, keeping its
// table between them. It is not safe for concurrent use.
type ClassicalSearcher interface {
	// Search returns the best action in s, which is not over, within
	// limits, with the search's verdict on s.
	Search(ctx context.Context, s engine.State, limits ClassicalLimits) (ClassicalResult, error)
	// Clear forgets what earlier searches learnt (the table), for a new
	// game.
	Clear()
}

// ClassicalResult is what a classical search found in a position.
type ClassicalResult struct {
	// Action is the best action found.
	Action int
	// Score is the position's score for the player to move, in points of
	// the game's score (a point already scored counts 1); it is meaningful
	// only when Forced is 0.
	Score float64
	// Forced is +1 when the player to move wins by force within the
	// search's horizon, -1 when it loses by force, and 0 otherwise.
	Forced int
	// Depth is the depth of the last iteration the search finished, in
	// plies; 0 when it finished none.
	Depth int
	// Value is Score as the player to move's expected result in
	// [-1, 1], on the scale of the evaluation's win chances (±1 when
	// Forced).
	Value float64
	// PV is the principal variation as actions, Action first.
	PV []int
	// Players is, for a game of more than two players, each player's
	// value by seat on Value's scale (Value the player to move's); nil
	// for two, whose values are Value and its negation.
	Players []float64
	// Leads is, for a game of more than two players, each player's
	// score by seat in Score's points (Score the player to move's); nil
	// for two.
	Leads []float64
	// Nodes is the positions the search visited.
	Nodes uint64
	// Lines are the root moves a search asked for more than one
	// (ClassicalLimits.MultiPV) searched in full, best first, the first
	// Action's; nil when it was asked for one.
	Lines []ClassicalLine
}

// ClassicalLine is one root move a multi-PV search searched in full,
// with its exact score at its depth, as ClassicalResult's fields are for
// the best move.
type ClassicalLine struct {
	// Action is the root move.
	Action int
	// Score is its score for the player to move, in points of the game's
	// score; meaningful only when Forced is 0.
	Score float64
	// Forced is +1 when the move wins by force, -1 when it loses by
	// force, and 0 otherwise.
	Forced int
	// Depth is the depth it was searched to, in plies.
	Depth int
	// Value is Score as the player to move's expected result in
	// [-1, 1] (±1 when Forced).
	Value float64
	// PV is its principal variation as actions, Action first.
	PV []int
}

// ClassicalAlgorithms is a Classical that searches by more than one
// algorithm (Trichess's BRS+, paranoid and max^n), chosen by name.
type ClassicalAlgorithms interface {
	// Algorithms names the algorithms, the default first.
	Algorithms() []string
	// WithAlgorithm returns ev, one of its evaluations, searching with the
	// algorithm named name, or an error naming name when it is unknown.
	WithAlgorithm(ev ClassicalEvaluation, name string) (ClassicalEvaluation, error)
}

// ClassicalLimits bound a classical search; zero fields do not bound it.
type ClassicalLimits struct {
	// Depth is the nominal depth of the last iteration, in plies.
	Depth int
	// Time is the longest the search may take.
	Time time.Duration
	// Nodes stops the search after about this many nodes.
	Nodes uint64
	// MultiPV, above 1, asks for the best MultiPV root moves searched in
	// full, each with its exact score and main line
	// (ClassicalResult.Lines); 0 or 1 searches for the best move alone.
	MultiPV int
}

// DeepeningSpeed measures a classical search's nodes a second on its
// benchmark positions: bench searches them to a depth and reports the
// nodes and the time, and DeepeningSpeed goes one depth deeper at a time,
// up to maxDepth, while the next depth (a few times the last) fits in d.
func DeepeningSpeed(ctx context.Context, maxDepth int, d time.Duration, bench func(ctx context.Context, depth int) (uint64, time.Duration, error)) (float64, error) {
	var nodes uint64
	var spent time.Duration
	for depth := 1; depth <= maxDepth && (4*spent < d || nodes == 0) && ctx.Err() == nil; depth++ {
		n, t, err := bench(ctx, depth)
		if err != nil {
			return 0, err
		}
		nodes += n
		spent += t
	}
	if spent == 0 {
		return 0, nil
	}
	return float64(nodes) / spent.Seconds(), nil
}
