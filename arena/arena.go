// Package arena plays matches between players of a game of any number of
// seats and says, with honest statistics, which is stronger and by how
// much.
//
// Every set of as many players as the game has seats (a table; with as
// many players as seats, the one table) plays opening groups: one opening
// played once in every seating, every permutation of the table's players
// over the seats, k! games for k seats. For two seats a group is a pair,
// the same opening with the colours swapped. Games run in parallel; every
// game can go to a JSONL log (GameLog) that Replay checks.
//
// The result holds every game's outcome: each player's mean points with
// 95% intervals (per game and per opening group), the titles and endings
// the game names, a pairwise score table and an Elo table fitted to it by
// maximum likelihood. Two seats add the pairs' statistics: each meeting
// of two players' wins, draws and losses, the points captured, the Elo
// difference with a 95% interval per game (trinomial) and per pair
// (pentanomial), and an optional SPRT that stops the match early.
package arena

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"trench/engine"
	"trench/players"
)

// Config describes a match.
type Config struct {
	// Game is the game played.
	Game engine.Game
	// Players take part, at least as many as the game has seats; the same
	// spec may come twice.
	Players []*players.Maker
	// Groups is the number of opening groups per table: each is one
	// opening played in every seating (for two seats, a pair of games).
	Groups int
	// Openings are the positions the groups start from, used in turn; if
	// empty, each group starts OpeningPlies random plies from the start.
	Openings     []engine.State
	OpeningPlies int
	// Parallel is the number of games asked to be played at once, 0 for
	// the default; PlanGames decides, and lowers it for time-limited
	// players.
	Parallel int
	// Seed seeds the openings and the players' randomness.
	Seed uint64
	// Log, if not nil, receives every game as one JSON line (GameLog).
	Log io.Writer
	// SPRT, for two players in a game of two seats, stops the match as
	// soon as the test decides.
	SPRT *SPRT
	// Progress, if not nil, is called after each game with the games
	// played and the most there will be.
	Progress func(done, total int)
	// Challenge, for exactly two players in a game of three or more
	// seats, seats Players[0], the challenger, in each seat in turn and
	// copies of Players[1] in all the others: an opening group is one
	// game a seat rather than every permutation, and no two of its games
	// differ only by swapping identical players.
	Challenge bool
	// LeadTest, for a challenge, stops the match as soon as a sequential
	// test of the challenger's lead per opening group decides.
	LeadTest *LeadSPRT
}

// Outcome is one finished game, by seat.
type Outcome struct {
	// Table, Group and Seating place the game: the table's index, the
	// opening group and the seating (the index of the permutation, in
	// the order of Permutations; for two seats 0 for the table's first
	// player in the first seat, 1 for the colour-swapped game).
	Table, Group, Seating int
	// Seats is the index of each seat's player.
	Seats []int
	// Points are each seat's points (the game's Scores at the end: for
	// Trench the points captured, for Trichess the titles' worth) and
	// Result its result (utility).
	Points, Result []float64
	// Titles name each seat's result and Ending how the game ended.
	Titles []string
	Ending string
}

// Result is what a match found.
type Result struct {
	// Names are the players' names, by index.
	Names []string
	// Seats is the number of seats of the game.
	Seats int
	// Tables are the players of each table, by index.
	Tables [][]int
	// Outcomes are the games played, ordered by table, group and seating.
	Outcomes []Outcome
	// Elapsed is the time the games took.
	Elapsed time.Duration
	// Meetings, for a game of two seats, holds one tally per table (two
	// players, A < B), in the order of Tables.
	Meetings []*Meeting
	// SPRT is the test's state at the end, for a match with a test.
	SPRT *SPRTResult
	// LeadTest is the lead test's state at the end, for a challenge
	// with a test.
	LeadTest *LeadSPRTResult
	// GroupGames is the number of games of a complete opening group:
	// Seatings(Seats), or Seats for a challenge.
	GroupGames int

	// firstOfPair holds, for two seats, player A's score in the first
	// finished game of each pair whose other game is not yet in.
	firstOfPair map[[2]int]float64
	// groupLeads holds, for a challenge with a lead test, the
	// challenger's lead in each finished game of each group not yet
	// complete; leads the mean lead of each complete group, in the order
	// they completed.
	groupLeads map[int][]float64
	leads      []float64
}

