package generations

import (
	"context"
	"fmt"
	"io"

	trichessab "trench/alphabeta/trichess"
	"trench/arena"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/internal/searchlimits"
	"trench/nnue"
	"trench/nnue/data"
	"trench/nnue/datagen"
	"trench/nnue/train"
	"trench/players"
)

// Trichess's matches seat the new net in each seat in turn against two
// copies of its opponent (arena.Config.Challenge): an opening group is
// three games, and the figure is the new net's lead, the points a game
// it finished above the mean of the other two.

// trichessRecipe is Trichess's: its records, played by
// datagen.TrichessPlayer, and matches that seat the new net in each
// seat in turn against two copies of its opponent.
type trichessRecipe struct{}

func (trichessRecipe) game() engine.Game { return gameNamed(trichessName) }

func (trichessRecipe) set() *nnue.FeatureSet { return nnue.Trichess }

func (trichessRecipe) searchMaker(name string, limits searchlimits.Limits, net *nnue.Net) *players.Maker {
	return trichessSearchMaker(name, trichessab.Limits(limits), trichessEvaluatorOf(net))
}

func (trichessRecipe) handMaker(name string, limits searchlimits.Limits) *players.Maker {
	return trichessSearchMaker(name, trichessab.Limits(limits), func() (trichessab.Evaluator, error) { return trichessab.Hand{}, nil })
}

func (trichessRecipe) gate(ctx context.Context, c Config, cand, player *players.Maker, seed uint64, progress func(done, total int)) (Gate, arena.Standing, error) {
	test := c.leadTest()
	st, res, err := challenge(ctx, cand, player, c.GatePairs, nil, c.MatchPlies, seed, &test, progress)
	if err != nil {
		return Gate{}, st, err
	}
	return Gate{LLR: res.LLR, Lower: res.Lower, Upper: res.Upper, Decision: res.Decision.String(),
		Pairs: res.Groups, Accepted: leadAccepts(*res)}, st, nil
}

func (trichessRecipe) versus(ctx context.Context, c Config, cand, opponent *players.Maker, openings []engine.State, seed uint64, progress func(done, total int)) (arena.Standing, []float64, error) {
	st, _, err := challenge(ctx, cand, opponent, c.AnchorPairs, openings, c.MatchPlies, seed, nil, progress)
	return st, nil, err
}

func (trichessRecipe) count(dir, job string, workers int) (int, error) {
	return datagen.Count(data.Trichess, dir, job, workers)
}

func (trichessRecipe) generate(ctx context.Context, dc datagen.Config, j genJob, player *nnue.Net, _ func([]trench.Position, []int) error) (datagen.Stats, error) {
	return datagen.Generate(ctx, dc, datagen.Job[data.TrichessRecord]{
		Dir: j.dir, Name: j.name, GameBase: j.base, Positions: j.positions, Progress: j.progress,
		Codec: data.Trichess, NewGames: trichessPlayers(dc, player),
	})
}

func (trichessRecipe) shardPlayer(dc datagen.Config, player *nnue.Net) (ShardPlayer, error) {
	g, err := trichessPlayers(dc, player)()
	if err != nil {
		return nil, err
	}
	return shardGames[data.TrichessRecord]{games: g, codec: data.Trichess}, nil
}

func (trichessRecipe) checkShard(shard []byte) error {
	_, err := data.Trichess.DecodeShard(shard)
	return err
}

func (trichessRecipe) rescore(ctx context.Context, dc datagen.Config, player *nnue.Net, job rescoreJob) (datagen.RescoreStats, error) {
	newEval := trichessEvaluatorOf(player)
	return rescoreWith(ctx, data.Trichess, job, func() (datagen.Rescorer[data.TrichessRecord], error) {
		eval, err := newEval()
		if err != nil {
			return nil, err
		}
		return datagen.NewTrichessPlayer(dc, trichessab.Default, eval)
	})
}

