package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/nn/nntest"
)

// TestNetTakenByWhatItHolds checks, on a one-generation NNUE run and a
// conv-net run, that every face that takes a net plays the net it was
// given and names it, or exits 2 with one line that says what it got:
// the engine, the arena's bot, selfplay.
func TestNetTakenByWhatItHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a generation")
	}
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "--run", dir, "--preset", "nnue", "--generations", "1"}, tinyNNUE...)
	if code, _, errOut := runCLI(args...); code != 0 {
		t.Fatalf("train: code %d: %s", code, errOut)
	}
	lines := checkNNUERun(t, dir, false)
	if len(lines) != 1 {
		t.Fatalf("%d metrics lines", len(lines))
	}
	net := filepath.Join(dir, "nets", lines[0].Net)
	conv := t.TempDir()
	nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), conv, 10)

	engine := func(args ...string) (int, string, string) {
		stdin = strings.NewReader("quit\n")
		defer func() { stdin = os.Stdin }()
		return runCLI(append([]string{"engine"}, args...)...)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--net", net}, 0, "info string bot alphabeta with nnue " + net},
		{[]string{"--nnue", net}, 0, "info string bot alphabeta with nnue " + net},
		{[]string{"--net", conv}, 0, "info string bot " + filepath.Join(conv, "checkpoints", "ckpt-000010.tnet")},
		{nil, 0, "info string bot alphabeta with nnue embedded NNUE"},
		{[]string{"--nnue", conv}, 2, "is a conv-net run directory, not an efficiently updatable net"},
		{[]string{"--kind", "mcts", "--net", net}, 2, "which the mcts kind cannot search with"},
		{[]string{"--net", filepath.Join(dir, "nnue.json")}, 2, "neither a conv-net checkpoint"},
	} {
		code, out, errOut := engine(tc.args...)
		got := out
		if tc.code != 0 {
			got = errOut
		}
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("engine %v: code %d, out %q, err %q; want %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
		if tc.code == 0 && !strings.HasPrefix(out, "info string bot ") {
			t.Errorf("engine %v: first line of %q does not name the bot", tc.args, out)
		}
		if tc.code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("engine %v: %q, want one line", tc.args, errOut)
		}
	}
	if code, out, errOut := runCLI("arena", "--games", "2", "--quiet", "--record", filepath.Join(t.TempDir(), "games.jsonl"), "bot:net="+net, "alphabeta:depth=1"); code != 0 {
		t.Errorf("arena with the NNUE file: code %d: %s %s", code, out, errOut)
	}
	if code, out, errOut := runCLI("selfplay", "--run", dir, "--games", "1"); code != 0 || !strings.Contains(out, "1 games played") {
		t.Errorf("selfplay: code %d: %s %s", code, out, errOut)
	}
	if code, _, errOut := runCLI("selfplay", "--run", dir, "--games", "1", "--out", t.TempDir()); code != 2 || !strings.Contains(errOut, "takes --run and --games alone, not --out") {
		t.Errorf("selfplay --out on an NNUE run: code %d: %s", code, errOut)
	}
}
