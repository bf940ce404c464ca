package generations

import (
	"context"
	"fmt"
	"io"
	"time"

	"trench/alphabeta"
	"trench/arena"
	"trench/engine"
	"trench/engine/trench"
	"trench/games"
	"trench/internal/searchlimits"
	"trench/nnue"
	"trench/nnue/data"
	"trench/nnue/datagen"
	"trench/players"
)

// matchTableBits sizes the transposition tables of the matches' players.
const matchTableBits = 18

// recipe is what the loop needs of the game it trains: the game its
// matches play, the nets it trains, its alpha-beta players and its
// matches. trenchRecipe and trichessRecipe are the two.
type recipe interface {
	// game is the game the matches play.
	game() engine.Game
	// set is the feature set of the nets the loop trains.
	set() *nnue.FeatureSet
	// searchMaker makes players of the game's alpha-beta with net (nil:
	// the rules' evaluation, which generation 0 plays with), within
	// limits, named name.
	searchMaker(name string, limits searchlimits.Limits, net *nnue.Net) *players.Maker
	// handMaker makes players of the game's alpha-beta with the
	// hand-written evaluation, within limits, named name.
	handMaker(name string, limits searchlimits.Limits) *players.Maker
	// gate plays the new net's player cand against the player's,
	// stopping as soon as the game's test decides, and returns the
	// test's end and cand's standing.
	gate(ctx context.Context, c Config, cand, player *players.Maker, seed uint64, progress func(done, total int)) (Gate, arena.Standing, error)
	// versus plays c.AnchorPairs openings of cand against a fixed
	// opponent, from openings in turn (nil: c.MatchPlies random plies
	// drawn by seed), and returns cand's standing and, for the gate's second
	// way, its score in each opening (nil for a game without one).
	versus(ctx context.Context, c Config, cand, opponent *players.Maker, openings []engine.State, seed uint64, progress func(done, total int)) (arena.Standing, []float64, error)
	// count is the positions of the generation job on disk in dir
	// (datagen.Count).
	count(dir, job string, workers int) (int, error)
	// generate plays the generation's games with player (nil: the
	// rules' evaluation), as datagen.Generate does; relabel, Trench's
	// teacher, replaces the search's scores if not nil.
	generate(ctx context.Context, dc datagen.Config, j genJob, player *nnue.Net, relabel func([]trench.Position, []int) error) (datagen.Stats, error)
	// window opens the training window over dir's shards.
	window(dir string, wc data.WindowConfig, warn io.Writer) (sampler, error)
	// shardPlayer plays games with player (nil: the rules' evaluation)
	// into shards, as generate does (Config.NewShardPlayer).
	shardPlayer(dc datagen.Config, player *nnue.Net) (ShardPlayer, error)
	// checkShard decodes a shard of the game, checking every record.
	checkShard(shard []byte) error
	// rescore copies job's shards, each position searched again with
	// dc's budget and player (nil: the rules' evaluation), as Branch
	// does.
	rescore(ctx context.Context, dc datagen.Config, player *nnue.Net, job rescoreJob) (datagen.RescoreStats, error)
}

// recipeFor is game's recipe.
func recipeFor(game string) recipe {
	if game == trichessName {
		return trichessRecipe{}
	}
	return trenchRecipe{}
}

// trenchRecipe is Trench's: the SPRT gate of game pairs.
type trenchRecipe struct{}

func (trenchRecipe) game() engine.Game { return trenchGame() }

func (trenchRecipe) set() *nnue.FeatureSet { return nnue.Trench }

func (trenchRecipe) searchMaker(name string, limits searchlimits.Limits, net *nnue.Net) *players.Maker {
	return searchMaker(name, alphabeta.Limits(limits), evaluatorOf(net))
}

func (trenchRecipe) handMaker(name string, limits searchlimits.Limits) *players.Maker {
	return searchMaker(name, alphabeta.Limits(limits), func() (alphabeta.Evaluator, error) { return alphabeta.Hand{}, nil })
}

