package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"trench/nnue"
)

func TestArenaCommand(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "games.jsonl")
	code, out, errOut := runCLI("arena", "--games", "6", "--seed", "5", "--quiet", "--record", rec, "alphabeta:depth=1", "random")
	if code != 0 {
		t.Fatalf("arena: code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"alphabeta:depth=1 vs random: 6 games, 3 pairs", "wins", "points captured per game", "per pair", "games appended to " + rec} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkReplayAndAppend(t, rec, 6)
	// A tampered file fails, naming the line.
	data, _ := os.ReadFile(rec)
	lines := strings.SplitN(string(data), "\n", 3)
	lines[1] = strings.Replace(lines[1], `"moves":["`, `"moves":["h8a1","`, 1)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644)
	if code, _, errOut := runCLI("arena", "--replay", bad); code != 1 || !strings.Contains(errOut, "bad.jsonl:2: move 1, h8a1") {
		t.Errorf("tampered replay: code %d, stderr %q", code, errOut)
	}
}

// checkReplayAndAppend checks that the arena record rec replays its games
// games, and that a second run of two games adds them to those.
func checkReplayAndAppend(t *testing.T, rec string, games int) {
	t.Helper()
	code, out, errOut := runCLI("arena", "--replay", rec)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d games replayed", games)) {
		t.Errorf("replay: code %d, out %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("arena", "--games", "2", "--seed", "6", "--quiet", "--record", rec, "greedy", "random"); code != 0 {
		t.Fatalf("second arena: code %d, stderr %q", code, errOut)
	}
	// The file now holds games of other players: checked, not tallied.
	if code, out, errOut := runCLI("arena", "--replay", rec); code != 0 || !strings.Contains(out, fmt.Sprintf("%d games replayed", games+2)) || !strings.Contains(out, "not tallied: "+rec+":") {
		t.Errorf("replay after a second run: code %d, out %q, stderr %q", code, out, errOut)
	}
}

// Replaying a match's log prints the match's tables; two logs of the
// same challenge pool into one.
func TestArenaReplayTallies(t *testing.T) {
	dir := t.TempDir()
	var tables []string
	var logs []string
	for _, seed := range []string{"3", "4"} {
		rec := filepath.Join(dir, "m"+seed+".jsonl")
		code, out, errOut := runCLI("arena", "--game", "trichess", "--challenge", "--games", "6", "--seed", seed, "--quiet", "--record", rec, "greedy", "random")
		if code != 0 {
			t.Fatalf("arena: code %d, stderr %q", code, errOut)
		}
		_, table, _ := strings.Cut(out, "6 games in ")
		_, table, _ = strings.Cut(table, "\n")
		table, _, _ = strings.Cut(table, "games appended")
		tables = append(tables, table)
		logs = append(logs, rec)
	}
	code, out, errOut := runCLI("arena", "--replay", logs[0])
	if code != 0 || !strings.Contains(out, "6 games replayed: every move legal, every result reproduced\n6 games\n"+tables[0]) {
		t.Errorf("replay of one match: code %d, stderr %q, out\n%s\nwant the match's tables\n%s", code, errOut, out, tables[0])
	}
	code, out, errOut = runCLI("arena", "--replay", logs[0], logs[1], "--anchor", "random")
	for _, want := range []string{"12 games replayed", "\n12 games\n", "lead: points a game above", "random fixed at 0"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("replay of two matches: code %d, stderr %q, output lacks %q:\n%s", code, errOut, want, out)
		}
	}
	if code, _, errOut := runCLI("arena", "--replay", logs[0], "--anchor", "alphabeta"); code != 2 || !strings.Contains(errOut, `--anchor "alphabeta" is none of the logs' players (greedy, random)`) {
		t.Errorf("a bad anchor: code %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI("arena", "--replay", logs[0], filepath.Join(dir, "none.jsonl")); code != 2 || !strings.Contains(errOut, "none.jsonl") {
		t.Errorf("a missing log: code %d, stderr %q", code, errOut)
	}
}

