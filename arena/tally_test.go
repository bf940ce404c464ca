package arena

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/engine/trichess"
)

// record plays cfg with its games logged and returns the result and
// the log.
func record(t *testing.T, cfg Config) (*Result, []byte) {
	t.Helper()
	var buf bytes.Buffer
	cfg.Log = &buf
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res, buf.Bytes()
}

// printed is what Print writes for res, without the first line, the
// games and their time.
func printed(res *Result) string {
	var buf bytes.Buffer
	Print(&buf, res, 0, 0)
	_, rest, _ := strings.Cut(buf.String(), "\n")
	return rest
}

// A tally of a match's log prints what the match printed, for two
// seats, a challenge and a round-robin of four players at three seats.
func TestTallyReproducesTheMatch(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"two seats", Config{Game: trench.Game, Players: load(t, trench.Game, "random", "greedy"), Groups: 4, OpeningPlies: 6, Parallel: 2, Seed: 3}},
		{"challenge", Config{Game: trichess.Game, Players: load(t, trichess.Game, "greedy", "random"), Groups: 4, OpeningPlies: 4, Parallel: 2, Seed: 5, Challenge: true}},
		{"four players at three seats", Config{Game: trichess.Game, Players: load(t, trichess.Game, "random", "greedy", "random", "greedy"), Groups: 1, OpeningPlies: 4, Parallel: 2, Seed: 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, log := record(t, tc.cfg)
			var tally Tally
			n, err := tally.Add(bytes.NewReader(log), "games.jsonl")
			if err != nil || n != len(res.Outcomes) {
				t.Fatalf("Add: %d games, %v; want %d", n, err, len(res.Outcomes))
			}
			got, err := tally.Result()
			if err != nil {
				t.Fatal(err)
			}
			if want := printed(res); printed(got) != want {
				t.Errorf("tally prints\n%s\nthe match printed\n%s", printed(got), want)
			}
		})
	}
}

// Two runs of a challenge pool, each keeping its opening groups, whether
// their logs come as two files or appended in one.
func TestTallyPoolsRuns(t *testing.T) {
	cfg := Config{Game: trichess.Game, Players: load(t, trichess.Game, "greedy", "random"), Groups: 3, OpeningPlies: 4, Parallel: 2, Challenge: true}
	cfg.Seed = 21
	first, log1 := record(t, cfg)
	cfg.Seed = 22
	second, log2 := record(t, cfg)

	var apart, appended Tally
	for i, log := range [][]byte{log1, log2} {
		if _, err := apart.Add(bytes.NewReader(log), "run"+string(rune('1'+i))+".jsonl"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := appended.Add(bytes.NewReader(append(append([]byte{}, log1...), log2...)), "arena.jsonl"); err != nil {
		t.Fatal(err)
	}
	var leads []float64
	for _, r := range []*Result{first, second} {
		_, g := r.Lead(0)
		leads = append(leads, g.Mean*float64(g.N))
	}
	for name, tally := range map[string]*Tally{"two files": &apart, "one file": &appended} {
		res, err := tally.Result()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		perGame, perGroup := res.Lead(0)
		if perGame.N != 18 || perGroup.N != 6 {
			t.Errorf("%s: %d games in %d groups, want 18 in 6", name, perGame.N, perGroup.N)
		}
		if want := (leads[0] + leads[1]) / 6; !near(perGroup.Mean, want, 1e-9) {
			t.Errorf("%s: pooled lead %.4f, the runs' groups give %.4f", name, perGroup.Mean, want)
		}
	}
}

// Logs that are not one match's games are checked but not tallied, and
// the reason names the line; a log with a game the rules refuse adds
// nothing.
func TestTallyRefuses(t *testing.T) {
	_, challenge := record(t, Config{Game: trichess.Game, Players: load(t, trichess.Game, "greedy", "random"), Groups: 1, OpeningPlies: 4, Parallel: 1, Seed: 1, Challenge: true})
	_, pairs := record(t, Config{Game: trench.Game, Players: load(t, trench.Game, "random", "greedy"), Groups: 1, OpeningPlies: 4, Parallel: 1, Seed: 1})
	renamed := bytes.ReplaceAll(challenge, []byte(`"greedy"`), []byte(`"greedy2"`))
	lines := bytes.SplitAfter(challenge, []byte("\n"))
	// With one game at a time the first line is seating 0's.
	rest := bytes.Join(lines[1:], nil)
	unknown := append(bytes.Replace(lines[0], []byte(`"round":0`), []byte(`"round":10`), 1), rest...)
	reseated := append(bytes.Replace(lines[0], []byte(`"round":0`), []byte(`"round":1`), 1), rest...)
	tests := []struct {
		name string
		logs [][]byte
		want string
	}{
		{"no games", [][]byte{nil}, "no games to tally"},
		{"another game", [][]byte{challenge, pairs}, "b.jsonl:1: a game of trench among games of trichess"},
		{"another name", [][]byte{challenge, renamed}, "b.jsonl:1: player 0 is greedy2 here and greedy in the games before"},
		{"a seating the arena has not", [][]byte{unknown}, "seating 10: 2 players make tables 0 to 0, of seatings 0 to 2"},
		{"seats that do not fit the seating", [][]byte{reseated}, "seating 1 seats players [0 1 1], not as the arena seats them"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tally Tally
			for i, log := range tc.logs {
				if _, err := tally.Add(bytes.NewReader(log), string(rune('a'+i))+".jsonl"); err != nil {
					t.Fatalf("Add: %v", err)
				}
			}
			if _, err := tally.Result(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Result: %v, want %q", err, tc.want)
			}
		})
	}

	var tally Tally
	if _, err := tally.Add(bytes.NewReader(challenge), "good.jsonl"); err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(challenge, []byte(`"moves":["`), []byte(`"moves":["Zz9`), 1)
	if _, err := tally.Add(bytes.NewReader(tampered), "bad.jsonl"); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1: move 1") {
		t.Errorf("a tampered log: %v", err)
	}
	res, err := tally.Result()
	if err != nil || len(res.Outcomes) != 3 {
		t.Errorf("after a refused log the tally holds %v, %v; want the good log's 3 games", res, err)
	}
}