// MaxGames bounds the games of one run, so that a mistyped count or too
// many players is an error rather than a run that never ends.
const MaxGames = 10_000_000

// Games is the number of games a match plays: every set of seats of the
// players plays groups times every seating. It saturates above MaxGames.
func Games(players, seats, groups int) int {
	n := groups
	for i := range seats {
		// tables × seatings = players!/(players-seats)!
		n *= players - i
		if n > MaxGames || n < 0 {
			return MaxGames + 1
		}
	}
	return n
}

// GameCount is the number of games the match plays: Games, or for a
// challenge one a seat of each opening group.
func (cfg *Config) GameCount() int {
	if cfg.Challenge {
		return cfg.Groups * cfg.Game.Players()
	}
	return Games(len(cfg.Players), cfg.Game.Players(), cfg.Groups)
}

// Seatings is the number of games of an opening group in a game of seats
// seats: seats!.
func Seatings(seats int) int {
	n := 1
	for k := 2; k <= seats; k++ {
		n *= k
	}
	return n
}

// job is one game to play.
type job struct {
	table, group, seating int
	seats                 []int
	opening               engine.State
}

// seeding is how a match draws its openings and seeds its games: the
// stream of the openings' generator, and the shift of a group's index in
// a game's seed. Matches of two seats keep the values they had before the
// arena played games of more, so that a seed printed by an earlier run
// still plays the same games.
type seeding struct {
	stream     uint64
	groupShift uint
}

func seedingFor(seats int) seeding {
	if seats == 2 {
		return seeding{0x6172656e61, 8}
	}
	return seeding{0x6d756c7469, 12}
}

// gameSeed seeds the players of one game.
func (s seeding) gameSeed(seed uint64, j job) uint64 {
	return seed ^ uint64(j.table)<<40 ^ uint64(j.group)<<s.groupShift ^ uint64(j.seating)
}

// Run plays the configured games and tallies them. It stops early when
// ctx is done (returning what was played and ctx's error), on the first
// player error, or when the SPRT decides.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	k := cfg.Game.Players()
	var names []string
	for _, p := range cfg.Players {
		names = append(names, p.Name)
	}
	res, perms := newResult(names, k, cfg.Challenge)
	if cfg.SPRT != nil {
		st := cfg.SPRT.Result(Meeting{})
		res.SPRT = &st
	}
	if cfg.LeadTest != nil {
		st := cfg.LeadTest.Result(nil)
		res.LeadTest, res.groupLeads = &st, map[int][]float64{}
	}
	seeds := seedingFor(k)
	rng := rand.New(rand.NewPCG(cfg.Seed, seeds.stream))
	var jobs []job
	for t, table := range res.Tables {
		for g := range cfg.Groups {
			var open engine.State
			if len(cfg.Openings) > 0 {
				open = cfg.Openings[(t*cfg.Groups+g)%len(cfg.Openings)]
			} else {
				open = RandomOpening(cfg.Game, cfg.OpeningPlies, rng)
			}
			for s, perm := range perms {
				seats := make([]int, k)
				for seat, i := range perm {
					seats[seat] = table[i]
				}
				jobs = append(jobs, job{t, g, s, seats, open})
			}
		}
	}

	start := time.Now()
	err := playAll(ctx, jobs, PlanGames(cfg.Parallel, cfg.Players, runtime.GOMAXPROCS(0)).Games,
		func(ctx context.Context, j job) (*GameLog, error) {
			makers := make([]*players.Maker, len(j.seats))
			for seat, p := range j.seats {
				makers[seat] = cfg.Players[p]
			}
			log, err := Play(ctx, j.opening, makers, seeds.gameSeed(cfg.Seed, j))
			if err != nil {
				return nil, err
			}
			log.Table, log.Group, log.Seating, log.Seats = j.table, j.group, j.seating, j.seats
			return log, nil
		},
		func(j job, log *GameLog) (bool, error) {
			res.add(cfg, outcomeOf(log, j))
			var err error
			if cfg.Log != nil {
				if werr := log.write(cfg.Log); werr != nil {
					err = fmt.Errorf("writing the game log: %w", werr)
				}
			}
			if cfg.Progress != nil {
				cfg.Progress(len(res.Outcomes), len(jobs))
			}
			return res.decided(), err
		})
	res.Elapsed = time.Since(start)
	res.sortOutcomes()
	switch {
	case err != nil:
		return res, err
	case res.decided():
		return res, nil
	case len(res.Outcomes) < len(jobs):
		return res, ctx.Err()
	}
	return res, nil
}

