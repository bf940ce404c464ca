package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/players"
)

func load(t testing.TB, g engine.Game, specs ...string) []*players.Maker {
	t.Helper()
	l := players.NewLoader(g)
	t.Cleanup(l.Close)
	var out []*players.Maker
	for _, s := range specs {
		m, err := l.Load(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func readRecords(t *testing.T, data []byte) []GameLog {
	t.Helper()
	var out []GameLog
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r GameLog
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// Each pair plays one opening twice with the colours swapped, and every
// recorded game replays to its result.
func TestPairsSwapColours(t *testing.T) {
	var buf bytes.Buffer
	cfg := Config{
		Game: trench.Game, Players: load(t, trench.Game, "random", "greedy"),
		Groups: 6, OpeningPlies: 6, Parallel: 2, Seed: 7, Log: &buf,
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Meetings[0]
	if len(res.Outcomes) != 12 || m.Games() != 12 || sum(m.PairScores) != 6 {
		t.Fatalf("games %d, meeting %+v", len(res.Outcomes), m)
	}
	recs := readRecords(t, buf.Bytes())
	if len(recs) != 12 {
		t.Fatalf("%d records", len(recs))
	}
	byPair := map[int][]GameLog{}
	starts := map[string]bool{}
	for _, r := range recs {
		byPair[r.Group] = append(byPair[r.Group], r)
		if err := r.Check(); err != nil {
			t.Errorf("pair %d round %d: %v", r.Group, r.Seating, err)
		}
	}
	wins := 0
	for p, rs := range byPair {
		if len(rs) != 2 {
			t.Fatalf("pair %d has %d games", p, len(rs))
		}
		a, b := rs[0], rs[1]
		if a.Start != b.Start {
			t.Errorf("pair %d: openings %q and %q differ", p, a.Start, b.Start)
		}
		starts[a.Start] = true
		if a.Players[0] != b.Players[1] || a.Players[1] != b.Players[0] || a.Players[0] == a.Players[1] {
			t.Errorf("pair %d: seats %v then %v, not swapped", p, a.Players, b.Players)
		}
		for _, r := range rs {
			seat := 0
			if r.Players[1] == "random" {
				seat = 1
			}
			if r.Result[seat] > 0 {
				wins++
			}
		}
	}
	if len(starts) < 2 {
		t.Errorf("all pairs share one opening")
	}
	if wins != m.Wins {
		t.Errorf("records give random %d wins, the tally %d", wins, m.Wins)
	}
	var total float64
	for _, r := range recs {
		total += float64(r.Scores[0] + r.Scores[1])
	}
	if total != m.PointsA+m.PointsB {
		t.Errorf("records capture %g points, the tally %g", total, m.PointsA+m.PointsB)
	}
	n, err := Replay(bytes.NewReader(buf.Bytes()), "games.jsonl")
	if err != nil || n != 12 {
		t.Errorf("Replay: %d games, %v", n, err)
	}
}

func TestReplayCatchesTampering(t *testing.T) {
	var buf bytes.Buffer
	_, err := Run(context.Background(), Config{Game: trench.Game, Players: load(t, trench.Game, "greedy", "random"), Groups: 1, OpeningPlies: 2, Seed: 3, Log: &buf})
	if err != nil {
		t.Fatal(err)
	}
	good := readRecords(t, buf.Bytes())[0]
	tamper := func(f func(r *GameLog)) string {
		r := good
		r.Moves = append([]string(nil), good.Moves...)
		r.Result = append([]float32(nil), good.Result...)
		r.Scores = append([]float32(nil), good.Scores...)
		f(&r)
		line, _ := json.Marshal(r)
		return string(line)
	}
	tests := []struct{ name, line, want string }{
		{"not json", "{nope", "f.jsonl:2: not a game log line"},
		{"illegal move", tamper(func(r *GameLog) { r.Moves[0] = "a1h8" }), "move 1, a1h8"},
		{"cut short", tamper(func(r *GameLog) { r.Moves = r.Moves[:len(r.Moves)-1] }), "not over"},
		{"extra move", tamper(func(r *GameLog) { r.Moves = append(r.Moves, "d4e4") }), "already over"},
		{"wrong result", tamper(func(r *GameLog) { r.Result[0], r.Result[1] = r.Result[1], r.Result[0]+0.5 }), "recorded result"},
		{"wrong scores", tamper(func(r *GameLog) { r.Scores[0]++ }), "recorded scores"},
		{"unknown game", tamper(func(r *GameLog) { r.Game = "go" }), "go"},
		{"bad start", tamper(func(r *GameLog) { r.Start = "8/8 b" }), "start position"},
	}
	first, _ := json.Marshal(good)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Replay(strings.NewReader(string(first)+"\n"+tt.line+"\n"), "f.jsonl")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "f.jsonl:2") {
				t.Errorf("error %v, want one naming f.jsonl:2 and %q", err, tt.want)
			}
		})
	}
}

func TestReadOpenings(t *testing.T) {
	good := "# openings\n\n" + trench.StartFEN + "\n  4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 0 0 0 1  \n"
	os, err := ReadOpenings(strings.NewReader(good), "o.txt", trench.Game)
	if err != nil || len(os) != 2 || os[1].ToMove() != 1 {
		t.Fatalf("good file: %d openings, %v", len(os), err)
	}
	for _, tt := range []struct{ text, want string }{
		{trench.StartFEN + "\nnot a position\n", "o.txt:2"},
		{"# only a comment\n", "no positions"},
		{"7g/8/8/8/8/8/8/G7 b 25 0 0 1\n", "o.txt:1: \"7g/8/8/8/8/8/8/G7 b 25 0 0 1\" is a finished game"},
	} {
		if _, err := ReadOpenings(strings.NewReader(tt.text), "o.txt", trench.Game); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.want)
		}
	}
}

func TestReadOpeningsFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(good, []byte(trench.StartFEN+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not a position\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadOpeningsFile(good, trench.Game); err != nil || len(got) != 1 {
		t.Errorf("ReadOpeningsFile(good) = %d openings, %v", len(got), err)
	}
	for _, tc := range []struct{ path, want string }{
		{bad, bad + ":1"},
		{filepath.Join(dir, "missing.txt"), "missing.txt"},
	} {
		if _, err := ReadOpeningsFile(tc.path, trench.Game); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadOpeningsFile(%s): %v, want an error naming %q", tc.path, err, tc.want)
		}
	}
}

// Openings from a file are used in turn, each by one pair.
func TestRunFromOpenings(t *testing.T) {
	open, err := ReadOpenings(strings.NewReader(trench.StartFEN+"\n4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 0 0 0 1\n"), "o", trench.Game)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := Run(context.Background(), Config{Game: trench.Game, Players: load(t, trench.Game, "random", "random"), Groups: 4, Openings: open, Log: &buf}); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range readRecords(t, buf.Bytes()) {
		count[r.Start]++
	}
	if len(count) != 2 || count[trench.StartFEN] != 4 {
		t.Errorf("openings used: %v", count)
	}
}

func TestConfigErrors(t *testing.T) {
	two := load(t, trench.Game, "random", "greedy")
	three := load(t, trichess.Game, "random", "random", "greedy")
	over := trichess.Game.Start()
	for !over.Over() {
		over.Play(over.LegalActions(nil)[0])
	}
	many := make([]*players.Maker, 33)
	for i := range many {
		many[i] = two[i%2]
	}
	sprt := &SPRT{0, 10, .05, .05}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no game", Config{Players: three, Groups: 1}, "no game"},
		{"one player", Config{Game: trench.Game, Players: two[:1], Groups: 1}, "trench needs at least 2 players, got 1"},
		{"two players at three seats", Config{Game: trichess.Game, Players: three[:2], Groups: 1}, "at least 3 players, got 2"},
		{"too many players", Config{Game: trench.Game, Players: many, Groups: 1}, "at most 32 players"},
		{"no groups", Config{Game: trench.Game, Players: two}, "at least one opening group"},
		{"negative plies", Config{Game: trichess.Game, Players: three, Groups: 1, OpeningPlies: -1}, "opening plies"},
		{"too many games", Config{Game: trichess.Game, Players: three, Groups: MaxGames}, "games"},
		{"bad sprt", Config{Game: trench.Game, Players: two, Groups: 1, SPRT: &SPRT{10, 0, .05, .05}}, "elo1"},
		{"sprt of three players", Config{Game: trench.Game, Players: append(two, two[0]), Groups: 1, SPRT: sprt}, "SPRT needs exactly two players"},
		{"sprt at three seats", Config{Game: trichess.Game, Players: three, Groups: 1, SPRT: sprt}, "in a game of two"},
		{"wrong game opening", Config{Game: trench.Game, Players: two, Groups: 1, Openings: []engine.State{tictactoe.Game{}.Start()}}, "tictactoe"},
		{"finished opening", Config{Game: trichess.Game, Players: three, Groups: 1, Openings: []engine.State{over}}, "finished game"},
		{"other game's opening", Config{Game: trichess.Game, Players: three, Groups: 1, Openings: []engine.State{trench.Game.Start()}}, "a trench position"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// A clear difference in strength stops the SPRT long before the games
// run out.
func TestSPRTStopsEarly(t *testing.T) {
	cfg := Config{Game: trench.Game, Players: load(t, trench.Game, "greedy", "random"), Groups: 200, OpeningPlies: 4, Seed: 11,
		SPRT: &SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.SPRT.Decision != AcceptH1 || len(res.Outcomes) >= 400 || res.SPRT.LLR < res.SPRT.Upper {
		t.Errorf("SPRT %v after %d games", res.SPRT, len(res.Outcomes))
	}
}

// A round-robin plays every two players, and tic-tac-toe works like any
// two-player game.
func TestRoundRobin(t *testing.T) {
	g := tictactoe.Game{}
	res, err := Run(context.Background(), Config{Game: g, Players: load(t, g, "random", "greedy", "random"), Groups: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Meetings) != 3 || len(res.Outcomes) != 30 {
		t.Fatalf("%d meetings, %d games", len(res.Meetings), len(res.Outcomes))
	}
	for _, m := range res.Meetings {
		if m.Games() != 10 || m.A >= m.B {
			t.Errorf("meeting %+v", m)
		}
	}
	table, err := res.Ratings(0, 0)
	if err != nil || len(table) != 3 || table[0].Elo != 0 {
		t.Errorf("table %+v, %v", table, err)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, Config{Game: trench.Game, Players: load(t, trench.Game, "random", "random"), Groups: 5})
	if err == nil || res == nil || len(res.Outcomes) == 10 {
		t.Errorf("cancelled run: %v, %+v", err, res)
	}
}

func sum(a [5]int) int { return a[0] + a[1] + a[2] + a[3] + a[4] }
