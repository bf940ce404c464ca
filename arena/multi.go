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

	"trench/engine"
	"trench/players"
)

// MultiConfig describes a match of a game of three or more players.
//
// Every set of Game.Players() players (a table; with as many players as
// seats, the one table) plays Groups opening groups. A group is one
// opening played once for every seating: every permutation of the table's
// players over the seats, k! games for k seats (6 for three). Cyclic
// rotations alone would seat every player in every seat equally often but
// keep the order around the table fixed, so that with three players A
// would always move just before B and just after C. In Trichess that
// order matters (the shield rule protects the previous player, échec et
// pat rewards by position, and a weak player hands chances to the one
// after it), so the arena plays all permutations: every player sits in
// every seat, and every ordered pair in every relative position, equally
// often.
type MultiConfig struct {
	// Game is the game played; it must have three players or more.
	Game engine.Game
	// Players take part, at least Game.Players() of them; the same spec
	// may come twice.
	Players []*players.Maker
	// Groups is the number of opening groups per table.
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
	// Records, if not nil, receives every game as one JSON line.
	Records io.Writer
	// Progress, if not nil, is called after each game with the games
	// played and the total.
	Progress func(done, total int)
}

// Outcome is one finished game of a multi-player match, by seat.
type Outcome struct {
	// Table, Group and Seating place the game: the table's index, the
	// opening group and the seating (the index of the permutation).
	Table, Group, Seating int
	// Seats is the index of each seat's player.
	Seats []int
	// Points are each seat's points (the game's Scores at the end; for
	// Trichess the titles' worth) and Result its result (utility).
	Points, Result []float64
	// Titles name each seat's result and Ending how the game ended.
	Titles []string
	Ending string
}

// MultiResult is what a multi-player match found.
type MultiResult struct {
	// Names are the players' names, by index.
	Names []string
	// Seats is the number of seats of the game.
	Seats int
	// Tables are the players of each table, by index.
	Tables [][]int
	// Outcomes are the games played, ordered by table, group and seating.
	Outcomes []Outcome
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

// MaxMultiGames bounds the games of one multi-player run, so that a
// mistyped count or too many players is an error rather than a run that
// never ends.
const MaxMultiGames = 10_000_000

// check reports a configuration that cannot be run.
func (cfg *MultiConfig) check() error {
	switch {
	case cfg.Game == nil:
		return errors.New("arena: no game")
	case cfg.Game.Players() < 3:
		return fmt.Errorf("arena: %s has %d players; the multi-player arena needs three or more", cfg.Game.Name(), cfg.Game.Players())
	case cfg.Game.Players() > 8:
		return fmt.Errorf("arena: %s has %d players; seating every permutation of more than 8 is too many games", cfg.Game.Name(), cfg.Game.Players())
	case len(cfg.Players) < cfg.Game.Players():
		return fmt.Errorf("arena: %s needs at least %d players, got %d", cfg.Game.Name(), cfg.Game.Players(), len(cfg.Players))
	case len(cfg.Players) > 32:
		return fmt.Errorf("arena: at most 32 players, got %d", len(cfg.Players))
	case cfg.Groups < 1:
		return fmt.Errorf("arena: need at least one opening group, got %d", cfg.Groups)
	case cfg.OpeningPlies < 0:
		return fmt.Errorf("arena: opening plies must not be negative, got %d", cfg.OpeningPlies)
	}
	if n := MultiGames(len(cfg.Players), cfg.Game.Players(), cfg.Groups); n > MaxMultiGames {
		return fmt.Errorf("arena: %d players at %d seats make more than %d games", len(cfg.Players), cfg.Game.Players(), MaxMultiGames)
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

// MultiGames is the number of games a multi-player match plays: every
// set of seats of the players plays groups times every seating. It
// saturates above MaxMultiGames.
func MultiGames(players, seats, groups int) int {
	n := groups
	for i := range seats {
		// tables × seatings = players!/(players-seats)!
		n *= players - i
		if n > MaxMultiGames || n < 0 {
			return MaxMultiGames + 1
		}
	}
	return n
}

// multiJob is one game to play.
type multiJob struct {
	table, group, seating int
	seats                 []int
	opening               engine.State
}

// RunMulti plays the configured games of a game of three or more players.
// It stops early when ctx is done (returning what was played and ctx's
// error) or on the first player error.
func RunMulti(ctx context.Context, cfg MultiConfig) (*MultiResult, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	k := cfg.Game.Players()
	res := &MultiResult{Seats: k, Tables: Combinations(len(cfg.Players), k)}
	for _, p := range cfg.Players {
		res.Names = append(res.Names, p.Name)
	}
	perms := Permutations(k)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6d756c7469))
	var jobs []multiJob
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
				jobs = append(jobs, multiJob{t, g, s, seats, open})
			}
		}
	}

	err := playAll(ctx, jobs, PlanGames(cfg.Parallel, cfg.Players, runtime.GOMAXPROCS(0)).Games,
		func(ctx context.Context, j multiJob) (*Record, error) { return playMulti(ctx, cfg, j) },
		func(j multiJob, rec *Record) (bool, error) {
			res.Outcomes = append(res.Outcomes, outcomeOf(rec, j))
			var err error
			if cfg.Records != nil {
				if werr := rec.write(cfg.Records); werr != nil {
					err = fmt.Errorf("writing the game records: %w", werr)
				}
			}
			if cfg.Progress != nil {
				cfg.Progress(len(res.Outcomes), len(jobs))
			}
			return false, err
		})
	slices.SortFunc(res.Outcomes, func(a, b Outcome) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Group, b.Group), cmp.Compare(a.Seating, b.Seating))
	})
	if err != nil {
		return res, err
	}
	if len(res.Outcomes) < len(jobs) {
		return res, ctx.Err()
	}
	return res, nil
}

// playMulti plays one game of a multi-player match.
func playMulti(ctx context.Context, cfg MultiConfig, j multiJob) (*Record, error) {
	makers := make([]*players.Maker, len(j.seats))
	for seat, p := range j.seats {
		makers[seat] = cfg.Players[p]
	}
	seed := cfg.Seed ^ uint64(j.table)<<40 ^ uint64(j.group)<<12 ^ uint64(j.seating)
	rec, err := Play(ctx, j.opening, makers, seed)
	if err != nil {
		return nil, err
	}
	rec.Meeting, rec.Pair, rec.Round = j.table, j.group, j.seating
	rec.Seats = j.seats
	return rec, nil
}

// outcomeOf is the outcome of a played job's record.
func outcomeOf(rec *Record, j multiJob) Outcome {
	o := Outcome{Table: j.table, Group: j.group, Seating: j.seating, Seats: j.seats, Titles: rec.Titles, Ending: rec.Ending}
	for seat := range j.seats {
		o.Points = append(o.Points, float64(rec.Scores[seat]))
		o.Result = append(o.Result, float64(rec.Result[seat]))
	}
	return o
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
