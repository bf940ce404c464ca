package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine/trench"
	"trench/internal/syncbuf"
	"trench/training"
)

// TestMain lets a test run the trench command in a child process: the
// test binary re-executes itself with TRENCH_TEST_MAIN set.
// It also makes the directory that nets shared by several tests live in,
// and removes it when the tests end.
func TestMain(m *testing.M) {
	if os.Getenv("TRENCH_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "trench-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedTestDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedTestDir holds files that several tests share, made once per test
// binary (see TestMain).
var sharedTestDir string

// trenchProcess returns the trench command as a child process.
func trenchProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TRENCH_TEST_MAIN=1")
	return cmd
}

// checkRun checks that every checkpoint and shard of a run loads and that
// no temporary file is left behind.
func checkRun(t *testing.T, dir string) {
	t.Helper()
	paths, err := checkpoints.List(dir)
	if err != nil || len(paths) == 0 {
		t.Fatalf("checkpoints: %v, %v", paths, err)
	}
	for _, p := range paths {
		if _, err := checkpoints.Load(p); err != nil {
			t.Error(err)
		}
	}
	names, err := datasets.ShardNames(filepath.Join(dir, "datasets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := datasets.ReadShard(filepath.Join(dir, "datasets", n), trench.Game); err != nil {
			t.Error(err)
		}
	}
	if _, _, err := training.ReadMetrics(dir); err != nil && !os.IsNotExist(err) {
		t.Error(err)
	}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(info.Name(), ".tmp-") {
			// A kill can leave a temporary file; it must never be taken
			// for data, which the loads above show.
			t.Logf("temporary file left by the kill: %s", path)
		}
		return nil
	})
}

// TestTrainSurvivesSIGKILL kills a tiny training run at a random moment,
// reruns it to the end, and checks the run resumed with every file intact.
func TestTrainSurvivesSIGKILL(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "--run", dir, "--preset", "tiny", "--steps", "40"}
	cmd := trenchProcess(args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	delay := time.Duration(300+rand.IntN(2500)) * time.Millisecond
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	t.Logf("killed after %v", delay)
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err == nil {
		checkRun(t, dir)
	}
	out, err := trenchProcess(args...).CombinedOutput()
	if err != nil {
		t.Fatalf("rerun failed: %v\n%s", err, out)
	}
	checkRun(t, dir)
	latest, err := checkpoints.Latest(dir)
	if err != nil || filepath.Base(latest) != checkpoints.FileName(40) {
		t.Errorf("latest checkpoint after the rerun: %s, %v", latest, err)
	}
}

// TestTrainStopsCleanlyOnInterrupt sends SIGINT to a run that would go on
// for ever and checks it exits 0 having saved a checkpoint past step 0.
func TestTrainStopsCleanlyOnInterrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd := trenchProcess("train", "--run", dir, "--preset", "tiny", "--steps", "0")
	var out strings.Builder
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Generous: under the race detector on a busy machine the first
	// checkpoint takes minutes.
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if p, err := checkpoints.Latest(dir); err == nil && filepath.Base(p) != checkpoints.FileName(0) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait() // out is written until the process has ended
			t.Fatalf("no checkpoint after 5 minutes:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("interrupted run exited with %v:\n%s", err, out.String())
	}
	checkRun(t, dir)
	names, _ := datasets.ShardNames(filepath.Join(dir, "datasets"))
	if len(names) == 0 {
		t.Error("no shard written")
	}
}

func TestTrainCommandErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train"}, "--run DIR is required"},
		{[]string{"train", "--run", dir, "--preset", "huge"}, `unknown preset "huge"`},
		{[]string{"train", "--run", dir, "--game", "go"}, `unknown game "go"`},
		{[]string{"train", "--run", dir, "--lr", "-1"}, "--lr -1 is out of range"},
		{[]string{"train", "--run", dir, "--search", "minimax"}, `search "minimax"`},
		{[]string{"train", "--run", dir, "--capture-prior", "2"}, "--capture-prior 2 is out of range"},
		{[]string{"train", "--run", dir, "--material-value", "-0.5"}, "--material-value -0.5 is out of range"},
		{[]string{"train", "--run", dir, "--search-value", "1.5"}, "--search-value 1.5 is out of range"},
		{[]string{"train", "--run", dir, "--policy-surprise", "-0.1"}, "--policy-surprise -0.1 is out of range"},
		{[]string{"train", "--run", dir, "--policy-surprise", "1.5"}, "--policy-surprise 1.5 is out of range"},
		{[]string{"train", "--run", dir, "--policy-surprise", "NaN"}, "--policy-surprise NaN is out of range"},
		{[]string{"train", "--run", dir, "--policy-surprise", "half"}, `--policy-surprise "half": invalid syntax`},
		{[]string{"train", "--run", dir, "--gumbel-c-scale", "0"}, "--gumbel-c-scale 0 is out of range"},
		{[]string{"train", "--run", dir, "--value-base", "score"}, `--value-base "score": want none or material`},
		{[]string{"train", "--run", dir, "--policy-base", "material"}, `--policy-base "material": want none or capture`},
		{[]string{"train", "--run", dir, "--game", "tictactoe", "--value-base", "material"}, "--value-base material: the pieces of tictactoe have no values"},
		{[]string{"train", "--run", dir, "--quiescence=maybe"}, "quiescence"},
		{[]string{"train", "--run", dir, "--train-threads", "-1"}, "--train-threads must not be negative, got -1"},
		{[]string{"selfplay"}, "give --run DIR"},
		{[]string{"train", "--run", dir, "--eval-baselines", "nosuch"}, `unknown kind "nosuch"`},
		{[]string{"train", "--run", dir, "--eval-player", "bogus"}, `--eval-player "bogus"`},
		{[]string{"train", "--run", dir, "--eval-baselines", "random,alphabeta:depth=999"}, "depth"},
		{[]string{"train", "--run", dir, "--eval-player", "mcts:sims=-1"}, "sims"},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	// Refused settings leave nothing behind.
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("the run directory holds %d files after refused settings (%v)", len(entries), err)
	}
}

// TestTrainPolicySurprise runs the tiny preset with draws weighted by
// policy surprise: it finishes, saves the setting, and its shards hold a
// surprise for every full search and none for the cheap ones. A rerun
// that changes the setting is refused.
func TestTrainPolicySurprise(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errOut := runCLI("train", "--run", dir, "--preset", "tiny", "--policy-surprise", "0.5")
	if code != 0 {
		t.Fatalf("train: code %d: %s", code, errOut)
	}
	checkRun(t, dir)
	if c, err := training.LoadConfig(dir); err != nil || c.PolicySurprise != 0.5 {
		t.Fatalf("saved policy surprise %v, %v; want 0.5", c.PolicySurprise, err)
	}
	surprises := shardSurprises(t, dir)
	slices.Sort(surprises)
	if len(surprises) == 0 || surprises[len(surprises)-1] <= 0 {
		t.Fatalf("surprises %v: want some above 0", surprises)
	}
	sum := 0.0
	for _, s := range surprises {
		sum += s
	}
	t.Logf("%d surprises: mean %.3f, median %.3f, max %.3f nats", len(surprises), sum/float64(len(surprises)), surprises[len(surprises)/2], surprises[len(surprises)-1])
	code, _, errOut = runCLI("train", "--run", dir, "--policy-surprise", "0.7", "--steps", "40")
	if code != 2 || !strings.Contains(errOut, "--policy-surprise 0.7 conflicts") {
		t.Errorf("changed setting on resume: code %d, %q; want a conflict", code, errOut)
	}
}

// shardSurprises reads every shard of the run in dir, checks that each
// full search, and only those, has a surprise, and returns the surprises.
func shardSurprises(t *testing.T, dir string) []float64 {
	t.Helper()
	names, err := datasets.ShardNames(filepath.Join(dir, "datasets"))
	if err != nil || len(names) == 0 {
		t.Fatalf("shards %v, %v", names, err)
	}
	var surprises []float64
	for _, n := range names {
		samples, err := datasets.ReadShard(filepath.Join(dir, "datasets", n), trench.Game)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range samples {
			if r.FullSearch != (r.Surprise != nil) {
				t.Fatalf("%s: position %d: full search %v, surprise %v", n, i, r.FullSearch, r.Surprise)
			}
			if r.Surprise != nil {
				surprises = append(surprises, float64(*r.Surprise))
			}
		}
	}
	return surprises
}

