package bot

import (
	"context"
	"fmt"

	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
)

// Endgame has a game's classical search (Trench's alphabeta) choose a
// bot's moves once the game nears its end: from the moment either player
// has scored Points, the classical search searches each position with the
// whole time limit (to Depth under a limit of simulations alone) and the
// bot plays its move; before that the tree search chooses. The last
// captures of the race to the winning score are exact calculation, which
// a full-width search does better than a tree of a few thousand
// simulations; earlier, the net's judgement counts for more. At 200 ms a
// move against alphabeta, from 15 points on did best of 10, 15 and 20
// (docs/experiments.md).
type Endgame struct {
	// Classical is the game's classical search; its searcher is made on
	// the first move of an endgame and kept from move to move.
	Classical plugin.Classical
	// Points is the score, of either player, from which the classical
	// engine chooses; more than 0.
	Points float64
	// Depth is the depth of its search, in plies, when the bot searches
	// under a limit of simulations alone; at least 1.
	Depth int

	searcher plugin.ClassicalSearcher
}

// EndgameTableBits sizes an endgame searcher's table: 2^18 entries (4
// MiB for alphabeta), about the positions a search of a fifth of a second
// visits. It is made only when a game reaches its endgame, so a server
// keeping hundreds of games holds one only for those that have.
const EndgameTableBits = 18

// NewEndgame returns an endgame for game g from points on, searching to
// depth under a limit of simulations; an error says when g has no
// classical search.
func NewEndgame(g engine.Game, points float64, depth int) (*Endgame, error) {
	cl := games.ClassicalOf(g)
	if cl == nil {
		return nil, fmt.Errorf("endgame: %s has no classical search (%s)", g.Name(), games.ClassicalHave())
	}
	if n := g.Players(); n != 2 {
		return nil, fmt.Errorf("endgame: %s has %d players; the endgame follows a two-player race to the winning score", g.Name(), n)
	}
	e := &Endgame{Classical: cl, Points: points, Depth: depth}
	return e, e.Validate()
}

// Validate reports settings an endgame cannot play with.
func (e *Endgame) Validate() error {
	switch {
	case e.Classical == nil:
		return fmt.Errorf("endgame: no classical search")
	case !(e.Points > 0):
		return fmt.Errorf("endgame: the score must be more than 0, got %g", e.Points)
	case e.Depth < 1:
		return fmt.Errorf("endgame: the depth must be at least 1, got %d", e.Depth)
	}
	return nil
}

// String describes the endgame's settings, e.g. "alphabeta from 15
// points, or depth 5".
func (e *Endgame) String() string {
	return fmt.Sprintf("%s from %g points, or depth %d", e.Classical.Name(), e.Points, e.Depth)
}

// reached reports whether a player has scored e.Points in s.
func (e *Endgame) reached(s engine.State) bool {
	var buf [4]float32
	for _, p := range s.Scores(buf[:0]) {
		if float64(p) >= e.Points {
			return true
		}
	}
	return false
}

// choose searches root, which is not over, within limits and makes the
// classical search's move and main line r's (r.Action, r.PV). It
// returns what it did, for people, or "" when the search finished no
// depth (a time limit too short), and then leaves r alone.
func (e *Endgame) choose(ctx context.Context, root engine.State, limits Limits, r *mcts.Result) (string, error) {
	if e.searcher == nil {
		s, err := e.Classical.NewSearcher(EndgameTableBits)
		if err != nil {
			return "", fmt.Errorf("endgame: %w", err)
		}
		e.searcher = s
	}
	cl := plugin.ClassicalLimits{Depth: e.Depth}
	if limits.Time > 0 {
		cl = plugin.ClassicalLimits{Time: limits.Time}
	}
	res, err := e.searcher.Search(ctx, root, cl)
	if err != nil {
		if ctx.Err() != nil {
			return "", nil
		}
		return "", fmt.Errorf("endgame: %w", err)
	}
	if res.Depth == 0 {
		return "", nil
	}
	// The main line begins with the move (plugin.ClassicalResult).
	r.Action, r.PV = res.Action, append(r.PV[:0], res.PV...)
	if len(r.PV) == 0 {
		r.PV = append(r.PV, res.Action)
	}
	verdict := fmt.Sprintf("%+.2f points", res.Score)
	switch res.Forced {
	case 1:
		verdict = "a forced win"
	case -1:
		verdict = "a forced loss"
	}
	return fmt.Sprintf("%s chose %s at depth %d (%s)", e.Classical.Name(), root.ActionString(res.Action), res.Depth, verdict), nil
}
