package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"trench/nnue"
	"trench/nnue/data"
	"trench/training/generations"
	"trench/training/rundir"
)

// tinyNNUE are settings of trench train --preset nnue that run a
// generation in seconds.
var tinyNNUE = []string{
	"--positions", "200", "--soft-nodes", "100", "--hard-nodes", "400", "--opening-depth", "1", "--shard-games", "2",
	"--hidden", "16", "--window", "10000", "--steps", "20", "--batch-size", "64", "--save-every", "5", "--train-threads", "1",
	"--gate-nodes", "300", "--gate-pairs", "3", "--anchor-pairs", "2", "--holdout", "0.5", "--seed", "3",
}

// checkNNUERun checks that every shard and net of an NNUE run loads, that
// its metrics lines number the generations in order, and, unless killed
// (a kill can leave one, which a rerun removes), that no temporary file
// is left behind; it returns the lines.
func checkNNUERun(t *testing.T, dir string, killed bool) []generations.Metrics {
	t.Helper()
	if kind, err := rundir.Holds(dir); err != nil || kind != rundir.NNUE {
		return nil // killed before it saved its settings
	}
	names, err := data.ShardNames(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := data.ReadShard(filepath.Join(dir, "data", n)); err != nil {
			t.Error(err)
		}
	}
	lines, skipped, err := generations.ReadMetrics(dir)
	if err != nil && !os.IsNotExist(err) || skipped != 0 {
		t.Fatalf("metrics: %v, %d skipped", err, skipped)
	}
	for i, m := range lines {
		if m.Generation != i {
			t.Errorf("line %d is generation %d", i, m.Generation)
		}
		if _, err := nnue.Load(filepath.Join(dir, "nets", m.Net)); err != nil {
			t.Error(err)
		}
	}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(filepath.Base(path), ".tmp-") {
			if killed {
				t.Logf("temporary file left by the kill: %s", path)
			} else {
				t.Errorf("temporary file left: %s", path)
			}
		}
		return nil
	})
	return lines
}

func TestTrainNNUECommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "--run", dir, "--preset", "nnue", "--generations", "1"}, tinyNNUE...)
	code, _, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("train: code %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "training a trench NNUE") || !strings.Contains(errOut, "generation 0") {
		t.Errorf("output:\n%s", errOut)
	}
	if lines := checkNNUERun(t, dir, false); len(lines) != 1 {
		t.Fatalf("%d metrics lines", len(lines))
	}
	// Resumed by the directory alone, one generation further.
	code, _, errOut = runCLI("train", "--run", dir, "--generations", "2")
	if code != 0 {
		t.Fatalf("resume: code %d: %s", code, errOut)
	}
	if lines := checkNNUERun(t, dir, false); len(lines) != 2 {
		t.Fatalf("%d metrics lines after the resume", len(lines))
	}
	// A changed setting is refused.
	code, _, errOut = runCLI("train", "--run", dir, "--hidden", "32")
	if code != 2 || !strings.Contains(errOut, "--hidden 32 conflicts with the run's saved config") {
		t.Errorf("changed --hidden: code %d, %s", code, errOut)
	}
	// Every generation rated at the run's gate nodes, then resumed with
	// nothing left to play.
	code, out, errOut := runCLI("rate", "--run", dir, "--pairs", "2")
	if code != 0 || !strings.Contains(out, "at nodes=300 a move against alphabeta-hand:nodes=300, 2 pairs a net, random openings, seed 1") ||
		!regexp.MustCompile(`(?m)^ +1 +[0-9.]+ gen-000001\.nnue +\d+-\d+-\d+ `).MatchString(out) || !strings.Contains(errOut, "rating gen-000000.nnue") {
		t.Fatalf("rate: code %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, again, errOut := runCLI("rate", "--run", dir, "--pairs", "2")
	if code != 0 || again != out || strings.Contains(errOut, "rating gen-") {
		t.Errorf("rate again: code %d, stdout:\n%s\nstderr:\n%s", code, again, errOut)
	}
	// Rated from a file of openings: a rating of its own.
	book := filepath.Join(t.TempDir(), "book.txt")
	if code, _, errOut := runCLI("openings", "--out", book, "--count", "2", "--depth", "1"); code != 0 {
		t.Fatalf("openings: code %d, %s", code, errOut)
	}
	code, out, errOut = runCLI("rate", "--run", dir, "--pairs", "2", "--openings", book)
	if code != 0 || !strings.Contains(out, "the openings of "+book) || !strings.Contains(errOut, "rating gen-000000.nnue") {
		t.Fatalf("rate from a book: code %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if code, _, errOut := runCLI("rate", "--run", dir, "--openings", filepath.Join(dir, "missing.txt")); code == 0 || !strings.Contains(errOut, "missing.txt") {
		t.Errorf("a missing book: code %d, stderr %q", code, errOut)
	}
	// The report draws the run, its ratings too.
	code, out, errOut = runCLI("report", "--run", dir)
	if code != 0 || !strings.Contains(out, "elo-hours.png") {
		t.Errorf("report: code %d: %s %s", code, out, errOut)
	}
	if svg, _ := os.ReadFile(filepath.Join(dir, "report", "elo-log-hours.svg")); !strings.Contains(string(svg), "trench rate: the net at nodes=300, 2 pairs") {
		t.Error("the report lacks the ratings' curve")
	}
}

// TestRateCommandErrors checks what trench rate refuses, each with exit
// status 2 and the input named, and a run another process holds.
func TestRateCommandErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := generations.Prepare(dir, mustPreset(t), nil); err != nil {
		t.Fatal(err)
	}
	notRun := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "--run DIR is required"},
		{[]string{"--run", notRun}, "--run " + notRun + " is not a run of trench train --preset nnue"},
		{[]string{"--run", filepath.Join(notRun, "missing")}, "missing"},
		{[]string{"--run", dir, "--pairs", "0"}, "--pairs must be at least 1, got 0"},
		{[]string{"--run", dir, "--nodes", "100", "--ms", "200"}, "give --nodes or --ms, one of them"},
		{[]string{"--run", dir, "--ms", "-5"}, "--ms must be positive, got -5"},
		{[]string{"--run", dir, "--anchor-ms", "-5"}, "--anchor-ms must be positive, got -5"},
		{[]string{"--run", dir, "--ms", "200", "--anchor-nodes", "5"}, "give the anchor's limit as the net's"},
		{[]string{"--run", dir, "--nodes", "lots"}, `--nodes "lots": invalid syntax`},
	} {
		code, _, errOut := runCLI(append([]string{"rate"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("rate %q: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if code, _, errOut := runCLI("rate", "--run", dir); code != 1 || !strings.Contains(errOut, "no generation has finished") {
		t.Errorf("a run with no generation: code %d, stderr %q", code, errOut)
	}
	hold, err := rundir.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Release()
	if code, _, errOut := runCLI("rate", "--run", dir); code == 0 || !strings.Contains(errOut, "in use") {
		t.Errorf("a run in use: code %d, stderr %q", code, errOut)
	}
}

func TestTrainNNUECommandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--preset", "nnue"}, "--run DIR is required"},
		{[]string{"train", "--run", dir, "--preset", "nnue", "--hidden", "4"}, "--hidden 4 is out of range"},
		{[]string{"train", "--run", dir, "--preset", "nnue", "--gate-elo1", "-5"}, "elo1"},
		{[]string{"train", "--run", dir, "--preset", "nnue", "--mcts-anchor", "nosuch"}, "--mcts-anchor"},
		{[]string{"train", "--run", dir, "--preset", "nnue", "--workers", "0"}, "workers"},
		{[]string{"train", "--run", dir, "--preset", "nnue", "--net", "tiny"}, `unknown flag "--net"`},
		{[]string{"train", "--run", dir, "--preset", "nnue", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, errOut := runCLI(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("the run directory holds %d files after refused settings (%v)", len(entries), err)
	}
}

func TestWantsNNUE(t *testing.T) {
	run := t.TempDir()
	if _, err := generations.Prepare(run, mustPreset(t), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--preset", "nnue"}, true},
		{[]string{"--preset=nnue"}, true},
		{[]string{"--preset", "quick"}, false},
		{[]string{"--run", run}, true},
		{[]string{"--run=" + run}, true},
		{[]string{"--run", t.TempDir()}, false},
		{[]string{"--run", run, "--preset", "quick"}, false}, // refused by the AlphaZero loop, naming the run
		{[]string{"--", "--preset", "nnue"}, false},
		{[]string{"--preset"}, false},
	} {
		if got := wantsNNUE(tc.args); got != tc.want {
			t.Errorf("wantsNNUE(%q) = %v", tc.args, got)
		}
	}
}

func mustPreset(t *testing.T) generations.Config {
	t.Helper()
	c, err := generations.Preset(generations.PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTrainNNUESurvivesSIGKILL kills a tiny NNUE run at a random moment,
// reruns it to the end, and checks the run resumed with every file
// intact.
func TestTrainNNUESurvivesSIGKILL(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "--run", dir, "--preset", "nnue", "--generations", "2"}, tinyNNUE...)
	cmd := trenchProcess(args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	delay := time.Duration(200+rand.IntN(2500)) * time.Millisecond
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	t.Logf("killed after %v", delay)
	checkNNUERun(t, dir, true)
	out, err := trenchProcess(args...).CombinedOutput()
	if err != nil {
		t.Fatalf("rerun failed: %v\n%s", err, out)
	}
	if lines := checkNNUERun(t, dir, false); len(lines) != 2 {
		t.Fatalf("%d metrics lines after the rerun:\n%s", len(lines), out)
	}
}

// TestTrainRefusesTheOtherKindOfRun checks that each loop refuses a run
// directory holding the other's run, naming it, and writes nothing
// there.
func TestTrainRefusesTheOtherKindOfRun(t *testing.T) {
	conv := t.TempDir()
	if err := os.Mkdir(filepath.Join(conv, rundir.CheckpointsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	nnueRun := t.TempDir()
	if err := rundir.Mark(nnueRun, rundir.Marker{Kind: rundir.NNUE, Game: rundir.NNUEGame}); err != nil {
		t.Fatal(err)
	}
	corrupt := t.TempDir()
	if err := os.WriteFile(filepath.Join(corrupt, rundir.MarkerFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, preset, says string
	}{
		{conv, "nnue", "holds a conv-net run, not an NNUE run"},
		{nnueRun, "tiny", "holds an NNUE run, not a conv-net run"},
		{corrupt, "tiny", "corrupt run marker"},
	} {
		code, _, errOut := runCLI("train", "--run", tc.dir, "--preset", tc.preset)
		if code == 0 || !strings.Contains(errOut, tc.dir) || !strings.Contains(errOut, tc.says) {
			t.Errorf("train --preset %s --run %s: code %d, %q; want an error saying %q", tc.preset, tc.dir, code, errOut, tc.says)
		}
		for _, f := range []string{rundir.NNUEConfigFile, rundir.ConvConfigFile} {
			if _, err := os.Stat(filepath.Join(tc.dir, f)); err == nil {
				t.Errorf("%s: wrote %s", tc.dir, f)
			}
		}
	}
}

// TestTrainNNUETrichess trains a generation of Trichess's net from the
// command line, plays the net it made, and refuses what Trichess's loop
// does not do, naming the flag.
func TestTrainNNUETrichess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tri")
	args := []string{"train", "--run", dir, "--game", "trichess", "--preset", "nnue", "--generations", "1",
		"--positions", "150", "--soft-nodes", "100", "--hard-nodes", "400", "--opening-depth", "1", "--shard-games", "1",
		"--hidden", "16", "--steps", "20", "--batch-size", "64", "--save-every", "5", "--train-threads", "1",
		"--gate-nodes", "200", "--gate-pairs", "2", "--anchor-pairs", "1", "--holdout", "0.1", "--seed", "3"}
	code, _, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "training a trichess NNUE") || !strings.Contains(errOut, "opening groups") {
		t.Fatalf("train: code %d: %s", code, errOut)
	}
	net := filepath.Join(dir, "nets", "gen-000000.nnue")
	code, out, errOut := runCLI("arena", "--game", "trichess", "--challenge", "--games", "3", "--quiet", "--record", "", "--seed", "1",
		"alphabeta:eval=nnue,net="+dir+",depth=1", "alphabeta:depth=1")
	if code != 0 || !strings.Contains(out, "3 games in") {
		t.Errorf("arena with the net: code %d, out %q, stderr %q", code, out, errOut)
	}
	// The run's net read by its file; the tree search with the net's
	// value of every seat at its leaves.
	code, out, errOut = runCLI("arena", "--game", "trichess", "--challenge", "--games", "3", "--quiet", "--record", "", "--seed", "1",
		"bot:kind=mcts,net=none,value=nnue,nnue="+net+",sims=20", "bot:kind=mcts,net=none,sims=20")
	if code != 0 || !strings.Contains(out, "3 games in") {
		t.Errorf("the tree with the net's values: code %d, out %q, stderr %q", code, out, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "trichess", "--teacher", "default"}, "--teacher"},
		{[]string{"--game", "trichess", "--gate-anchor-z", "1"}, "--gate-anchor-z"},
		{[]string{"--game", "go"}, `trains trench or trichess, not "go"`},
		{[]string{"--game", "trichess", "--gate-lead1", "-1"}, "--gate-lead1"},
	} {
		a := append([]string{"train", "--run", filepath.Join(t.TempDir(), "r"), "--preset", "nnue"}, tc.args...)
		if code, _, errOut := runCLI(a...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