// TestSelfPlayFeedsSeparateTrainer runs the two halves as separate
// commands: self-play writes games, a --no-selfplay trainer trains on them.
func TestSelfPlayFeedsSeparateTrainer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errOut := runCLI("train", "--run", dir, "--preset", "tiny", "--steps", "10", "--min-positions", "100")
	if code != 0 {
		t.Fatalf("initial run: %s", errOut)
	}
	// A newer checkpoint that does not load is passed over with a warning
	// naming it.
	damaged := filepath.Join(dir, checkpoints.Subdir, checkpoints.FileName(11))
	if err := os.WriteFile(damaged, []byte("TRNCHNET"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("selfplay", "--run", dir, "--games", "6", "--workers", "1")
	if code != 0 || out != "6 games written\n" {
		t.Fatalf("selfplay: code %d, %q, %s", code, out, errOut)
	}
	// Not on a terminal: no bar, a last status line.
	if !strings.Contains(errOut, "self-play: games 6 · positions ") || strings.Contains(errOut, "\r") {
		t.Errorf("selfplay's progress: %q", errOut)
	}
	if !strings.Contains(errOut, "warning: passing over "+damaged) {
		t.Errorf("selfplay passed over %s without a warning naming it: %s", damaged, errOut)
	}
	os.Remove(damaged)
	// A shard whose checksums are right but whose position does not
	// parse is skipped with a warning naming it.
	samples := []datasets.Sample{{State: "x" + trench.Game.Start().String()[1:], Result: []float32{1, -1}, Score: []float32{1, 0}, SearchValue: []float32{0, 0}}}
	bad, err := datasets.WriteShard(filepath.Join(dir, "datasets"), trench.Game, samples)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI("train", "--run", dir, "--steps", "20", "--no-selfplay")
	if code != 0 {
		t.Fatalf("--no-selfplay: %s", errOut)
	}
	if !strings.Contains(errOut, "warning: skipping shard: "+bad) {
		t.Errorf("no warning naming the bad shard %s: %s", bad, errOut)
	}
	os.Remove(bad)
	if latest, _ := checkpoints.Latest(dir); filepath.Base(latest) != checkpoints.FileName(20) {
		t.Errorf("latest %s, want step 20", latest)
	}
	// The trainer's threads do not change what is learned: a resume with
	// another count is not refused.
	code, _, errOut = runCLI("train", "--run", dir, "--steps", "25", "--no-selfplay", "--train-threads", "1")
	if code != 0 {
		t.Fatalf("--train-threads 1 on resume: %s", errOut)
	}
	if latest, _ := checkpoints.Latest(dir); filepath.Base(latest) != checkpoints.FileName(25) {
		t.Errorf("latest %s, want step 25", latest)
	}
	checkRun(t, dir)
}

// TestTrainLocksRunDirectory starts a trainer, then a second one on the
// same directory, which must refuse naming the first one's pid; after a
// kill -9 of the first, a third starts at once.
func TestTrainLocksRunDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "--run", dir, "--preset", "tiny", "--steps", "0"}
	holder := trenchProcess(args...)
	var holderOut syncbuf.Buffer
	holder.Stderr = &holderOut
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	waitForOutput(t, &holderOut, "training trench in", 60*time.Second)

	second := trenchProcess(args...)
	// Without the lock the second trainer would run for ever.
	stop := time.AfterFunc(60*time.Second, func() { second.Process.Kill() })
	out, err := second.CombinedOutput()
	stop.Stop()
	want := fmt.Sprintf("run directory %s is in use by another trainer (pid %d)", dir, holder.Process.Pid)
	if err == nil || !strings.Contains(string(out), want) {
		t.Fatalf("second trainer: %v, output ending %q; want a refusal containing %q", err, out[max(0, len(out)-300):], want)
	}

	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	next := trenchProcess(args...)
	var nextOut syncbuf.Buffer
	next.Stderr = &nextOut
	start := time.Now()
	if err := next.Start(); err != nil {
		t.Fatal(err)
	}
	defer next.Process.Kill()
	waitForOutput(t, &nextOut, "training trench in", 30*time.Second)
	t.Logf("the next trainer started %v after the kill", time.Since(start).Round(time.Millisecond))
	next.Process.Signal(os.Interrupt)
	if err := next.Wait(); err != nil {
		t.Fatalf("next trainer: %v\n%s", err, nextOut.String())
	}
	checkRun(t, dir)
}

// waitForOutput waits until out holds want, failing the test after
// timeout.
func waitForOutput(t *testing.T, out *syncbuf.Buffer, want string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q after %v:\n%s", want, timeout, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
