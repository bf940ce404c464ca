package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nn/nntest"
	"trench/nnue"
	"trench/record"
)

var (
	tinyNetOnce sync.Once
	tinyNetPath string
)

// tinyNetFile writes a tiny random Trench net once per test binary and
// returns its path, so that play tests run fast.
func tinyNetFile(t *testing.T) string {
	t.Helper()
	tinyNetOnce.Do(func() {
		tinyNetPath = nntest.File(t, nntest.Weights(t, nntest.Tiny(t, trench.Game), 7, 7), sharedTestDir, "tiny.tnet")
	})
	if tinyNetPath == "" {
		t.Fatal("the tiny net was not written")
	}
	return tinyNetPath
}

// runCLIInput runs the trench command with input on its stdin.
func runCLIInput(input string, args ...string) (int, string, string) {
	stdin = strings.NewReader(input)
	defer func() { stdin = os.Stdin }()
	return runCLI(args...)
}

var (
	tinyTrichessOnce sync.Once
	tinyTrichessPath string
)

// tinyTrichessNetFile writes a tiny random Trichess net (one value per
// seat, as trench train --game trichess makes) once per test binary.
func tinyTrichessNetFile(t *testing.T) string {
	t.Helper()
	tinyTrichessOnce.Do(func() {
		tinyTrichessPath = nntest.File(t, nntest.Weights(t, nntest.TinyFor(t, trichess.Game), 8, 8), sharedTestDir, "tiny-trichess.tnet")
	})
	if tinyTrichessPath == "" {
		t.Fatal("the tiny Trichess net was not written")
	}
	return tinyTrichessPath
}

func TestPlayFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--side", "green"}, "--side"},
		{[]string{"--color", "sometimes"}, "--color"},
		{[]string{"--level", "9"}, "--level must be in 1..8, got 9"},
		{[]string{"--level", "3", "--sims", "5"}, "not both"},
		{[]string{"--sims", "-4"}, "--sims must be in 0..1048576, got -4"},
		{[]string{"--kind", "mcts", "--net", "/no/such/net.tnet"}, "no/such/net.tnet"},
		{[]string{"--fen", "8/8 b"}, "--fen"},
		{[]string{"--load", "/no/such/game.txt"}, "game.txt"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--kind", "alphabeta", "--sims", "5"}, "--sims limits the mcts kind; the alphabeta kind searches by --nodes"},
		{[]string{"--kind", "alphabeta", "--game", "trichess", "--nnue", "/no/such/trichess.nnue"}, "no/such/trichess.nnue"},
		{[]string{"--kind", "alphabeta", "--nnue", "/no/such/net.nnue"}, "no/such/net.nnue"},
		{[]string{"--kind", "alphabeta", "--eval", "net"}, "--eval must be hand or rules or nnue"},
		{[]string{"--kind", "mcts", "--nodes", "500"}, "--nodes limits the alphabeta kind"},
		{[]string{"--sims", "500"}, "--sims limits the mcts kind"},
	} {
		code, _, errOut := runCLIInput("", append([]string{"play"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("play %v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestPlayTrichessFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, "unknown game"},
		{[]string{"--game", "tictactoe"}, "cannot be played here"},
		{[]string{"--game", "trichess", "--side", "white"}, "--seats"},
		{[]string{"--game", "trichess", "--seats", "green"}, "no seat \"green\""},
		{[]string{"--game", "trichess", "--seats", "red,red"}, "twice"},
		{[]string{"--game", "trichess", "--seats", "red", "--side", "black"}, "not both"},
		{[]string{"--game", "trichess", "--square"}, "--square"},
		{[]string{"--game", "trichess", "--fen", "8/8 w"}, "--fen"},
		{[]string{"--game", "trichess", "--net", tinyNetFile(t)}, "shape mismatch"},
	} {
		code, _, errOut := runCLIInput("", append([]string{"play"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("play %v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	// A Trench game file does not load into Trichess.
	dir := t.TempDir()
	path := filepath.Join(dir, "trench.txt")
	if err := os.WriteFile(path, record.New(trichess.Game.Start()).Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLIInput("", "play", "--load", path, "--net", tinyNetFile(t)); code != 2 || !strings.Contains(errOut, "a trichess game, not trench") {
		t.Errorf("loading a Trichess file into Trench: code %d, %q", code, errOut)
	}
}

// TestPlayProcess plays through the trench binary: a move, the engine's
// reply, a saved game, on the real standard input and output.
func TestPlayProcess(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "game.txt")
	cmd := trenchProcess("play", "--kind", "mcts", "--net", tinyNetFile(t), "--sims", "2", "--threads", "1")
	cmd.Stdin = strings.NewReader("d4d5\nsave " + saved + "\nquit\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, want := range []string{"Trench: you play black; the bot plays white with ", "trench plays ", "saved 2 moves to "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.Parse(data, saved)
	if err != nil || g.Len() != 2 || g.Notation()[0] != "d4d5" {
		t.Errorf("saved game %v, %v", g, err)
	}
}

func TestServeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, "unknown game"},
		{[]string{"--game", "tictactoe"}, "cannot be played here"},
		{[]string{"--trichess-net", "/no/such/tri.tnet"}, "tri.tnet"},
		{[]string{"--trichess-net", tinyNetFile(t)}, "shape mismatch"},
		{[]string{"--net", tinyTrichessNetFile(t)}, "shape mismatch"},
		{[]string{"--threads", "0"}, "--threads must be in 1..256, got 0"},
		{[]string{"--threads", "257"}, "--threads must be in 1..256, got 257"},
		{[]string{"--queue", "0"}, "at least 1"},
		{[]string{"--allow-host", "a/b"}, "not a host name"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--kind", "alphabeta", "--nnue", "/no/such/net.nnue"}, "no/such/net.nnue"},
		{[]string{"--kind", "alphabeta", "--sims", "5"}, "--sims limits the mcts kind"},
	} {
		code, _, errOut := runCLI(append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("serve %v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestPlayAlphaBeta plays against the bot of the alphabeta kind: with a
// tiny NNUE by level (nodes), with the built-in one by time, and with
// the hand-written evaluation after a level command.
func TestPlayAlphaBeta(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tiny.nnue")
	if n, err := nnue.New(16, 3); err != nil || n.Save(file) != nil {
		t.Fatal("cannot save an nnue net")
	}
	for _, tc := range []struct {
		args  []string
		input string
		want  []string
	}{
		{[]string{"--kind", "alphabeta", "--nnue", file, "--level", "1"}, "d4d5\nquit\n",
			[]string{"the bot plays white with alphabeta with nnue " + file, "1000 nodes per move", "trench plays ", " nodes, depth ", "main line: "}},
		{[]string{"--kind", "alphabeta", "--time", "100ms"}, "d4d5\nquit\n",
			[]string{"alphabeta with nnue embedded NNUE", "100ms per move", " nodes, depth "}},
		{[]string{"--kind", "alphabeta", "--eval", "hand", "--level", "1"}, "level 2\nd4d5\nquit\n",
			[]string{"alphabeta with the hand-written evaluation", "level 2: 3000 nodes per move", " nodes, depth "}},
	} {
		code, out, errOut := runCLIInput(tc.input, append([]string{"play"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("play %v: code %d: %s", tc.args, code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("play %v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
		if strings.Contains(out, "No trench net is loaded") {
			t.Errorf("play %v: the alphabeta bot is said to lack a net:\n%s", tc.args, out)
		}
	}
}

// TestPlayNNUEValues checks the value setting on the faces that read
// the bot's flags: play, serve and engine list it, play and engine
// search with it, and a value the settings refuse stops them, naming
// the flag.
func TestPlayNNUEValues(t *testing.T) {
	for _, cmd := range []string{"play", "serve", "engine"} {
		code, out, _ := runCLI(cmd, "--help")
		if code != 0 || !strings.Contains(out, "--value") || !strings.Contains(out, "qnnue") {
			t.Errorf("%s --help: code %d, no --value with qnnue:\n%s", cmd, code, out)
		}
	}
	code, out, errOut := runCLIInput("d4d5\nquit\n", "play", "--kind", "mcts", "--net", "none", "--value", "qnnue", "--sims", "20", "--threads", "2")
	if code != 0 || !strings.Contains(out, "values of nnue") || !strings.Contains(out, "after its quiescence search") || !strings.Contains(out, "trench plays ") {
		t.Errorf("play with the NNUE's values: code %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, errOut = runCLIInput("trench\nposition startpos\ngo sims 20\nquit\n", "engine", "--kind", "mcts", "--value", "nnue")
	if code != 0 || !strings.Contains(out, "values of nnue") || !strings.Contains(out, "bestmove ") {
		t.Errorf("engine with the NNUE's values: code %d, stderr %q:\n%s", code, errOut, out)
	}
	for _, tc := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"play", []string{"--value", "nnue"}, "--value nnue sets the mcts kind's leaf values; the alphabeta kind evaluates with --eval"},
		{"play", []string{"--kind", "mcts", "--value", "deep"}, `--value must be net or nnue or qnnue or hand or qhand, got "deep"`},
		{"play", []string{"--game", "trichess", "--kind", "mcts", "--value", "nnue", "--nnue", "/no/such/trichess.nnue"}, "no/such/trichess.nnue"},
		{"play", []string{"--game", "trichess", "--value", "nnue"}, "--value nnue sets the mcts kind's leaf values; the alphabeta kind evaluates with --eval"},
		{"engine", []string{"--kind", "mcts", "--value", "qnnue", "--nnue", "/no/such/net.nnue"}, "no/such/net.nnue"},
		{"serve", []string{"--addr", "127.0.0.1:0", "--kind", "mcts", "--value", "qnnue", "--nnue", "/no/such/net.nnue"}, "no/such/net.nnue"},
		{"play", []string{"--kind", "mcts", "--value", "hand", "--nnue", "default"}, `nnue "default" is read by the mcts kind's value nnue or qnnue, not by value hand`},
		{"engine", []string{"--eval", "hand", "--nnue", "default"}, `nnue "default" is read by eval nnue, not by eval hand`},
	} {
		code, _, errOut := runCLIInput("", append([]string{tc.cmd}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s %v: code %d, stderr %q, want 2 and %q", tc.cmd, tc.args, code, errOut, tc.want)
		}
	}
}
