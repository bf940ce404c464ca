package bot

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
)

// Guard has a game's classical search (Trench's alphabeta) check the move
// a bot's tree search chose: it searches the position after the move, and
// when it finds that the opponent wins from there by force, the bot plays
// the next most visited move that the classical search does not find lost,
// if any. A tree search of a few thousand simulations overlooks such short
// forced losses in the race to the winning score that a full-width search
// sees at once.
//
// Under a time limit the tree search leaves Share of it to the checks.
// The first check may take 0.6 of that share; the checks of other moves,
// needed only when the first move is found lost, search no deeper than the
// first one finished and stop at the time limit. Under a limit of
// simulations alone every check searches to Depth.
type Guard struct {
	// Searcher is the classical search; it keeps its table from one move
	// to the next.
	Searcher plugin.ClassicalSearcher
	// Name names the classical search in analyses, e.g. "alphabeta".
	Name string
	// Share is the fraction of a time limit kept for the checks, in
	// (0, 0.5].
	Share float64
	// Depth is the depth of each check, in plies after the checked move,
	// when a search is limited by simulations alone; at least 1.
	Depth int
}

// GuardTableBits sizes the classical table of a guard made by NewGuard:
// 2^16 entries (1 MiB for alphabeta), more than the few tens of thousands
// of positions a check of some milliseconds visits, and small enough for
// a server that keeps a bot for each of hundreds of games.
const GuardTableBits = 16

// NewGuard returns a guard for game g with its own searcher of g's
// classical search, taking share of a time limit or searching to depth
// under simulations; an error says when g has no classical search.
func NewGuard(g engine.Game, share float64, depth int) (*Guard, error) {
	cl := games.ClassicalOf(g)
	if cl == nil {
		return nil, fmt.Errorf("guard: %s has no classical search (%s)", g.Name(), games.ClassicalHave())
	}
	if n := g.Players(); n != 2 {
		return nil, fmt.Errorf("guard: %s has %d players; the guard checks for a forced loss against one opponent, in two-player games", g.Name(), n)
	}
	c, err := cl.NewSearcher(GuardTableBits)
	if err != nil {
		return nil, err
	}
	gd := &Guard{Searcher: c, Name: cl.Name(), Share: share, Depth: depth}
	return gd, gd.Validate()
}

// maxGuardChecks bounds the moves the guard checks in one search.
const maxGuardChecks = 4

// guardFirstCheck is the part of the guard's share of a time limit that
// the check of the tree's move may take.
const guardFirstCheck = 0.6

// Validate reports settings a guard cannot search with.
func (g *Guard) Validate() error {
	switch {
	case g.Searcher == nil:
		return fmt.Errorf("guard: no classical searcher")
	case !(g.Share > 0 && g.Share <= 0.5):
		return fmt.Errorf("guard: the share of the time must be in (0, 0.5], got %g", g.Share)
	case g.Depth < 1:
		return fmt.Errorf("guard: the depth must be at least 1, got %d", g.Depth)
	}
	return nil
}

// String describes the guard's settings, e.g. "alphabeta, 0.1 of the
// time or depth 4".
func (g *Guard) String() string {
	return fmt.Sprintf("%s, %g of the time or depth %d", g.Name, g.Share, g.Depth)
}

// reserve is the time a search under limits keeps for the checks.
func (g *Guard) reserve(limits Limits) time.Duration {
	return time.Duration(float64(limits.Time) * g.Share)
}

// review checks the tree's move in r, the search of root under limits
// that began at start, and replaces it (r.Action, r.PV) with the most
// visited move that no check finds lost when the classical search finds
// it lost. It returns what it did, for people ("" when it left the move
// alone).
func (g *Guard) review(ctx context.Context, root engine.State, limits Limits, start time.Time, r *mcts.Result) (string, error) {
	moves := make([]mcts.ActionStats, 0, len(r.Actions))
	for _, a := range r.Actions {
		if a.Action == r.Action || a.Visits > 0 {
			moves = append(moves, a)
		}
	}
	sort.SliceStable(moves, func(i, j int) bool {
		if (moves[i].Action == r.Action) != (moves[j].Action == r.Action) {
			return moves[i].Action == r.Action
		}
		return moves[i].Visits > moves[j].Visits
	})
	var deadline time.Time
	if limits.Time > 0 {
		deadline = start.Add(limits.Time)
	}
	depth := g.Depth
	var lost []string
	for i, m := range moves {
		if i == maxGuardChecks {
			break
		}
		cl := plugin.ClassicalLimits{Depth: depth}
		if limits.Time > 0 {
			left := time.Until(deadline)
			if i == 0 {
				left = min(left, time.Duration(float64(g.reserve(limits))*guardFirstCheck))
			}
			if left <= 0 {
				break
			}
			cl.Time = left
			if i == 0 {
				cl.Depth = 0
			}
		}
		after := root.Clone()
		after.Play(m.Action)
		if after.Over() {
			// The tree values a finished game exactly.
			return g.replace(root, r, m.Action, nil, lost), nil
		}
		reply, err := g.Searcher.Search(ctx, after, cl)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return "", fmt.Errorf("guard: %w", err)
		}
		if reply.Forced <= 0 {
			if reply.Depth == 0 {
				break // unchecked
			}
			return g.replace(root, r, m.Action, reply.PV, lost), nil
		}
		lost = append(lost, root.ActionString(m.Action))
		if i == 0 && reply.Depth > 0 {
			depth = reply.Depth // the depth at which the loss showed
		}
	}
	return "", nil
}

// replace makes action the move in r, with the classical search's main
// line after it (reply), after the moves in lost were found lost, and
// says so; with nothing lost it leaves r alone.
func (g *Guard) replace(root engine.State, r *mcts.Result, action int, reply []int, lost []string) string {
	if len(lost) == 0 {
		return ""
	}
	r.Action, r.PV = action, append(append(r.PV[:0], action), reply...)
	return fmt.Sprintf("%s found a forced loss after %s; played %s", g.Name, strings.Join(lost, ", "), root.ActionString(action))
}