func TestArenaRoundRobinAndSPRT(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("arena", "--games", "4", "--seed", "1", "--quiet", "--record", "", "--anchor", "random", "random", "greedy", "alphabeta:depth=1")
	if code != 0 || !strings.Contains(out, "Elo by maximum likelihood (random fixed at 0;") || strings.Contains(out, "games written") {
		t.Errorf("round-robin: code %d, out %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI("arena", "--games", "400", "--seed", "1", "--quiet", "--record", filepath.Join(dir, "r.jsonl"), "--sprt", "--elo0", "0", "--elo1", "100", "greedy", "random")
	if code != 0 || !strings.Contains(out, "SPRT LLR") || !strings.Contains(out, "H1 accepted") {
		t.Errorf("sprt: code %d, out %q, stderr %q", code, out, errOut)
	}
}

// Bad input is refused before any game is played (no record file).
func TestArenaBadInput(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "never.jsonl")
	openings := filepath.Join(dir, "openings.txt")
	os.WriteFile(openings, []byte("# two good, one bad\n4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1\n\n4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 x 0 0 0 1\n"), 0o644)
	corrupt := filepath.Join(dir, "corrupt.tnet")
	os.WriteFile(corrupt, []byte("TRNCHNET not really"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"stockfish", "random"}, `unknown kind "stockfish"`},
		{[]string{"alphabeta:deep=2", "random"}, `unknown option "deep"`},
		{[]string{"policy:net=" + filepath.Join(dir, "missing.tnet"), "random"}, "missing.tnet"},
		{[]string{"mcts:net=" + corrupt, "random"}, "corrupt.tnet"},
		{[]string{"--openings", openings, "random", "random"}, "openings.txt:4"},
		{[]string{"--openings", filepath.Join(dir, "none.txt"), "random", "random"}, "none.txt"},
		{[]string{"--game", "trichess", "random", "random"}, "trichess needs at least 3 players, got 2"},
		{[]string{"--game", "trichess", "random", "alphabeta:search=best", "greedy"}, `unknown search "best" (known: brs, paranoid, maxn)`},
		{[]string{"--game", "trichess", "random", "stockfish", "greedy"}, `unknown kind "stockfish"`},
		{[]string{"--game", "tictactoe", "random", "policy"}, "no net is built in for this game: tictactoe"},
		{[]string{"--game", "trichess", "--sprt", "random", "random", "greedy"}, "--sprt: trichess has 3 players"},
		{[]string{"--game", "trichess", "--elo1", "5", "random", "random", "greedy"}, "--elo1"},
		{[]string{"--game", "trichess", "--games", "0", "random", "random", "greedy"}, "--games"},
		{[]string{"--game", "trichess", "--anchor", "random#3", "random", "random", "greedy"}, "random#1, random#2, greedy"},
		{[]string{"--game", "trichess", "--openings", openings, "random", "random", "greedy"}, "openings.txt:2"},
		{[]string{"random"}, "needs at least 2 players, got 1"},
		{[]string{"--challenge", "random", "greedy"}, "--challenge needs exactly two players in a game of three or more seats"},
		{[]string{"--game", "trichess", "--challenge", "random", "greedy", "random"}, "--challenge needs exactly two players"},
		{[]string{"--sprt", "random", "greedy", "random"}, "exactly two players"},
		{[]string{"--sprt", "--elo1", "-5", "random", "greedy"}, "elo1"},
		{[]string{"--anchor", "nobody", "random", "greedy"}, "--anchor"},
		{[]string{"--game", "go", "random", "greedy"}, "go"},
		{[]string{"--games", "0", "random", "greedy"}, "--games"},
		{[]string{"--opening-plies", "-1", "random", "greedy"}, "--opening-plies"},
		{[]string{"--parallel", "-2", "random", "greedy"}, "--parallel"},
	}
	for _, tt := range tests {
		args := append([]string{"arena", "--quiet", "--record", rec}, tt.args...)
		code, _, errOut := runCLI(args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", tt.args, code, errOut, tt.want)
		}
		if _, err := os.Stat(rec); err == nil {
			t.Fatalf("%v: a record file was written", tt.args)
		}
	}
	code, out, _ := runCLI("arena", "--help")
	if code != 0 || !strings.Contains(out, "alphabeta[:KEY=VALUE,...]") || !strings.Contains(out, "--sprt") {
		t.Errorf("arena --help: code %d, %q", code, out)
	}
}

func TestArenaNetPlayers(t *testing.T) {
	code, out, errOut := runCLI("arena", "--games", "2", "--seed", "3", "--quiet", "--record", "", "policy", "mcts:net=default,sims=4")
	if code != 0 || !strings.Contains(out, "policy vs mcts:net=default,sims=4: 2 games") || !strings.Contains(out, "net embedded default net") || !strings.Contains(out, "batches (mean") {
		t.Errorf("net players: code %d, out %q, stderr %q", code, out, errOut)
	}
}

func TestArenaThreePlayers(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "tri.jsonl")
	code, out, errOut := runCLI("arena", "--game", "trichess", "--games", "6", "--seed", "2", "--quiet", "--record", rec, "random", "random", "greedy")
	if code != 0 {
		t.Fatalf("arena: code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"trichess: 3 players at 3 seats, 1 table of 6 games (1 opening × 6 seatings)", "6 games in", "endings:",
		"points per game", "random#1", "random#2", "pairwise", "Elo by maximum likelihood", "random#1    +0.0 (anchor)", "games appended to " + rec} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkReplayAndAppend(t, rec, 6)
	// Four players at three seats: every three of them, --games rounded
	// up to whole groups of six; the anchor by label.
	code, out, errOut = runCLI("arena", "--game", "trichess", "--games", "7", "--seed", "2", "--quiet", "--record", "", "--anchor", "random#2", "random", "greedy", "random", "greedy")
	if code != 0 || !strings.Contains(out, "4 players at 3 seats, 4 tables of 12 games (2 openings × 6 seatings)") || !strings.Contains(out, "48 games in") || !strings.Contains(out, "random#2 fixed at 0") {
		t.Errorf("four players: code %d, out %q, stderr %q", code, out, errOut)
	}
	// A challenge: greedy in each seat in turn against two copies of
	// random, three games an opening.
	code, out, errOut = runCLI("arena", "--game", "trichess", "--challenge", "--games", "5", "--seed", "2", "--quiet", "--record", rec, "greedy", "random")
	if code != 0 || !strings.Contains(out, "greedy in each of 3 seats in turn against copies of random, 6 games (2 openings × 3 seats)") || !strings.Contains(out, "6 games in") {
		t.Errorf("challenge: code %d, out %q, stderr %q", code, out, errOut)
	}
	checkReplayAndAppend(t, rec, 14)
}

