package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// Every player sits in every seat equally often, every ordered pair in
// every relative position equally often, every recorded game replays to
// its result, and the outcomes are the records'.
func TestRunMultiSeatsAndRecords(t *testing.T) {
	tests := []struct {
		name   string
		specs  []string
		groups int
		tables int
	}{
		{"three players", []string{"random", "greedy", "random"}, 2, 1},
		{"four players at three seats", []string{"random", "greedy", "random", "greedy"}, 1, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			calls := 0
			cfg := MultiConfig{Game: trichess.Game, Players: load(t, trichess.Game, tc.specs...), Groups: tc.groups, OpeningPlies: 4, Parallel: 2, Seed: 11, Records: &buf,
				Progress: func(done, total int) { calls++ }}
			res, err := RunMulti(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			games := tc.tables * tc.groups * 6
			if len(res.Outcomes) != games || len(res.Tables) != tc.tables || calls != games {
				t.Fatalf("%d outcomes, %d tables, %d progress calls; want %d, %d, %d", len(res.Outcomes), len(res.Tables), calls, games, tc.tables, games)
			}
			n, err := Replay(bytes.NewReader(buf.Bytes()), "games.jsonl")
			if err != nil || n != games {
				t.Fatalf("replayed %d games, %v; want %d", n, err, games)
			}
			recs := readRecords(t, buf.Bytes())
			// seatCount[p][s]: games p sat in seat s; after[a][b][d]: games
			// b sat d seats after a.
			seatCount := make([][3]int, len(tc.specs))
			after := map[[3]int]int{}
			starts := map[[2]int]string{}
			for _, r := range recs {
				if len(r.Seats) != 3 || len(r.Titles) != 3 || r.Ending == "" {
					t.Fatalf("record lacks seats, titles or ending: %+v", r)
				}
				for s, p := range r.Seats {
					seatCount[p][s]++
					if r.Players[s] != tc.specs[p] {
						t.Errorf("seat %d: player %q recorded as %q", s, tc.specs[p], r.Players[s])
					}
					for d := 1; d < 3; d++ {
						after[[3]int{p, r.Seats[(s+d)%3], d}]++
					}
				}
				key := [2]int{r.Meeting, r.Pair}
				if st, ok := starts[key]; ok && st != r.Start {
					t.Errorf("table %d group %d: two openings", r.Meeting, r.Pair)
				}
				starts[key] = r.Start
				i := slices.IndexFunc(res.Outcomes, func(o Outcome) bool {
					return o.Table == r.Meeting && o.Group == r.Pair && o.Seating == r.Round
				})
				if i < 0 {
					t.Fatalf("record %d/%d/%d has no outcome", r.Meeting, r.Pair, r.Round)
				}
				o := res.Outcomes[i]
				for s := range 3 {
					if o.Points[s] != float64(r.Scores[s]) || o.Result[s] != float64(r.Result[s]) || o.Titles[s] != r.Titles[s] || o.Seats[s] != r.Seats[s] {
						t.Errorf("outcome %+v does not match its record %+v", o, r)
					}
				}
			}
			// Each player is at C(n-1, 2) tables, each of groups×6 games,
			// two in each seat per group.
			perSeat := tc.groups * 2 * (len(tc.specs) - 1) * (len(tc.specs) - 2) / 2
			for p, counts := range seatCount {
				for s, c := range counts {
					if c != perSeat {
						t.Errorf("player %d sat in seat %d %d times, want %d", p, s, c, perSeat)
					}
				}
			}
			// Each two players share n-2 tables, where in a group of six
			// games the second sits one seat after the first in three and
			// two seats after in three (cyclic rotations alone would give
			// six and none).
			for a := range tc.specs {
				for b := range tc.specs {
					for d := 1; d < 3 && a != b; d++ {
						if c, want := after[[3]int{a, b, d}], 3*tc.groups*(len(tc.specs)-2); c != want {
							t.Errorf("player %d sat %d seats after %d in %d games, want %d", b, d, a, c, want)
						}
					}
				}
			}
			if !slices.IsSortedFunc(res.Outcomes, func(a, b Outcome) int {
				return (a.Table-b.Table)*1000000 + (a.Group-b.Group)*1000 + a.Seating - b.Seating
			}) {
				t.Error("outcomes not ordered by table, group and seating")
			}
			if _, err := res.Ratings(0, 0); err != nil {
				t.Error(err)
			}
		})
	}
}

// Tampered seats or titles fail the replay.
func TestReplayCatchesTamperedTitles(t *testing.T) {
	var buf bytes.Buffer
	if _, err := RunMulti(context.Background(), MultiConfig{Game: trichess.Game, Players: load(t, trichess.Game, "greedy", "random", "random"), Groups: 1, OpeningPlies: 2, Seed: 5, Records: &buf}); err != nil {
		t.Fatal(err)
	}
	good := readRecords(t, buf.Bytes())[0]
	tests := []struct {
		name string
		f    func(r *Record)
		want string
	}{
		{"titles swapped", func(r *Record) { r.Titles = []string{"seigneur", "seigneur", "seigneur"} }, "recorded titles"},
		{"ending", func(r *Record) { r.Ending = "stalemate" }, "recorded ending"},
		{"a player twice", func(r *Record) { r.Seats = []int{0, 0, 1} }, "sits twice"},
		{"two seats", func(r *Record) { r.Seats = []int{0, 1} }, "2 seats recorded"},
	}
	for _, tc := range tests {
		r := good
		r.Titles, r.Seats = slices.Clone(good.Titles), slices.Clone(good.Seats)
		tc.f(&r)
		line, _ := json.Marshal(r)
		if _, err := Replay(bytes.NewReader(line), "t.jsonl"); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "t.jsonl:1") {
			t.Errorf("%s: %v, want an error naming t.jsonl:1 and %q", tc.name, err, tc.want)
		}
	}
}

func TestMultiConfigErrors(t *testing.T) {
	three := load(t, trichess.Game, "random", "random", "greedy")
	over := trichess.Game.Start()
	for !over.Over() {
		over.Play(over.LegalActions(nil)[0])
	}
	tests := []struct {
		cfg  MultiConfig
		want string
	}{
		{MultiConfig{Players: three, Groups: 1}, "no game"},
		{MultiConfig{Game: trench.Game, Players: load(t, trench.Game, "random", "random", "greedy"), Groups: 1}, "needs three or more"},
		{MultiConfig{Game: trichess.Game, Players: three[:2], Groups: 1}, "at least 3 players, got 2"},
		{MultiConfig{Game: trichess.Game, Players: three, Groups: 0}, "opening group"},
		{MultiConfig{Game: trichess.Game, Players: three, Groups: 1, OpeningPlies: -1}, "opening plies"},
		{MultiConfig{Game: trichess.Game, Players: three, Groups: 1, Openings: []engine.State{over}}, "finished game"},
		{MultiConfig{Game: trichess.Game, Players: three, Groups: 1, Openings: []engine.State{trench.Game.Start()}}, "a trench position"},
		{MultiConfig{Game: trichess.Game, Players: three, Groups: MaxMultiGames}, "games"},
	}
	for _, tc := range tests {
		if _, err := RunMulti(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestRunMultiCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := RunMulti(ctx, MultiConfig{Game: trichess.Game, Players: load(t, trichess.Game, "random", "random", "random"), Groups: 3})
	if err == nil || res == nil || len(res.Outcomes) == 18 {
		t.Errorf("cancelled run: %v, %+v", err, res)
	}
}
