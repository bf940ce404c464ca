package arena

import (
	"fmt"
	"io"
	"slices"
)

// Tally gathers the games of logs the arena wrote (Replay's files) into
// one Result, so that matches of the same players played apart, with
// different seeds or on different machines, pool into one table.
// Every game is checked as Replay checks it. Each run keeps its own
// opening groups: a run begins with each log and wherever a game's
// table, group and seating come again in the same log (the arena
// appends run after run to one file). Games that cannot be one match's
// (another game, other players) are still checked; Result says why
// they do not tally.
type Tally struct {
	// err is why the games so far are not one match's.
	err error
	// game is the games' name, seats their number of seats, names the
	// players by index.
	game  string
	seats int
	names []string
	// outcomes are the games gathered, their groups numbered across
	// runs.
	outcomes []Outcome
	// seen holds the table, group and seating of the current run's
	// games; offset is added to its groups, next is the first group of
	// the run after it.
	seen         map[[3]int]bool
	offset, next int
}

// maxTallyPlayers bounds a player's index in a tallied log.
const maxTallyPlayers = 64

// Add reads the log r, named name in errors, and adds its games. It
// returns how many games it read; the error names the line of a game
// the rules refuse, and then nothing of r is added.
func (t *Tally) Add(r io.Reader, name string) (int, error) {
	saved := *t
	saved.names = slices.Clone(t.names)
	t.newRun()
	n, err := readLog(r, name, func(line int, rec *GameLog) {
		if t.err == nil {
			if err := t.add(rec); err != nil {
				t.err = fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
	})
	if err != nil {
		*t = saved
		return n, err
	}
	return n, nil
}

// newRun starts a run: its groups come after every group so far.
func (t *Tally) newRun() {
	t.seen, t.offset = map[[3]int]bool{}, t.next
}

// add adds one game that Check passed.
func (t *Tally) add(rec *GameLog) error {
	if t.game == "" {
		t.game, t.seats = rec.Game, len(rec.Players)
	}
	if rec.Game != t.game {
		return fmt.Errorf("a game of %s among games of %s: tally one game at a time", rec.Game, t.game)
	}
	if rec.Table < 0 || rec.Group < 0 || rec.Seating < 0 {
		return fmt.Errorf("table %d, group %d, seating %d: none may be negative", rec.Table, rec.Group, rec.Seating)
	}
	seats := rec.Seats
	if seats == nil {
		if t.seats != 2 {
			return fmt.Errorf("no seats recorded for a game of %d seats", t.seats)
		}
		seats = []int{0, 1} // logged before seats were: A first in seating 0
		if rec.Seating == 1 {
			seats = []int{1, 0}
		}
	}
	for seat, p := range seats {
		if p >= maxTallyPlayers {
			return fmt.Errorf("player %d: at most %d players tally", p, maxTallyPlayers)
		}
		for len(t.names) <= p {
			t.names = append(t.names, "")
		}
		switch t.names[p] {
		case "":
			t.names[p] = rec.Players[seat]
		case rec.Players[seat]:
		default:
			return fmt.Errorf("player %d is %s here and %s in the games before: tally the games of one set of players", p, rec.Players[seat], t.names[p])
		}
	}
	key := [3]int{rec.Table, rec.Group, rec.Seating}
	if t.seen[key] {
		t.newRun()
	}
	t.seen[key] = true
	o := Outcome{Table: rec.Table, Group: rec.Group + t.offset, Seating: rec.Seating, Seats: seats, Titles: rec.Titles, Ending: rec.Ending}
	for seat := range seats {
		o.Points = append(o.Points, float64(rec.Scores[seat]))
		o.Result = append(o.Result, float64(rec.Result[seat]))
	}
	t.next = max(t.next, o.Group+1)
	t.outcomes = append(t.outcomes, o)
	return nil
}

// Result returns the match the logs record, its outcomes ordered as
// Run orders them; Elapsed is zero, as the logs do not keep the time.
// The error says why the games cannot be one match's: no games,
// another game or another player under a name than before (naming the
// line), a player no game seats, or a game whose seats do not fit its
// table and seating as the arena lays them out (a challenge when a game
// of more than two seats has two players).
func (t *Tally) Result() (*Result, error) {
	if t.err != nil {
		return nil, t.err
	}
	if len(t.outcomes) == 0 {
		return nil, fmt.Errorf("no games to tally")
	}
	for p, name := range t.names {
		if name == "" {
			return nil, fmt.Errorf("no game seats player %d: tally whole matches", p)
		}
	}
	k := t.seats
	res, perms := newResult(slices.Clone(t.names), k, k > 2 && len(t.names) == 2)
	if len(res.Tables) == 0 {
		return nil, fmt.Errorf("%d players cannot fill a game of %d seats", len(t.names), k)
	}
	for _, o := range t.outcomes {
		if o.Table >= len(res.Tables) || o.Seating >= len(perms) {
			return nil, fmt.Errorf("a game at table %d, seating %d: %d players make tables 0 to %d, of seatings 0 to %d", o.Table, o.Seating, len(t.names), len(res.Tables)-1, len(perms)-1)
		}
		table := res.Tables[o.Table]
		for seat, i := range perms[o.Seating] {
			if o.Seats[seat] != table[i] {
				return nil, fmt.Errorf("a game at table %d, seating %d seats players %v, not as the arena seats them", o.Table, o.Seating, o.Seats)
			}
		}
		res.add(Config{}, o)
	}
	res.sortOutcomes()
	return res, nil
}