func (trenchRecipe) gate(ctx context.Context, c Config, cand, player *players.Maker, seed uint64, progress func(done, total int)) (Gate, arena.Standing, error) {
	test := c.SPRT()
	st, _, res, err := match(ctx, cand, player, c.GatePairs, nil, c.MatchPlies, seed, &test, progress)
	if err != nil {
		return Gate{}, st, err
	}
	return Gate{LLR: res.LLR, Lower: res.Lower, Upper: res.Upper, Decision: res.Decision.String(),
		Pairs: (st.Wins + st.Draws + st.Losses) / 2, Accepted: gateAccepts(*res)}, st, nil
}

func (trenchRecipe) versus(ctx context.Context, c Config, cand, opponent *players.Maker, openings []engine.State, seed uint64, progress func(done, total int)) (arena.Standing, []float64, error) {
	st, pairs, _, err := match(ctx, cand, opponent, c.AnchorPairs, openings, c.MatchPlies, seed, nil, progress)
	return st, pairs, err
}

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
func limitsName(l searchlimits.Limits) string {
	if l.Time > 0 {
		return l.Time.String()
	}
	return fmt.Sprintf("nodes=%d", l.Nodes)
}

// gameNamed is the registered game name, which the loop's games are.
func gameNamed(name string) engine.Game {
	g, err := games.ByName(name)
	if err != nil {
		panic("generations: the " + name + " game is not registered: " + err.Error())
	}
	return g
}

// trenchGame is the game Trench's matches play.
func trenchGame() engine.Game { return gameNamed(trenchName) }

// checkSpec loads a player spec of game as a match would, to refuse a
// bad one before the run starts.
func checkSpec(game, spec string) error {
	l := players.NewLoader(gameNamed(game))
	defer l.Close()
	_, err := l.Load(spec)
	return err
}

// match plays pairs of games of a against b, both colours of each
// opening (openings in turn; nil: plies random plies), stopping early if test decides; it returns a's standing, a's
// score in each opening's pair (pairScores) and the test's state.
func match(ctx context.Context, a, b *players.Maker, pairs int, openings []engine.State, plies int, seed uint64, test *arena.SPRT, progress func(done, total int)) (arena.Standing, []float64, *arena.SPRTResult, error) {
	res, err := arena.Run(ctx, arena.Config{
		Game: trenchGame(), Players: []*players.Maker{a, b}, Groups: pairs,
		Openings: openings, OpeningPlies: plies, Seed: seed, SPRT: test, Progress: progress,
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
	limits searchlimits.Limits
	// gates tells that the gate's second way counts this anchor: the
	// hand-written evaluation and the anchor net, both at the gate's
	// node budget.
	gates bool
}

// fixedNet is the run's anchor net (--anchor-net), as the run keeps it.
type fixedNet struct {
	net  *nnue.Net
	name string
}

// anchors returns the fixed opponents the config asks for: the
// hand-written evaluation at the gate's node budget, then at AnchorMS a
// move, then the MCTS spec, loaded with loader, then alpha-beta with the
// anchor net fixed (nil: none) at the gate's node budget.
func (c Config) anchors(rc recipe, loader *players.Loader, fixed *fixedNet) ([]anchor, error) {
	gate := c.gateLimits()
	out := []anchor{{rc.handMaker("alphabeta-hand:"+limitsName(gate), gate), gate, true}}
	timed := searchlimits.Limits{Time: time.Duration(c.AnchorMS) * time.Millisecond}
	if c.AnchorMS > 0 {
		out = append(out, anchor{rc.handMaker("alphabeta-hand:"+limitsName(timed), timed), timed, false})
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
		out = append(out, anchor{m, lim, false})
	}
	if fixed != nil {
		out = append(out, anchor{rc.searchMaker(fixed.name+":"+limitsName(gate), gate, fixed.net), gate, true})
	}
	return out, nil
}
