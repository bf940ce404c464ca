package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/searchconfig"
)

func TestThreadsDefaultToCores(t *testing.T) {
	want := fmt.Sprintf("(default %d)", min(runtime.NumCPU(), searchconfig.MaxThreads))
	for _, cmd := range []string{"play", "serve", "engine"} {
		_, out, errOut := runCLI(cmd, "--help")
		found := false
		for _, line := range strings.Split(out+errOut, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "--threads") {
				found = true
				if !strings.Contains(line, want) {
					t.Errorf("%s: %q, want %s", cmd, line, want)
				}
			}
		}
		if !found {
			t.Errorf("%s --help has no --threads line:\n%s%s", cmd, out, errOut)
		}
	}
}

func TestEngineSearchesWithThreads(t *testing.T) {
	net := tinyNetFile(t)
	for _, threads := range []string{"1", "2", "4"} {
		code, out, errOut := runCLIInput("position startpos\ngo sims 200\ngo sims 100\nshow\nquit\n", "engine", "--kind", "mcts", "--net", net, "--threads", threads)
		if code != 0 {
			t.Fatalf("--threads %s: code %d, stderr %q", threads, code, errOut)
		}
		// The second search keeps the first one's tree: 1 + 200 + 100 visits
		// (show waits for it to end; quit would stop it).
		for _, want := range []string{"info sims 200 visits 201 ", "info sims 100 visits 301 ", "bestmove "} {
			if !strings.Contains(out, want) {
				t.Errorf("--threads %s: no %q in\n%s", threads, want, out)
			}
		}
	}
	for _, bad := range []string{"0", "257", "-1"} {
		code, _, errOut := runCLIInput("", "engine", "--kind", "mcts", "--net", net, "--threads", bad)
		if code != 2 || !strings.Contains(errOut, "--threads") {
			t.Errorf("--threads %s: code %d, stderr %q", bad, code, errOut)
		}
	}
}

// A run directory whose newest checkpoint is damaged plays with the
// newest one that loads, and says so on stderr, naming the damaged file:
// through --net and through an arena player's net=.
func TestNetRunDirWarnsOfDamaged(t *testing.T) {
	data, err := os.ReadFile(tinyNetFile(t))
	if err != nil {
		t.Fatal(err)
	}
	run := t.TempDir()
	dir := filepath.Join(run, checkpoints.Subdir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	good, damaged := filepath.Join(dir, checkpoints.FileName(1)), filepath.Join(dir, checkpoints.FileName(2))
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(damaged, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	want := "warning: passing over " + damaged
	for _, args := range [][]string{
		{"engine", "--kind", "mcts", "--net", run},
		{"arena", "--quiet", "--games", "2", "--record", "", "mcts:net=" + run + ",sims=2", "random"},
	} {
		code, out, errOut := runCLIInput("go sims 2\nshow\nquit\n", args...)
		if code != 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, good) {
			t.Errorf("%s: code %d, stdout %q, stderr %q; want a warning naming %s and the one used, %s", args[0], code, out, errOut, damaged, good)
		}
	}
}

func TestGuardFlag(t *testing.T) {
	net := tinyNetFile(t)
	code, out, errOut := runCLIInput("position startpos\ngo sims 50\nquit\n", "engine", "--kind", "mcts", "--net", net, "--guard", "0.2")
	if code != 0 || !strings.Contains(out, "bestmove ") {
		t.Errorf("--guard 0.2: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"engine", "--net", net, "--guard", "0.6"}, "--guard must be in 0..0.5, got 0.6"},
		{[]string{"engine", "--net", net, "--guard", "-1"}, "--guard must be in 0..0.5"},
		{[]string{"engine", "--game", "trichess", "--kind", "mcts", "--guard", "0.1"}, "guard: trichess has 3 players"},
		{[]string{"play", "--game", "trichess", "--kind", "mcts", "--guard", "0.1"}, "guard: trichess has 3 players"},
		{[]string{"serve", "--guard", "0.7"}, "--guard must be in 0..0.5"},
	} {
		code, _, errOut := runCLIInput("", tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
	// Without --guard, Trichess plays without a guard whatever the default.
	code, out, errOut = runCLIInput("position startpos\ngo sims 5\nquit\n", "engine", "--game", "trichess", "--kind", "mcts")
	if code != 0 || !strings.Contains(out, "bestmove ") {
		t.Errorf("trichess: code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// --endgame has alphabeta choose the engine's move once a player has the
// score asked for, and says so; 0 leaves every move to the tree search.
func TestEndgameFlag(t *testing.T) {
	net := tinyNetFile(t)
	const endgame = "position fen 8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38\n"
	for _, tt := range []struct {
		input   string
		args    []string
		chooses bool
	}{
		{endgame + "go sims 50\nquit\n", []string{"--endgame", "20"}, true},
		{endgame + "go time 100\nquit\n", nil, false}, // the default, 0
		{endgame + "go sims 50\nquit\n", []string{"--endgame", "0"}, false},
		{endgame + "go sims 50\nquit\n", []string{"--endgame", "23"}, false},
		{"position startpos\ngo sims 50\nquit\n", []string{"--endgame", "1"}, false},
	} {
		args := append([]string{"engine", "--kind", "mcts", "--net", net}, tt.args...)
		code, out, errOut := runCLIInput(tt.input, args...)
		if code != 0 || !strings.Contains(out, "bestmove ") || strings.Contains(out, "info string alphabeta chose ") != tt.chooses {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want alphabeta to choose: %v", tt.args, code, out, errOut, tt.chooses)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"engine", "--net", net, "--endgame", "-1"}, "--endgame must be in 0..1000, got -1"},
		{[]string{"engine", "--game", "trichess", "--kind", "mcts", "--endgame", "10"}, "endgame: trichess has 3 players"},
		{[]string{"play", "--game", "trichess", "--kind", "mcts", "--endgame", "10"}, "endgame: trichess has 3 players"},
		{[]string{"serve", "--endgame", "-2"}, "--endgame must be in 0..1000"},
	} {
		code, _, errOut := runCLIInput("", tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}
