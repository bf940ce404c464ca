// Package openings draws balanced opening books: positions a few random
// plies from the start that the game's classical search rates close to
// level for every player. Random openings alone are often decided
// before the players meet (a piece that cannot be saved), and in a
// lopsided match every such opening is a pair split one game each
// whoever plays it, which pulls the score towards 50% and understates
// the gap. A match between players far apart is measured on a balanced
// book instead.
package openings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"trench/arena"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/atomicfile"
)

// TableBits sizes the classical search table of each opening's
// judgement: 2^18 entries.
const TableBits = 18

// Options say which openings Balanced draws.
type Options struct {
	// Count is the number of openings wanted.
	Count int
	// Plies is the number of random plies from the start.
	Plies int
	// Depth is the depth of the classical search that judges each
	// opening, in plies.
	Depth int
	// Margin is the largest score lead, in points, the search may give
	// any player for the opening to be kept.
	Margin float64
	// Seed seeds the random plies.
	Seed uint64
	// Workers is the number of openings judged at once, each by its own
	// search (1 when 0).
	Workers int
	// MaxDrawn bounds the random openings drawn before Balanced gives up
	// (100 times Count when 0).
	MaxDrawn int
	// Progress, when set, is called with the openings kept and drawn so
	// far, after each opening is judged, never twice at once.
	Progress func(kept, drawn int)
}

// Opening is a kept opening with the classical search's verdict on it.
type Opening struct {
	// State is the position.
	State engine.State
	// Score is the search's score lead for the first player (seat 0),
	// in points.
	Score float64
	// Leads is, for a game of more than two players, every seat's score
	// lead by the search, in points (Score is Leads[0]); nil for two.
	Leads []float64
}

// Stats count what Balanced drew.
type Stats struct {
	// Drawn is the number of random openings judged; Repeated counts
	// those skipped unjudged: already drawn, or (rarely, after
	// arena.RandomOpening's own retries) a finished game.
	Drawn, Repeated int
}

// Validate reports the first option that cannot draw a book for game g,
// naming it first (e.g. "count must be at least 1, got 0"; "game: ..."
// for a game without a classical search).
func (opt Options) Validate(g engine.Game) error {
	cl := games.ClassicalOf(g)
	switch {
	case cl == nil:
		return fmt.Errorf("game: %s has no classical search to judge openings (%s)", g.Name(), games.ClassicalHave())
	case opt.Count < 1:
		return fmt.Errorf("count must be at least 1, got %d", opt.Count)
	case opt.Plies < 1:
		return fmt.Errorf("plies must be at least 1, got %d", opt.Plies)
	case opt.Depth < 1 || opt.Depth > cl.MaxDepth():
		return fmt.Errorf("depth must be in 1..%d, got %d", cl.MaxDepth(), opt.Depth)
	case !(opt.Margin >= 0) || math.IsInf(opt.Margin, 1):
		return fmt.Errorf("margin must be a number of points, at least 0, got %v", opt.Margin)
	case opt.Workers < 0 || opt.Workers > MaxWorkers:
		return fmt.Errorf("workers must be in 0..%d, got %d", MaxWorkers, opt.Workers)
	case opt.MaxDrawn < 0:
		return fmt.Errorf("most drawn must not be negative, got %d", opt.MaxDrawn)
	}
	return nil
}

// MaxWorkers bounds Options.Workers.
const MaxWorkers = 256

// WriteBook writes book, drawn for game g with opt (st: what Balanced
// drew), to the file path atomically: two # lines saying how the book
// was drawn, then one position a line, as arena.ReadOpeningsFile reads.
func WriteBook(path string, g engine.Game, book []Opening, st Stats, opt Options) error {
	cl := games.ClassicalOf(g)
	if cl == nil {
		return fmt.Errorf("openings: %s has no classical search", g.Name())
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: %d openings of %d random plies (seed %d), each within %g points of level at %s depth %d\n",
		g.Name(), len(book), opt.Plies, opt.Seed, opt.Margin, cl.Name(), opt.Depth)
	gameFlag := ""
	if g.Name() != games.Default().Name() {
		gameFlag = " --game " + g.Name()
	}
	fmt.Fprintf(&b, "# kept %d of %d drawn; made by: trench openings%s --count %d --plies %d --depth %d --margin %g --seed %d\n",
		len(book), st.Drawn, gameFlag, opt.Count, opt.Plies, opt.Depth, opt.Margin, opt.Seed)
	for _, o := range book {
		fmt.Fprintln(&b, o.State.String())
	}
	return atomicfile.Write(path, b.Bytes())
}

