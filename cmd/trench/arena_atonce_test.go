package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The arena says how many games it plays at once and why, and plays no
// more games with time-limited players than there are cores for their
// threads.
func TestArenaGamesAtOnce(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	count := func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return fmt.Sprintf("%d %ss", n, noun)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--parallel", "16", "alphabeta:time=5ms", "mcts:net=none,time=5ms"},
			fmt.Sprintf("%s (not the 16 asked) at once: time-limited players, 1 thread each, %s", count(cores, "game"), count(cores, "core"))},
		{[]string{"mcts:net=none,time=5ms,threads=2", "greedy"},
			fmt.Sprintf("%s at once: time-limited players, up to 2 threads a player, %s", count(max(1, cores/2), "game"), count(cores, "core"))},
		{[]string{"greedy", "random"},
			fmt.Sprintf("%s at once: one per core, %s", count(cores, "game"), count(cores, "core"))},
		{[]string{"--parallel", "3", "greedy", "mcts:net=default,sims=2"}, "3 games at once: as asked"},
		{[]string{"--game", "trichess", "mcts:net=none,time=2ms", "random", "greedy"},
			fmt.Sprintf("%s at once: time-limited players, 1 thread each, %s", count(cores, "game"), count(cores, "core"))},
	}
	for _, tt := range tests {
		args := append([]string{"arena", "--games", "2", "--seed", "4", "--quiet", "--record", ""}, tt.args...)
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: code %d, stderr %q", tt.args, code, errOut)
		}
		if !strings.Contains(out, tt.want+"\n") {
			t.Errorf("%v: output lacks %q:\n%s", tt.args, tt.want, out)
		}
	}
}