// newResult returns the empty result of a match of the players names
// in a game of k seats, a challenge or not, and the seatings of each
// table's players (for seating s, the index in the table of each seat's
// player).
func newResult(names []string, k int, challenge bool) (*Result, [][]int) {
	res := &Result{Names: names, Seats: k, Tables: Combinations(len(names), k), GroupGames: Seatings(k)}
	perms := Permutations(k)
	if challenge {
		res.Tables, res.GroupGames, perms = [][]int{{0, 1}}, k, challengeSeatings(k)
	}
	if k == 2 {
		res.firstOfPair = map[[2]int]float64{}
		for _, t := range res.Tables {
			res.Meetings = append(res.Meetings, &Meeting{A: t[0], B: t[1]})
		}
	}
	return res, perms
}

// sortOutcomes orders the outcomes by table, group and seating.
func (r *Result) sortOutcomes() {
	slices.SortFunc(r.Outcomes, func(a, b Outcome) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Group, b.Group), cmp.Compare(a.Seating, b.Seating))
	})
}

// decided reports whether the match's test, if it has one, decided.
func (r *Result) decided() bool {
	return r.SPRT != nil && r.SPRT.Decision != Continue || r.LeadTest != nil && r.LeadTest.Decision != Continue
}

// challengeSeatings are a challenge's seatings in a game of k seats: in
// seating s the challenger (0) sits in seat s, the other player (1) in
// the rest.
func challengeSeatings(k int) [][]int {
	out := make([][]int, k)
	for s := range out {
		out[s] = make([]int, k)
		for seat := range out[s] {
			if seat != s {
				out[s][seat] = 1
			}
		}
	}
	return out
}

// add counts one finished game, and for two seats tallies its meeting
// and updates the SPRT, for a challenge with a lead test updates the
// test once the game's group is complete. It runs under the run's lock.
func (r *Result) add(cfg Config, o Outcome) {
	r.Outcomes = append(r.Outcomes, o)
	if r.groupLeads != nil {
		r.addLead(cfg, o)
	}
	if r.Meetings == nil {
		return
	}
	m := r.Meetings[o.Table]
	seatA := o.Seating // A sits first in a pair's first game, second in the other
	scoreA := (o.Result[seatA] + 1) / 2
	switch {
	case scoreA > 0.5:
		m.Wins++
	case scoreA < 0.5:
		m.Losses++
	default:
		m.Draws++
	}
	m.PointsA += o.Points[seatA]
	m.PointsB += o.Points[1-seatA]
	key := [2]int{o.Table, o.Group}
	first, ok := r.firstOfPair[key]
	if !ok {
		r.firstOfPair[key] = scoreA
		return
	}
	delete(r.firstOfPair, key)
	m.PairScores[int(2*(first+scoreA)+0.5)]++
	if r.SPRT != nil && r.SPRT.Decision == Continue {
		// A decision stands: games still in flight when it was reached
		// count in the tally but not in the test.
		*r.SPRT = cfg.SPRT.Result(*m)
	}
}

// outcomeOf is the outcome of a played job's log.
func outcomeOf(log *GameLog, j job) Outcome {
	o := Outcome{Table: j.table, Group: j.group, Seating: j.seating, Seats: j.seats, Titles: log.Titles, Ending: log.Ending}
	for seat := range j.seats {
		o.Points = append(o.Points, float64(log.Scores[seat]))
		o.Result = append(o.Result, float64(log.Result[seat]))
	}
	return o
}

// playAll plays jobs on parallel goroutines (0: one per core). Each
// finished game goes to done, one at a time, which may stop the rest
// early (stop) or fail them (an error). It returns the first error of a
// game or of done; when ctx ends first, the jobs not yet started are
// dropped and it returns nil (the caller compares what was played with
// what was asked).
func playAll[J any](ctx context.Context, jobs []J, parallel int, play func(context.Context, J) (*GameLog, error), done func(J, *GameLog) (stop bool, err error)) error {
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
				log, err := play(ctx, j)
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = err
					}
					cancel()
					mu.Unlock()
					continue
				}
				stop, err := done(j, log)
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

