package generations

import (
	"context"
	"fmt"
	"time"

	"trench/alphabeta"
	"trench/arena"
	"trench/engine"
	"trench/engine/trench"
	"trench/games"
	"trench/nnue"
	"trench/players"
)

// matchTableBits sizes the transposition tables of the matches' players.
const matchTableBits = 18

// searchPlayer plays alpha-beta's best move with one evaluation.
type searchPlayer struct {
	e      *alphabeta.Searcher
	limits alphabeta.Limits
}

func (p *searchPlayer) Move(ctx context.Context, s engine.State) (int, error) {
	pos, err := alphabeta.FromState(s)
	if err != nil {
		return 0, err
	}
	r, err := p.e.Search(ctx, *pos, p.limits)
	if err != nil {
		return 0, err
	}
	return trench.MoveToAction(r.Move, pos.SideToMove()), nil
}

// searchMaker makes players of alpha-beta with the evaluations newEval
// returns, within limits, named name.
func searchMaker(name string, limits alphabeta.Limits, newEval func() (alphabeta.Evaluator, error)) *players.Maker {
	return players.NewMaker(name, limits.Time > 0, func(uint64) (players.Player, error) {
		eval, err := newEval()
		if err != nil {
			return nil, err
		}
		e, err := alphabeta.NewWith(matchTableBits, eval)
		if err != nil {
			return nil, err
		}
		return &searchPlayer{e: e, limits: limits}, nil
	})
}

// evaluatorOf returns a function making net's evaluators, or the rules'
// evaluation for a nil net.
func evaluatorOf(net *nnue.Net) func() (alphabeta.Evaluator, error) {
	if net == nil {
		return func() (alphabeta.Evaluator, error) { return alphabeta.Rules{}, nil }
	}
	return func() (alphabeta.Evaluator, error) { return nnue.NewEvaluator(net) }
}

// limitsName describes limits in a player's name.
func limitsName(l alphabeta.Limits) string {
	if l.Time > 0 {
		return l.Time.String()
	}
	return fmt.Sprintf("nodes=%d", l.Nodes)
}

// trenchGame is the game every match plays.
func trenchGame() engine.Game {
	g, err := games.ByName("trench")
	if err != nil {
		panic("generations: the trench game is not registered: " + err.Error())
	}
	return g
}

// checkSpec loads a player spec as a match would, to refuse a bad one
// before the run starts.
func checkSpec(spec string) error {
	l := players.NewLoader(trenchGame())
	defer l.Close()
	_, err := l.Load(spec)
	return err
}

// match plays pairs of games of a against b, both colours of each
// opening, stopping early if test decides; it returns a's standing, a's
// score in each opening's pair (pairScores) and the test's state.
func match(ctx context.Context, a, b *players.Maker, pairs, plies int, seed uint64, test *arena.SPRT, progress func(done, total int)) (arena.Standing, []float64, *arena.SPRTResult, error) {
	res, err := arena.Run(ctx, arena.Config{
		Game: trenchGame(), Players: []*players.Maker{a, b}, Groups: pairs,
		OpeningPlies: plies, Seed: seed, SPRT: test, Progress: progress,
	})
	if err != nil {
		return arena.Standing{}, nil, nil, err
	}
	m := res.Meetings[0]
	st := arena.Standing{
		Opponent: b.Name, Wins: m.Wins, Draws: m.Draws, Losses: m.Losses, Score: m.Score(),
		Elo: m.Elo(), PairElo: m.PairElo(), Comparisons: 1,
	}
	return st, pairScores(res, pairs), res.SPRT, nil
}

// anchor is one fixed opponent of the new net.
type anchor struct {
	opponent *players.Maker
	// limits are the new net's.
	limits alphabeta.Limits
}

// anchors returns the fixed opponents the config asks for: the
// hand-written evaluation at the gate's node budget, then at AnchorMS a
// move, then the MCTS spec.
func (c Config) anchors(loader *players.Loader) ([]anchor, error) {
	hand := func() (alphabeta.Evaluator, error) { return alphabeta.Hand{}, nil }
	gate := c.gateLimits()
	out := []anchor{{searchMaker("alphabeta-hand:"+limitsName(gate), gate, hand), gate}}
	timed := alphabeta.Limits{Time: time.Duration(c.AnchorMS) * time.Millisecond}
	if c.AnchorMS > 0 {
		out = append(out, anchor{searchMaker("alphabeta-hand:"+limitsName(timed), timed, hand), timed})
	}
	if c.MCTSAnchor != "" {
		m, err := loader.Load(c.MCTSAnchor)
		if err != nil {
			return nil, fmt.Errorf("--mcts-anchor: %w", err)
		}
		lim := gate
		if c.AnchorMS > 0 {
			lim = timed
		}
		out = append(out, anchor{m, lim})
	}
	return out, nil
}