// TestArenaNNUEValues plays short matches of the tree search valuing its
// leaves with the NNUE after quiescence, or with the hand-written
// evaluation (in both games), without a conv net, against the same
// search with material values, and checks that a bad value, or the
// NNUE's values in a game without one, are refused naming the setting.
func TestArenaNNUEValues(t *testing.T) {
	for _, tc := range []struct {
		game, player string
		games        int
	}{
		{"trench", "bot:kind=mcts,net=none,value=qnnue,sims=50", 2},
		{"trench", "bot:kind=mcts,net=none,value=hand,sims=50", 2},
		{"trichess", "bot:kind=mcts,net=none,value=qhand,sims=30", 3},
	} {
		opponent := "bot:kind=mcts,net=none,sims=50"
		args := []string{"arena", "--game", tc.game, "--games", strconv.Itoa(tc.games), "--seed", "7", "--quiet", "--record", "", tc.player, opponent}
		if tc.game == "trichess" {
			args = slices.Insert(args, 3, "--challenge") // the player in each seat against two copies
		}
		code, out, errOut := runCLI(args...)
		if code != 0 || !strings.Contains(out, fmt.Sprintf("%d games", tc.games)) || !strings.Contains(out, tc.player) {
			t.Errorf("%s %s: code %d, out %q, stderr %q", tc.game, tc.player, code, out, errOut)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bot:kind=mcts,net=none,value=deep", "random"}, `player "bot:kind=mcts,net=none,value=deep": value must be net or nnue or qnnue or hand or qhand, got "deep"`},
		{[]string{"bot:kind=alphabeta,value=nnue", "random"}, "value nnue sets the mcts kind's leaf values"},
		{[]string{"--game", "tictactoe", "bot:net=none,value=qnnue", "random"}, "value qnnue: tictactoe has no efficiently updatable net"},
	} {
		args := append([]string{"arena", "--quiet", "--record", ""}, tc.args...)
		if code, _, errOut := runCLI(args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestArenaTrichessNNUE plays a short Trichess match of alphabeta with a
// Trichess NNUE (random weights) against alphabeta with the hand-written
// evaluation, given as the alphabeta player's net and as the bot's, and
// checks that a Trench NNUE is refused in one line naming the file and
// its game.
func TestArenaTrichessNNUE(t *testing.T) {
	dir := t.TempDir()
	tcFile, trenchFile := filepath.Join(dir, "tc.nnue"), filepath.Join(dir, "trench.nnue")
	tc, err := nnue.Trichess.New(32, 1)
	if err != nil {
		t.Fatal(err)
	}
	tn, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	for file, net := range map[string]*nnue.Net{tcFile: tc, trenchFile: tn} {
		if err := net.Save(file); err != nil {
			t.Fatal(err)
		}
	}
	for _, player := range []string{"alphabeta:eval=nnue,net=" + tcFile + ",depth=1", "bot:net=" + tcFile + ",level=1"} {
		code, out, errOut := runCLI("arena", "--game", "trichess", "--games", "3", "--seed", "3", "--quiet", "--record", "",
			player, "alphabeta:depth=1", "alphabeta:depth=1")
		if code != 0 || !strings.Contains(out, "6 games in") || !strings.Contains(out, player) {
			t.Errorf("%s: code %d, out %q, stderr %q", player, code, out, errOut)
		}
	}
	want := trenchFile + ": nnue net of another game: a trench (feature set 1) net, want a trichess (feature set 2) net\n"
	for _, args := range [][]string{
		{"arena", "--game", "trichess", "--quiet", "--record", "", "alphabeta:eval=nnue,net=" + trenchFile, "random", "random"},
		{"arena", "--game", "trichess", "--quiet", "--record", "", "bot:net=" + trenchFile, "random", "random"},
		{"play", "--game", "trichess", "--net", trenchFile},
		{"play", "--game", "trichess", "--nnue", trenchFile},
		{"engine", "--game", "trichess", "--nnue", trenchFile},
	} {
		code, _, errOut := runCLI(args...)
		if code == 0 || !strings.HasSuffix(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d, stderr %q, want one line ending %q", args, code, errOut, want)
		}
	}
}
