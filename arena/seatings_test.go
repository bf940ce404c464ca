package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
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
func TestRunSeatsAndLogs(t *testing.T) {
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
			cfg := Config{Game: trichess.Game, Players: load(t, trichess.Game, tc.specs...), Groups: tc.groups, OpeningPlies: 4, Parallel: 2, Seed: 11, Log: &buf,
				Progress: func(done, total int) { calls++ }}
			res, err := Run(context.Background(), cfg)
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
				key := [2]int{r.Table, r.Group}
				if st, ok := starts[key]; ok && st != r.Start {
					t.Errorf("table %d group %d: two openings", r.Table, r.Group)
				}
				starts[key] = r.Start
				i := slices.IndexFunc(res.Outcomes, func(o Outcome) bool {
					return o.Table == r.Table && o.Group == r.Group && o.Seating == r.Seating
				})
				if i < 0 {
					t.Fatalf("record %d/%d/%d has no outcome", r.Table, r.Group, r.Seating)
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
	if _, err := Run(context.Background(), Config{Game: trichess.Game, Players: load(t, trichess.Game, "greedy", "random", "random"), Groups: 1, OpeningPlies: 2, Seed: 5, Log: &buf}); err != nil {
		t.Fatal(err)
	}
	good := readRecords(t, buf.Bytes())[0]
	tests := []struct {
		name string
		f    func(r *GameLog)
		want string
	}{
		{"titles swapped", func(r *GameLog) { r.Titles = []string{"seigneur", "seigneur", "seigneur"} }, "recorded titles"},
		{"ending", func(r *GameLog) { r.Ending = "stalemate" }, "recorded ending"},
		{"a player twice", func(r *GameLog) { r.Seats = []int{0, 0, 1} }, "sits twice"},
		{"two seats", func(r *GameLog) { r.Seats = []int{0, 1} }, "2 seats recorded"},
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

func TestRunCancelledThreeSeats(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, Config{Game: trichess.Game, Players: load(t, trichess.Game, "random", "random", "random"), Groups: 3})
	if err == nil || res == nil || len(res.Outcomes) == 18 {
		t.Errorf("cancelled run: %v, %+v", err, res)
	}
}

// TestSeedsPlayTheGamesTheyPlayed plays one group with seed 1 and checks
// a game against the log written by the arena of the version before games
// of two and of more seats shared one runner (trench arena --games 8
// --seed 1 greedy random, and --game trichess --games 6 --seed 1 greedy
// random random): a seed printed by an earlier run must still play its
// games.
func TestSeedsPlayTheGamesTheyPlayed(t *testing.T) {
	for _, tc := range []struct {
		file   string
		game   engine.Game
		specs  []string
		groups int
	}{
		{"testdata/seed1-trench.jsonl", trench.Game, []string{"greedy", "random"}, 4},
		{"testdata/seed1-trichess.jsonl", trichess.Game, []string{"greedy", "random", "random"}, 1},
	} {
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		want := readRecords(t, data)[0]
		// The earlier log, without seats for two, still replays.
		if n, err := Replay(bytes.NewReader(data), tc.file); n != 1 || err != nil {
			t.Errorf("%s: replayed %d games, %v", tc.file, n, err)
		}
		var buf bytes.Buffer
		if _, err := Run(context.Background(), Config{Game: tc.game, Players: load(t, tc.game, tc.specs...), Groups: tc.groups, OpeningPlies: 8, Seed: 1, Log: &buf}); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(readRecords(t, buf.Bytes()), func(g GameLog) bool {
			return g.Table == want.Table && g.Group == want.Group && g.Seating == want.Seating
		})
		if i < 0 {
			t.Fatalf("%s: no game %d/%d/%d played", tc.file, want.Table, want.Group, want.Seating)
		}
		got := readRecords(t, buf.Bytes())[i]
		if got.Start != want.Start || !slices.Equal(got.Moves, want.Moves) || !slices.Equal(got.Players, want.Players) {
			t.Errorf("%s: seed 1 played from %s: %v by %v\nwant from %s: %v by %v", tc.file, got.Start, got.Moves, got.Players, want.Start, want.Moves, want.Players)
		}
		if want.Seats != nil && !slices.Equal(got.Seats, want.Seats) {
			t.Errorf("%s: seats %v, want %v", tc.file, got.Seats, want.Seats)
		}
	}
}
