// Package arena plays matches between players and says, with honest
// statistics, which is stronger and by how much: games in pairs (the same
// opening with colours swapped), in parallel, with wins, draws and
// losses, the score, the points captured, the Elo difference with a 95%
// interval (per game and per pair), an optional SPRT that stops early,
// a maximum-likelihood Elo table for a round-robin, and a JSONL record of
// every game that Replay checks.
//
// Games of three or more players (RunMulti) play each opening in every
// seating and report each player's mean points with 95% intervals, the
// titles and endings the game names, a pairwise score table and an Elo
// fitted to it.
package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"

	"trench/engine"
	"trench/players"
)

// Config describes a match (two players) or a round-robin (more).
type Config struct {
	// Game is the game played; it must have two players.
	Game engine.Game
	// Players take part; every two of them meet in Pairs pairs of games.
	Players []*players.Maker
	// Pairs is the number of game pairs per meeting.
	Pairs int
	// Openings are the positions the pairs start from, used in turn; if
	// empty, each pair starts OpeningPlies random plies from the start.
	Openings     []engine.State
	OpeningPlies int
	// Parallel is the number of games asked to be played at once, 0 for
	// the default; PlanGames decides, and lowers it for time-limited
	// players.
	Parallel int
	// Seed seeds the openings and the players' randomness.
	Seed uint64
	// Records, if not nil, receives every game as one JSON line.
	Records io.Writer
	// SPRT, for a match of two players, stops it as soon as the test
	// decides.
	SPRT *SPRT
	// Progress, if not nil, is called after each game with the games
	// played and the most there will be.
	Progress func(done, total int)
}

// Meeting is the tally of two players' games against each other, seen
// from player A.
type Meeting struct {
	A, B int
	// Wins, Draws and Losses are A's.
	Wins, Draws, Losses int
	// PointsA and PointsB are the points each captured in all the games.
	PointsA, PointsB float64
	// PairScores counts the finished pairs by A's points in them: index
	// 0..4 for 0, ½, 1, 1½, 2 (the pentanomial tally).
	PairScores [5]int
}

// Games is the number of games played.
func (m *Meeting) Games() int { return m.Wins + m.Draws + m.Losses }

// Score is A's mean score per game (a win 1, a draw ½).
func (m *Meeting) Score() float64 {
	if m.Games() == 0 {
		return 0.5
	}
	return (float64(m.Wins) + 0.5*float64(m.Draws)) / float64(m.Games())
}

// Elo is the Elo difference of A over B from the games, with its 95%
// interval from the trinomial (per-game) variance.
func (m *Meeting) Elo() Interval { return TrinomialElo(m.Wins, m.Draws, m.Losses) }

// PairElo is the same from the pentanomial (per-pair) variance, which
// accounts for the openings' bias.
func (m *Meeting) PairElo() Interval { return PentanomialElo(m.PairScores) }

// Result is what a match or round-robin found.
type Result struct {
	// Names are the players' names, by index.
	Names []string
	// Meetings holds one entry per two players, A < B.
	Meetings []*Meeting
	// Games is the number of games played.
	Games int
	// SPRT is the test's state at the end, for a match with a test.
	SPRT *SPRTResult
}

// job is one game to play: a meeting, a pair and which game of the pair.
type job struct {
	meeting, pair, game int
	opening             engine.State
}

// Run plays the configured games and tallies them. It stops early when
// ctx is done (returning what was played and ctx's error), on the first
// player error, or when the SPRT decides.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	res := &Result{}
	for i, p := range cfg.Players {
		res.Names = append(res.Names, p.Name)
		for j := i + 1; j < len(cfg.Players); j++ {
			res.Meetings = append(res.Meetings, &Meeting{A: i, B: j})
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6172656e61))
	var jobs []job
	for m := range res.Meetings {
		for p := range cfg.Pairs {
			var open engine.State
			if len(cfg.Openings) > 0 {
				open = cfg.Openings[(m*cfg.Pairs+p)%len(cfg.Openings)]
			} else {
				open = RandomOpening(cfg.Game, cfg.OpeningPlies, rng)
			}
			jobs = append(jobs, job{m, p, 0, open}, job{m, p, 1, open})
		}
	}
	if cfg.SPRT != nil {
		st := cfg.SPRT.Result(Meeting{})
		res.SPRT = &st
	}

	pending := map[[2]int]float64{} // a meeting's pair → A's first-game score
	err := playAll(ctx, jobs, PlanGames(cfg.Parallel, cfg.Players, runtime.GOMAXPROCS(0)).Games,
		func(ctx context.Context, j job) (*Record, error) {
			return playJob(ctx, cfg, res.Meetings[j.meeting], j)
		},
		func(j job, rec *Record) (bool, error) {
			err := res.tally(cfg, rec, j, pending)
			if cfg.Progress != nil {
				cfg.Progress(res.Games, len(jobs))
			}
			return res.SPRT != nil && res.SPRT.Decision != Continue, err
		})
	if err != nil {
		return res, err
	}
	if res.SPRT != nil && res.SPRT.Decision != Continue {
		return res, nil
	}
	if res.Games < len(jobs) {
		return res, ctx.Err()
	}
	return res, nil
}