// check reports a configuration that cannot be run.
func (cfg *Config) check() error {
	if cfg.Game == nil {
		return errors.New("arena: no game")
	}
	name, seats := cfg.Game.Name(), cfg.Game.Players()
	switch {
	case seats < 2:
		return fmt.Errorf("arena: %s has %d players; a match needs two or more", name, seats)
	case seats > 8:
		return fmt.Errorf("arena: %s has %d players; seating every permutation of more than 8 is too many games", name, seats)
	case len(cfg.Players) < seats && !cfg.Challenge:
		return fmt.Errorf("arena: %s needs at least %d players, got %d", name, seats, len(cfg.Players))
	case len(cfg.Players) > 32:
		return fmt.Errorf("arena: at most 32 players, got %d", len(cfg.Players))
	case cfg.Groups < 1:
		return fmt.Errorf("arena: need at least one opening group, got %d", cfg.Groups)
	case cfg.OpeningPlies < 0:
		return fmt.Errorf("arena: opening plies must not be negative, got %d", cfg.OpeningPlies)
	case cfg.SPRT != nil && (seats != 2 || len(cfg.Players) != 2):
		return errors.New("arena: an SPRT needs exactly two players in a game of two")
	case cfg.Challenge && (seats < 3 || len(cfg.Players) != 2):
		return fmt.Errorf("arena: a challenge needs exactly two players in a game of three or more seats, got %d players at %d seats", len(cfg.Players), seats)
	case cfg.LeadTest != nil && !cfg.Challenge:
		return errors.New("arena: a lead test needs a challenge")
	}
	if cfg.LeadTest != nil {
		if err := cfg.LeadTest.Validate(); err != nil {
			return err
		}
	}
	if n := cfg.GameCount(); n > MaxGames || n < 0 {
		return fmt.Errorf("arena: %d players at %d seats make more than %d games", len(cfg.Players), seats, MaxGames)
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
		if !engine.Same(o.Game(), cfg.Game) {
			return fmt.Errorf("arena: opening %d is a %s position, not %s", i+1, o.Game().Name(), name)
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

// Play plays one game from start with one player per seat and returns its
// log.
func Play(ctx context.Context, start engine.State, makers []*players.Maker, seed uint64) (*GameLog, error) {
	g := start.Game()
	if len(makers) != g.Players() {
		return nil, fmt.Errorf("arena: %s needs %d players, got %d", g.Name(), g.Players(), len(makers))
	}
	ps := make([]players.Player, len(makers))
	log := &GameLog{Game: g.Name(), Start: start.String()}
	for i, m := range makers {
		p, err := m.NewPlayer(seed*uint64(len(makers)) + uint64(i) + 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		ps[i] = p
		log.Players = append(log.Players, m.Name)
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
		log.Moves = append(log.Moves, text)
	}
	log.Result = s.Result(nil)
	log.Scores = s.Scores(nil)
	log.Ending = engine.EndReason(s)
	log.Titles = make([]string, g.Players())
	for p := range log.Titles {
		log.Titles[p] = engine.Title(s, p)
	}
	return log, nil
}

// Combinations returns every k-element subset of 0..n-1, each increasing,
// in lexicographic order.
func Combinations(n, k int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	var rec func(start int)
	rec = func(start int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i <= n-(k-len(cur)); i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	if k >= 0 && k <= n {
		rec(0)
	}
	return out
}

// Permutations returns every permutation of 0..k-1 in lexicographic
// order.
func Permutations(k int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	used := make([]bool, k)
	var rec func()
	rec = func() {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := range k {
			if !used[i] {
				used[i] = true
				cur = append(cur, i)
				rec()
				cur = cur[:len(cur)-1]
				used[i] = false
			}
		}
	}
	rec()
	return out
}

// Labels are the players' names made unique: a name that comes more than
// once is numbered, "random#1", "random#2".
func Labels(names []string) []string {
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	seen := map[string]int{}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if count[n] > 1 {
			seen[n]++
			out[i] = fmt.Sprintf("%s#%d", n, seen[n])
		}
	}
	return out
}

// PlayerIndex finds a player by its label (Labels) or, failing that, by
// its name, the first of that name; -1 if none has it.
func PlayerIndex(names []string, name string) int {
	if i := slices.Index(Labels(names), name); i >= 0 {
		return i
	}
	return slices.Index(names, name)
}