// trichessPlayers returns a function making data generation players of
// Trichess's default search with player (nil: the rules' piece points).
func trichessPlayers(dc datagen.Config, player *nnue.Net) func() (datagen.Games[data.TrichessRecord], error) {
	newEval := trichessEvaluatorOf(player)
	return func() (datagen.Games[data.TrichessRecord], error) {
		eval, err := newEval()
		if err != nil {
			return nil, err
		}
		return datagen.NewTrichessPlayer(dc, trichessab.Default, eval)
	}
}

func (trichessRecipe) window(dir string, wc data.WindowConfig, warn io.Writer) (sampler, error) {
	w, err := data.Trichess.NewWindow(dir, wc, warn)
	if err != nil {
		return nil, err
	}
	return &windowOf[data.TrichessRecord]{Window: w, batch: func(rs []data.TrichessRecord) train.Batch { return data.TrichessRecords(rs) }}, nil
}

// leadAccepts tells whether Trichess's gate makes the new net the
// player: its lead test accepted H1, or was cut at its last group
// undecided with a positive log-likelihood ratio, as a truncated test
// decides (gateAccepts).
func leadAccepts(res arena.LeadSPRTResult) bool {
	return res.Decision == arena.AcceptH1 || res.Decision == arena.Continue && res.LLR > 0
}

// trichessSearchPlayer plays the move of Trichess's search (BRS+) with
// one evaluation.
type trichessSearchPlayer struct {
	s      *trichessab.Searcher
	limits trichessab.Limits
}

func (p *trichessSearchPlayer) Move(ctx context.Context, s engine.State) (int, error) {
	st, ok := s.(*trichess.State)
	if !ok {
		return 0, fmt.Errorf("generations: a Trichess player was given a %s position", s.Game().Name())
	}
	r, err := p.s.Search(ctx, st.Position, p.limits)
	if err != nil {
		return 0, err
	}
	return trichess.MoveToAction(r.Move, st.SideToMove()), nil
}

// trichessSearchMaker makes players of Trichess's default search with
// the evaluations newEval returns, within limits, named name.
func trichessSearchMaker(name string, limits trichessab.Limits, newEval func() (trichessab.Evaluator, error)) *players.Maker {
	return players.NewMaker(name, limits.Time > 0, func(uint64) (players.Player, error) {
		eval, err := newEval()
		if err != nil {
			return nil, err
		}
		s, err := trichessab.New(trichessab.Default, matchTableBits)
		if err != nil {
			return nil, err
		}
		s.SetEvaluator(eval)
		return &trichessSearchPlayer{s: s, limits: limits}, nil
	})
}

// trichessEvaluatorOf returns a function making net's Trichess
// evaluators, or the rules' piece points alone for a nil net.
func trichessEvaluatorOf(net *nnue.Net) func() (trichessab.Evaluator, error) {
	if net == nil {
		return func() (trichessab.Evaluator, error) { return trichessab.Material{}, nil }
	}
	return func() (trichessab.Evaluator, error) { return trichessab.NewNNUE(net) }
}

// challenge plays groups openings of cand in each seat in turn against
// two copies of field, stopping early if test decides; it returns
// cand's standing, with its lead per group, and the test's state.
func challenge(ctx context.Context, cand, field *players.Maker, groups int, openings []engine.State, plies int, seed uint64, test *arena.LeadSPRT, progress func(done, total int)) (arena.Standing, *arena.LeadSPRTResult, error) {
	res, err := arena.Run(ctx, arena.Config{
		Game: gameNamed(trichessName), Players: []*players.Maker{cand, field}, Groups: groups,
		Openings: openings, OpeningPlies: plies, Seed: seed, Challenge: true, LeadTest: test, Progress: progress,
	})
	if err != nil {
		return arena.Standing{}, nil, err
	}
	return arena.ChallengeStanding(field.Name, res), res.LeadTest, nil
}
