package training

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine/trench"
)

// TestRelabelPhaseSettings checks that --relabel-steps asks for a teacher, a last
// self-play step and a rate, and that its rate follows the self-play
// phase's schedule.
func TestRelabelPhaseSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"negative steps", func(c *Config) { c.RelabelSteps = -1 }, "--relabel-steps -1 is out of range"},
		{"no teacher", func(c *Config) { c.RelabelSteps, c.RelabelLR = 10, 0.01 }, "give --classical-depth and --steps"},
		{"no end to self-play", func(c *Config) { c.RelabelSteps, c.RelabelLR, c.ClassicalDepth, c.Steps = 10, 0.01, 1, 0 }, "give --classical-depth and --steps"},
		{"no rate", func(c *Config) { c.RelabelSteps, c.ClassicalDepth = 10, 1 }, "--relabel-lr 0 is out of range"},
	} {
		c := tinyConfig(t)
		tc.set(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	c := tinyConfig(t)
	c.Steps, c.LRSchedule, c.RelabelSteps, c.RelabelLR, c.ClassicalDepth = 100, "cosine", 50, 0.003, 1
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	rate := c.TrainConfig().Rate
	for _, tc := range []struct {
		step uint64
		want float64
	}{{50, c.LearningRate/100 + (c.LearningRate-c.LearningRate/100)*0.5*(1+math.Cos(math.Pi*49/99))}, {100, 0.003}, {149, 0.003}} {
		if got := rate.Rate(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("rate at step %d: %v, want %v", tc.step, got, tc.want)
		}
	}
	if got := c.LastStep(); got != 150 {
		t.Errorf("last step %d, want 150", got)
	}
}

// A run with --relabel-steps plays without the teacher until --steps, then
// relabels its window's positions with the classical search into the
// relabelled folder and trains on them until --steps + --relabel-steps; a run
// stopped in that phase resumes it, keeping the shards already relabelled.
func TestRelabelPhase(t *testing.T) {
	dir, c := relabelRun(t)
	var progress strings.Builder
	if err := Run(context.Background(), dir, c, Options{Progress: &progress, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "relabelling phase: the window's newest") || !strings.Contains(progress.String(), "then 10 steps on them") {
		t.Errorf("progress says nothing of the relabelling phase:\n%s", progress.String())
	}
	if got := newestStep(t, dir); got != 30 {
		t.Fatalf("newest checkpoint at step %d, want 30", got)
	}

	// Self-play's own positions keep the search's policy targets; the
	// copies in the relabelled folder have the classical move alone.
	played := readShards(t, filepath.Join(dir, "datasets"))
	taught := readShards(t, filepath.Join(dir, RelabelDir))
	spread := false
	for _, ss := range played {
		for _, s := range ss.Samples {
			spread = spread || len(s.Actions) > 1
		}
	}
	if !spread {
		t.Error("every self-play position has a single-move policy target: the teacher labelled them as they were played")
	}
	total := 0
	for _, ss := range played {
		total += len(ss.Samples)
	}
	if n := countSamples(taught); len(taught) == 0 || n < c.Window().Size(total) || n >= total {
		t.Errorf("%d shards with %d positions relabelled, want the window's %d of %d", len(taught), n, c.Window().Size(total), total)
	}
	// The phase's metrics and checkpoints count the run's positions, not
	// the relabelled copy's.
	ms, _, err := ReadMetrics(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := mustList(t, dir)
	last, err := checkpoints.Load(paths[len(paths)-1])
	if err != nil {
		t.Fatal(err)
	}
	if m := ms[len(ms)-1]; m.Step != 30 || m.Positions != total || last.Positions != uint64(total) || m.Games == 0 || m.Games != int(last.Games) {
		t.Errorf("step %d's metrics count %d positions and %d games, its checkpoint %d and %d; want the run's %d positions", m.Step, m.Positions, m.Games, last.Positions, last.Games, total)
	}
	for name, ss := range taught {
		src, ok := played[name]
		if !ok {
			t.Fatalf("relabelled shard %s has no self-play shard of its name", name)
		}
		for i, s := range ss.Samples {
			if !s.FullSearch || len(s.Actions) != 1 || !reflect.DeepEqual(s.Probs, []float32{1}) {
				t.Fatalf("%s position %d: policy target %v %v, want the classical move alone", name, i, s.Actions, s.Probs)
			}
			if s.State != src.Samples[i].State || !reflect.DeepEqual(s.Result, src.Samples[i].Result) {
				t.Fatalf("%s position %d: the copy's position or result differs from self-play's", name, i)
			}
		}
	}

	// Stopped after the first relabelled shard and before the phase's
	// checkpoints: the rerun keeps that shard and trains to step 30.
	for _, p := range mustList(t, dir) {
		if step, _ := checkpoints.StepOf(filepath.Base(p)); step > 20 {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	names, err := datasets.ShardNames(filepath.Join(dir, RelabelDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 2 {
		t.Fatalf("relabelled shards %v: the test needs two", names)
	}
	kept := filepath.Join(dir, RelabelDir, names[len(names)-1])
	before, err := os.Stat(kept)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names[:len(names)-1] {
		if err := os.Remove(filepath.Join(dir, RelabelDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(10 * time.Millisecond)
	progress.Reset()
	if err := Run(context.Background(), dir, c, Options{Progress: &progress, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if got := newestStep(t, dir); got != 30 {
		t.Errorf("resumed: newest checkpoint at step %d, want 30", got)
	}
	if after, err := os.Stat(kept); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("resumed: the shard relabelled before was written again (%v)", err)
	}
	if !strings.Contains(progress.String(), "(1 shards kept from before)") {
		t.Errorf("resumed: progress does not count the kept shard:\n%s", progress.String())
	}
	if again := readShards(t, filepath.Join(dir, RelabelDir)); len(again) != len(taught) {
		t.Errorf("resumed: %d relabelled shards, want %d", len(again), len(taught))
	}
	progress.Reset()
	if err := Run(context.Background(), dir, c, Options{Progress: &progress, Warnings: io.Discard}); err != nil || !strings.Contains(progress.String(), "already trained 30 of 30 steps") {
		t.Errorf("a finished run: %v, %q", err, progress.String())
	}
}

// shardSamples are one shard's positions.
type shardSamples struct{ Samples []datasets.Sample }

// readShards reads every shard of dir by name.
func readShards(t *testing.T, dir string) map[string]shardSamples {
	t.Helper()
	names, err := datasets.ShardNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]shardSamples{}
	for _, name := range names {
		s, err := datasets.ReadShard(filepath.Join(dir, name), trench.Game)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = shardSamples{s}
	}
	return out
}

// countSamples counts the positions of shards.
func countSamples(shards map[string]shardSamples) int {
	n := 0
	for _, s := range shards {
		n += len(s.Samples)
	}
	return n
}

// relabelRun prepares a tiny run in a new directory that trains 20
// steps on its own games, then 10 on them relabelled by alphabeta at
// depth 1, and returns the directory and the run's config.
func relabelRun(t *testing.T) (string, Config) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Steps, c.EvalEvery, c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy, c.RelabelSteps, c.RelabelLR = 20, 0, 1, "rules", true, 10, 0.005
	// A window smaller than the run's positions, so that the relabelled
	// copy holds only some of them; a shard per game, so that the window
	// spans several shards however fast self-play runs beside training.
	c.WindowMin, c.ShardGames = 100, 1
	c, err := Prepare(dir, c, []string{"classical-depth", "classical-eval", "classical-policy", "relabel-steps", "relabel-lr", "window-min", "shard-games"})
	if err != nil {
		t.Fatal(err)
	}
	return dir, c
}

// newestStep is the step of run dir's newest checkpoint.
func newestStep(t *testing.T, dir string) uint64 {
	t.Helper()
	paths := mustList(t, dir)
	if len(paths) == 0 {
		t.Fatalf("no checkpoints in %s", dir)
	}
	step, _ := checkpoints.StepOf(filepath.Base(paths[len(paths)-1]))
	return step
}

// mustList lists run dir's checkpoints.
func mustList(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := checkpoints.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// cancelOn is a progress writer that cancels a run's context once a line
// with want has been written.
type cancelOn struct {
	strings.Builder
	want   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	n, err := w.Builder.Write(p)
	if strings.Contains(w.String(), w.want) {
		w.cancel()
	}
	return n, err
}

// Ctrl-C in the relabelling phase stops the run cleanly, with no error
// and no step of the phase trained; the next start finishes it.
func TestRelabelPhaseStopped(t *testing.T) {
	dir, c := relabelRun(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progress := &cancelOn{want: "relabelling phase: the window's newest", cancel: cancel}
	if err := Run(ctx, dir, c, Options{Progress: progress, Warnings: io.Discard}); err != nil {
		t.Fatalf("stopped in the relabelling phase: %v\n%s", err, progress.String())
	}
	if step := newestStep(t, dir); step != 20 {
		t.Errorf("stopped in the relabelling phase: newest checkpoint at step %d, want 20", step)
	}
	if !strings.Contains(progress.String(), "relabelling phase: stopped after") {
		t.Errorf("progress does not say the phase stopped:\n%s", progress.String())
	}
	if err := Run(context.Background(), dir, c, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if step := newestStep(t, dir); step != 30 {
		t.Errorf("restarted: newest checkpoint at step %d, want 30", step)
	}
}