// Balanced draws random openings of opt.Plies plies and keeps the first
// opt.Count distinct ones that g's classical search, searching opt.Depth
// plies, rates within opt.Margin points of level for every player (in a
// game of more than two, each seat's lead as the search's Leads give
// it), with no forced result.
// The openings and their order depend only on the options, not on the
// workers. It fails for a game with no classical search, and when
// opt.MaxDrawn openings give too few.
func Balanced(ctx context.Context, g engine.Game, opt Options) ([]Opening, Stats, error) {
	var st Stats
	if err := opt.Validate(g); err != nil {
		return nil, st, fmt.Errorf("openings: %w", err)
	}
	cl := games.ClassicalOf(g)
	maxDrawn := opt.MaxDrawn
	if maxDrawn == 0 {
		maxDrawn = 100 * opt.Count
	}
	workers := max(1, opt.Workers)
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6f70656e))
	seen := make(map[string]bool)
	var kept []Opening
	// Candidates are drawn in batches of one per worker and judged side
	// by side, each by a new search (whose verdict no earlier search's
	// table can change); they are kept in the order drawn, so the book
	// does not depend on the number of workers.
	for len(kept) < opt.Count {
		if err := ctx.Err(); err != nil {
			return kept, st, err
		}
		if st.Drawn >= maxDrawn {
			return kept, st, fmt.Errorf("openings: only %d of %d openings within %g points at depth %d among %d drawn; allow more drawn, fewer plies or a wider margin",
				len(kept), opt.Count, opt.Margin, opt.Depth, st.Drawn)
		}
		var batch []engine.State
		for len(batch) < workers && st.Drawn+len(batch) < maxDrawn {
			s := arena.RandomOpening(g, opt.Plies, rng)
			key := s.String()
			if seen[key] || s.Over() {
				st.Repeated++
				if st.Repeated > maxDrawn {
					return kept, st, fmt.Errorf("openings: %d random openings of %d plies repeated ones already drawn; ask for more plies", st.Repeated, opt.Plies)
				}
				continue
			}
			seen[key] = true
			batch = append(batch, s)
		}
		verdicts := make([]plugin.ClassicalResult, len(batch))
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, s := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				searcher, err := cl.NewSearcher(TableBits)
				if err != nil {
					errs[i] = err
					return
				}
				verdicts[i], errs[i] = searcher.Search(ctx, s, plugin.ClassicalLimits{Depth: opt.Depth})
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return kept, st, err
		}
		for i, s := range batch {
			if len(kept) == opt.Count {
				break
			}
			st.Drawn++
			o, err := judge(g, s, verdicts[i], opt.Margin)
			if err != nil {
				return kept, st, err
			}
			if o != nil {
				kept = append(kept, *o)
			}
			if opt.Progress != nil {
				opt.Progress(len(kept), st.Drawn)
			}
		}
	}
	return kept, st, nil
}

// judge is the opening s with the verdict v of g's classical search if
// v keeps it within margin points of level for every player, and nil if
// not. A game of more than two players needs v's Leads.
func judge(g engine.Game, s engine.State, v plugin.ClassicalResult, margin float64) (*Opening, error) {
	if v.Forced != 0 || math.Abs(v.Score) > margin {
		return nil, nil
	}
	if g.Players() == 2 {
		score := v.Score
		if s.ToMove() != 0 {
			score = -score
		}
		return &Opening{State: s, Score: score}, nil
	}
	if len(v.Leads) != g.Players() {
		return nil, fmt.Errorf("openings: %s's classical search gave %d players' leads for %d players", g.Name(), len(v.Leads), g.Players())
	}
	for _, l := range v.Leads {
		if math.Abs(l) > margin {
			return nil, nil
		}
	}
	return &Opening{State: s, Score: v.Leads[0], Leads: v.Leads}, nil
}