// playAll plays jobs on parallel goroutines (0: one per core). Each
// finished game goes to done, one at a time, which may stop the rest
// early (stop) or fail them (an error). It returns the first error of a
// game or of done; when ctx ends first, the jobs not yet started are
// dropped and it returns nil (the caller compares what was played with
// what was asked).
func playAll[J any](ctx context.Context, jobs []J, parallel int, play func(context.Context, J) (*Record, error), done func(J, *Record) (stop bool, err error)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		next     = make(chan J)
	)
	for range parallel {
		wg.Go(func() {
			for j := range next {
				rec, err := play(ctx, j)
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = err
					}
					cancel()
					mu.Unlock()
					continue
				}
				stop, err := done(j, rec)
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				if stop {
					cancel()
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return firstErr
}

// tally adds one finished game to its meeting, writes its record, and
// updates the SPRT. It runs under the run's lock.
func (r *Result) tally(cfg Config, rec *Record, j job, pending map[[2]int]float64) error {
	m := r.Meetings[j.meeting]
	seatA := seatOf(j.game)
	scoreA := float64(rec.Result[seatA]+1) / 2
	switch {
	case scoreA > 0.5:
		m.Wins++
	case scoreA < 0.5:
		m.Losses++
	default:
		m.Draws++
	}
	m.PointsA += float64(rec.Scores[seatA])
	m.PointsB += float64(rec.Scores[1-seatA])
	r.Games++
	key := [2]int{j.meeting, j.pair}
	if first, ok := pending[key]; ok {
		delete(pending, key)
		m.PairScores[int(2*(first+scoreA)+0.5)]++
		if r.SPRT != nil && r.SPRT.Decision == Continue {
			// A decision stands: games still in flight when it was
			// reached count in the tally but not in the test.
			*r.SPRT = cfg.SPRT.Result(*m)
		}
	} else {
		pending[key] = scoreA
	}
	if cfg.Records != nil {
		if err := rec.write(cfg.Records); err != nil {
			return fmt.Errorf("writing the game records: %w", err)
		}
	}
	return nil
}

// seatOf is the seat of a meeting's player A in game g of a pair: A plays
// first in the pair's first game and second in the other.
func seatOf(game int) int { return game }

// check reports a configuration that cannot be run.
func (cfg *Config) check() error {
	switch {
	case cfg.Game == nil:
		return errors.New("arena: no game")
	case cfg.Game.Players() != 2:
		return fmt.Errorf("arena: %s has %d players; Run plays two-player games (RunMulti plays games of more)", cfg.Game.Name(), cfg.Game.Players())
	case len(cfg.Players) < 2:
		return fmt.Errorf("arena: need at least two players, got %d", len(cfg.Players))
	case cfg.Pairs < 1:
		return fmt.Errorf("arena: need at least one pair of games, got %d", cfg.Pairs)
	case cfg.OpeningPlies < 0:
		return fmt.Errorf("arena: opening plies must not be negative, got %d", cfg.OpeningPlies)
	case cfg.SPRT != nil && len(cfg.Players) != 2:
		return errors.New("arena: an SPRT needs exactly two players")
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Validate(); err != nil {
			return err
		}
	}
	for i, o := range cfg.Openings {
		if o.Over() {
			return fmt.Errorf("arena: opening %d, %s, is a finished game", i+1, o)
		}
		if o.Game().Name() != cfg.Game.Name() {
			return fmt.Errorf("arena: opening %d is a %s position, not %s", i+1, o.Game().Name(), cfg.Game.Name())
		}
	}
	return nil
}

// RandomOpening plays plies random moves from the game's start, starting
// again if the game ends on the way.
func RandomOpening(g engine.Game, plies int, rng *rand.Rand) engine.State {
	var acts []int
	for attempt := 0; ; attempt++ {
		s := g.Start()
		for range plies {
			acts = s.LegalActions(acts)
			if len(acts) == 0 {
				break
			}
			s.Play(acts[rng.IntN(len(acts))])
		}
		if !s.Over() || attempt >= 100 {
			return s
		}
	}
}

// playJob plays one game of a meeting: A has seat seatOf(j.game).
func playJob(ctx context.Context, cfg Config, m *Meeting, j job) (*Record, error) {
	seatA := seatOf(j.game)
	makers := make([]*players.Maker, 2)
	makers[seatA], makers[1-seatA] = cfg.Players[m.A], cfg.Players[m.B]
	seed := cfg.Seed ^ uint64(j.meeting)<<40 ^ uint64(j.pair)<<8 ^ uint64(j.game)
	rec, err := Play(ctx, j.opening, makers, seed)
	if err != nil {
		return nil, err
	}
	rec.Meeting, rec.Pair, rec.Round = j.meeting, j.pair, j.game
	return rec, nil
}

// Play plays one game from start with one player per seat and returns its
// record.
func Play(ctx context.Context, start engine.State, makers []*players.Maker, seed uint64) (*Record, error) {
	g := start.Game()
	if len(makers) != g.Players() {
		return nil, fmt.Errorf("arena: %s needs %d players, got %d", g.Name(), g.Players(), len(makers))
	}
	ps := make([]players.Player, len(makers))
	rec := &Record{Game: g.Name(), Start: start.String()}
	for i, m := range makers {
		p, err := m.NewPlayer(seed*uint64(len(makers)) + uint64(i) + 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		ps[i] = p
		rec.Players = append(rec.Players, m.Name)
	}
	s := start.Clone()
	for !s.Over() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seat := s.ToMove()
		a, err := ps[seat].Move(ctx, s.Clone())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", makers[seat].Name, err)
		}
		text := s.ActionString(a)
		if err := engine.PlayChecked(s, a); err != nil {
			return nil, fmt.Errorf("%s played %s in %s: %w", makers[seat].Name, text, s, err)
		}
		rec.Moves = append(rec.Moves, text)
	}
	rec.Result = s.Result(nil)
	rec.Scores = s.Scores(nil)
	rec.Ending = engine.EndReason(s)
	rec.Titles = make([]string, g.Players())
	for p := range rec.Titles {
		rec.Titles[p] = engine.Title(s, p)
	}
	return rec, nil
}
