package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine/trench"
	"trench/games"
	"trench/nn"
	"trench/training/rundir"
)

func tinyConfig(t *testing.T) Config {
	t.Helper()
	c, err := Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTinyRun trains the tiny preset from scratch and checks what the run
// directory holds; a rerun with more steps resumes it.
func TestTinyRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Steps = 20
	c, err := Prepare(dir, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	opt := Options{Progress: &progress, Warnings: io.Discard, StatusEvery: time.Nanosecond}
	if err := Run(context.Background(), dir, c, opt); err != nil {
		t.Fatal(err)
	}
	paths, err := checkpoints.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Step 0 (the random net), 10 and 20.
	if len(paths) != 3 {
		t.Fatalf("checkpoints %v, want 3", paths)
	}
	for _, p := range paths {
		if _, err := checkpoints.Load(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	last, _ := checkpoints.Load(paths[2])
	if last.Step != 20 || last.Parent != filepath.Base(paths[1]) || last.Positions == 0 || last.Games == 0 {
		t.Errorf("last checkpoint: step %d, parent %q, %d positions, %d games", last.Step, last.Parent, last.Positions, last.Games)
	}
	m, skipped, err := ReadMetrics(dir)
	if err != nil || skipped != 0 || len(m) != 2 {
		t.Fatalf("metrics: %d lines, %d skipped, %v", len(m), skipped, err)
	}
	if m[1].Step != 20 || m[1].LossTotal <= 0 || m[1].Checkpoint != filepath.Base(paths[2]) || m[1].PolicyEntropy <= 0 {
		t.Errorf("metrics line %+v", m[1])
	}
	// Self-play kept writing while the net trained: some period measured
	// the net on positions as they arrived, and the progress shows it.
	if fresh := m[0].FreshPositions + m[1].FreshPositions; fresh == 0 || !strings.Contains(progress.String(), "new positions (") {
		t.Errorf("no fresh losses measured: %+v, %+v", m[0], m[1])
	}
	for _, l := range m {
		if l.FreshPositions > 0 && !(l.FreshLossValue > 0 && l.AidsLossValue > 0 && l.FreshLossPolicy > 0) {
			t.Errorf("fresh losses of step %d: %+v", l.Step, l)
		}
	}
	// The tiny preset rates every second checkpoint: step 20 met step 0
	// and the random baseline.
	if a := m[1].Arena; a == nil || a.VsPrevious == nil || a.VsPrevious.Opponent == "" || len(a.VsBaselines) != 1 || m[1].Elo == nil {
		t.Errorf("step 20 has no arena result: %+v, Elo %v", a, m[1].Elo)
	} else if got := a.VsBaselines[0]; got.Opponent != "random" || got.Wins+got.Draws+got.Losses != c.EvalGames {
		t.Errorf("vs random: %+v, want %d games", got, c.EvalGames)
	}
	if m[0].Arena != nil {
		t.Errorf("step 10 was rated: %+v", m[0].Arena)
	}
	if !strings.Contains(progress.String(), " · moves played ") {
		t.Errorf("progress output lacks the plain status lines: %q", progress.String())
	}
	if !strings.Contains(progress.String(), "step 20") || !strings.Contains(progress.String(), "arena: vs ") {
		t.Errorf("progress output lacks the checkpoint summary: %q", progress.String())
	}
	names, _ := datasets.ShardNames(filepath.Join(dir, "datasets"))
	if len(names) == 0 {
		t.Fatal("no shards written")
	}
	for _, n := range names {
		if _, err := datasets.ReadShard(filepath.Join(dir, "datasets", n), trench.Game); err != nil {
			t.Error(err)
		}
	}

	// A crash between the checkpoint of step 20 and its metrics line,
	// in the middle of writing the line: resuming writes the line and
	// plays the match again, and warns of the torn line.
	path := filepath.Join(dir, rundir.MetricsFile)
	data, _ := os.ReadFile(path)
	lastLine := strings.LastIndex(strings.TrimSuffix(string(data), "\n"), "\n") + 1
	os.WriteFile(path, data[:lastLine+20], 0o644)
	var warnings strings.Builder
	progress.Reset()
	if err := Run(context.Background(), dir, c, Options{Progress: &progress, Warnings: &warnings}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warnings.String(), "skipped 1 lines") {
		t.Errorf("no warning of the torn line: %q", warnings.String())
	}
	m, skipped, err = ReadMetrics(dir)
	if err != nil || skipped != 1 || len(m) != 2 {
		t.Fatalf("metrics after the crash: %d lines, %d skipped, %v", len(m), skipped, err)
	}
	if r := m[1]; r.Step != 20 || !r.Recovered || r.Checkpoint != filepath.Base(paths[2]) || r.Arena == nil || r.Elo == nil || r.Positions != int(last.Positions) {
		t.Errorf("recovered line %+v, want step 20's with its match", r)
	}
	if !strings.Contains(progress.String(), "wrote the metrics line of "+filepath.Base(paths[2])) {
		t.Errorf("progress does not tell of the recovered line: %q", progress.String())
	}

	// Resume with more steps: a checkpoint at 30 follows.
	c2 := tinyConfig(t)
	c2.Steps = 30
	c2, err = Prepare(dir, c2, []string{"steps"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, c2, opt); err != nil {
		t.Fatal(err)
	}
	if latest, _ := checkpoints.Latest(dir); filepath.Base(latest) != checkpoints.FileName(30) {
		t.Errorf("latest after resuming is %s", latest)
	}
	if m, _, _ := ReadMetrics(dir); len(m) != 3 || m[2].Step != 30 || m[2].Recovered {
		t.Errorf("metrics after resuming: %+v", m)
	}
}

func TestPrepareConflicts(t *testing.T) {
	dir := t.TempDir()
	c := tinyConfig(t)
	if _, err := Prepare(dir, c, nil); err != nil {
		t.Fatal(err)
	}
	other := c
	other.BatchSize = 64
	if _, err := Prepare(dir, other, []string{"batch-size"}); !errors.Is(err, rundir.ErrConflict) || !strings.Contains(err.Error(), "--batch-size 64") {
		t.Errorf("conflicting batch size: %v", err)
	}
	// A flag not given is taken from the saved config.
	got, err := Prepare(dir, other, nil)
	if err != nil || got.BatchSize != c.BatchSize {
		t.Errorf("resume without flags: batch size %d, %v", got.BatchSize, err)
	}
	quick, _ := Preset("quick")
	if _, err := Prepare(dir, quick, []string{"preset"}); !errors.Is(err, rundir.ErrConflict) {
		t.Errorf("another preset: %v", err)
	}
	bad := c
	bad.LearningRate = -1
	if _, err := Prepare(t.TempDir(), bad, nil); err == nil || !strings.Contains(err.Error(), "--lr") {
		t.Errorf("negative learning rate: %v", err)
	}
	os.WriteFile(filepath.Join(dir, rundir.ConvConfigFile), []byte("{"), 0o644)
	if _, err := Prepare(dir, c, nil); err == nil || !strings.Contains(err.Error(), rundir.ConvConfigFile) {
		t.Errorf("corrupt config: %v", err)
	}
}

// TestPrepareEvalSettings changes the evaluation settings on resume,
// which is allowed, also when the saved ones would be refused today, and
// refuses bad players before anything is written.
func TestPrepareEvalSettings(t *testing.T) {
	dir := t.TempDir()
	c := tinyConfig(t)
	if _, err := Prepare(dir, c, nil); err != nil {
		t.Fatal(err)
	}
	changed := c
	changed.EvalGames, changed.EvalPlayer, changed.EvalBaselines = 4, "mcts:sims=2", "random,greedy"
	got, err := Prepare(dir, changed, []string{"eval-games", "eval-player", "eval-baselines"})
	if err != nil || got.EvalGames != 4 || got.EvalPlayer != "mcts:sims=2" || got.EvalBaselines != "random,greedy" {
		t.Fatalf("changed evaluation settings: %+v, %v", got, err)
	}
	if saved, err := LoadConfig(dir); err != nil || saved.EvalPlayer != "mcts:sims=2" {
		t.Errorf("saved evaluation player %q, %v", saved.EvalPlayer, err)
	}
	// A config saved with a baseline this program refuses is mended by
	// the corrected flag.
	path := filepath.Join(dir, rundir.ConvConfigFile)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"random,greedy"`, `"nosuch"`, 1)), 0o644)
	if _, err := Prepare(dir, changed, nil); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("resuming with a bad saved baseline: %v", err)
	}
	if got, err := Prepare(dir, changed, []string{"eval-baselines"}); err != nil || got.EvalBaselines != "random,greedy" {
		t.Errorf("mending the baseline: %q, %v", got.EvalBaselines, err)
	}
	for _, tc := range []struct{ player, baselines, want string }{
		{"policy", "nosuch", `unknown kind "nosuch"`},
		{"bogus", "random", `--eval-player "bogus"`},
		{"policy", "random,alphabeta:depth=999", "depth"},
		{"mcts:sims=-1", "random", "sims"},
		{"mcts:sims=8,net=x.tnet", "random", "drop net="},
		{"policy:net=x", "random", "drop net="},
		{"bot:kind=alphabeta,eval=hand,level=1", "random", "searched by kind mcts; drop kind="},
		{"policy", "random,bot:kind=alphabeta,eval=hand,sims=3", "sims limits the mcts kind"},
	} {
		bad := tinyConfig(t)
		bad.EvalPlayer, bad.EvalBaselines = tc.player, tc.baselines
		fresh := filepath.Join(t.TempDir(), "run")
		if _, err := Prepare(fresh, bad, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("player %q, baselines %q: %v, want an error containing %q", tc.player, tc.baselines, err, tc.want)
		}
		if _, err := os.Stat(fresh); !os.IsNotExist(err) {
			t.Errorf("player %q, baselines %q: the run directory was made", tc.player, tc.baselines)
		}
	}
}

// TestLoadConfigFillsNewSettings resumes a run whose saved config predates
// a setting: the setting takes the preset's value, the others the file's.
func TestLoadConfigFillsNewSettings(t *testing.T) {
	dir := t.TempDir()
	c := tinyConfig(t)
	c.BatchSize = 48
	if _, err := Prepare(dir, c, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, rundir.ConvConfigFile)
	data, _ := os.ReadFile(path)
	old := strings.Replace(string(data), `"gumbel-c-scale": 1,`, "", 1)
	if old == string(data) {
		t.Fatalf("the saved config has no gumbel-c-scale: %s", data)
	}
	os.WriteFile(path, []byte(old), 0o644)
	got, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	tiny, _ := Preset("tiny")
	if got.GumbelCScale != tiny.GumbelCScale || got.BatchSize != 48 {
		t.Errorf("loaded gumbel-c-scale %v and batch size %d, want the preset's %v and the file's 48", got.GumbelCScale, got.BatchSize, tiny.GumbelCScale)
	}

	// A run of the long preset made before its classical teacher and
	// relabelling phase resumes without them.
	long, _ := Preset("long")
	data, err = json.Marshal(long)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	for name := range offWhenMissing {
		delete(fields, name)
	}
	if data, err = json.Marshal(fields); err != nil {
		t.Fatal(err)
	}
	old2, err := decodeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if old2.ClassicalDepth != 0 || old2.ClassicalEval != "" || old2.ClassicalPolicy || old2.RelabelSteps != 0 || old2.RelabelLR != 0 {
		t.Errorf("an older long run's config: teacher depth %d eval %q policy %v, relabelling %d steps at %v; want none", old2.ClassicalDepth, old2.ClassicalEval, old2.ClassicalPolicy, old2.RelabelSteps, old2.RelabelLR)
	}
	if err := old2.Validate(); err != nil {
		t.Errorf("an older long run's config: %v", err)
	}
	if long.RelabelSteps == 0 {
		t.Fatal("the long preset has no relabelling phase: the check above tests nothing")
	}
}

// TestPolicySurpriseSetting checks that --policy-surprise reaches the
// window, that a run saved before the setting existed resumes without it,
// and that a resumed run refuses to change it, as every setting of what
// is learned.
func TestPolicySurpriseSetting(t *testing.T) {
	for _, name := range Presets {
		if c, _ := Preset(name); c.PolicySurprise != 0 {
			t.Errorf("preset %s: policy surprise %v, want 0", name, c.PolicySurprise)
		}
	}
	dir := t.TempDir()
	c := tinyConfig(t)
	c.PolicySurprise = 0.5
	if w := c.Window(); w.SurpriseWeight != 0.5 || w.Min != c.WindowMin {
		t.Errorf("window %+v, want surprise weight 0.5", w)
	}
	if _, err := Prepare(dir, c, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := Prepare(dir, tinyConfig(t), nil); err != nil || got.PolicySurprise != 0.5 {
		t.Errorf("resume: policy surprise %v, %v; want the saved 0.5", got.PolicySurprise, err)
	}
	other := c
	other.PolicySurprise = 1
	if _, err := Prepare(dir, other, []string{"policy-surprise"}); !errors.Is(err, rundir.ErrConflict) || !strings.Contains(err.Error(), "--policy-surprise 1") {
		t.Errorf("changing the policy surprise on resume: %v, want a conflict", err)
	}
	path := filepath.Join(dir, rundir.ConvConfigFile)
	data, _ := os.ReadFile(path)
	old := strings.Replace(string(data), `"policy-surprise": 0.5,`, "", 1)
	if old == string(data) {
		t.Fatalf("the saved config has no policy-surprise: %s", data)
	}
	os.WriteFile(path, []byte(old), 0o644)
	if got, err := LoadConfig(dir); err != nil || got.PolicySurprise != 0 {
		t.Errorf("a config without the setting: policy surprise %v, %v; want 0", got.PolicySurprise, err)
	}
}

func TestReadMetricsSkipsTornLine(t *testing.T) {
	dir := t.TempDir()
	if err := AppendMetrics(dir, Metrics{Step: 1}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, rundir.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"step": 2, "ga`)
	f.Close()
	m, skipped, err := ReadMetrics(dir)
	if err != nil || len(m) != 1 || skipped != 1 || m[0].Step != 1 {
		t.Errorf("got %d lines, %d skipped, %v", len(m), skipped, err)
	}
	// The next line starts on a line of its own.
	if err := AppendMetrics(dir, Metrics{Step: 3}); err != nil {
		t.Fatal(err)
	}
	m, skipped, err = ReadMetrics(dir)
	if err != nil || len(m) != 2 || skipped != 1 || m[1].Step != 3 {
		t.Errorf("after appending to a torn line: %d lines, %d skipped, %v", len(m), skipped, err)
	}
}

// TestTinyRunThreePlayers trains Trichess briefly: its net must predict
// every seat's outcome, its shards must read back as Trichess games, and
// its arena matches must seat it with copies of each opponent.
func TestTinyRunThreePlayers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Game, c.Steps = "trichess", 20
	c, err := Prepare(dir, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, c, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	g, _ := games.ByName("trichess")
	path, err := checkpoints.Latest(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := nn.LoadWeights(path, g.FeatureShape(), g.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	if seats := w.Config.Seats; seats != 3 {
		t.Errorf("the net predicts %d seats, want 3", seats)
	}
	lines, _, err := ReadMetrics(dir)
	if err != nil || len(lines) == 0 {
		t.Fatalf("metrics: %d lines, %v", len(lines), err)
	}
	last := lines[len(lines)-1]
	if last.Arena == nil || len(last.Arena.VsBaselines) != 1 || last.Arena.VsBaselines[0].Comparisons != 2 || last.Elo == nil {
		t.Errorf("step %d metrics: arena %+v, Elo %v; want a three-seat match against the baseline and an Elo", last.Step, last.Arena, last.Elo)
	}
	names, _ := datasets.ShardNames(filepath.Join(dir, "datasets"))
	for _, n := range names {
		if _, err := datasets.ReadShard(filepath.Join(dir, "datasets", n), g); err != nil {
			t.Error(err)
		}
	}
}

func TestEloStep(t *testing.T) {
	tests := []struct {
		w, d, l int
		want    float64
	}{
		{10, 0, 10, 0},
		{3, 0, 1, 190.85},   // a 75% score
		{1, 0, 3, -190.85},  // a 25% score
		{5, 10, 5, 0},       // draws count half
		{10, 0, 0, 511.50},  // a perfect score counts as 9.5 of 10
		{0, 0, 10, -511.50}, // and a nil one as 0.5
		{0, 0, 0, 0},
	}
	for _, tc := range tests {
		if got := eloStep(tc.w, tc.d, tc.l); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("eloStep(%d, %d, %d) = %.2f, want %.2f", tc.w, tc.d, tc.l, got, tc.want)
		}
	}
}

func TestBaselines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"random", []string{"random"}},
		{"random, greedy", []string{"random", "greedy"}},
		{"random,alphabeta:depth=2,tt=16,greedy", []string{"random", "alphabeta:depth=2,tt=16", "greedy"}},
		{"mcts:net=runs/a,sims=8,algo=puct,alphabeta:time=50ms", []string{"mcts:net=runs/a,sims=8,algo=puct", "alphabeta:time=50ms"}},
	}
	for _, tc := range tests {
		if got := (Config{EvalBaselines: tc.in}).baselines(); !slices.Equal(got, tc.want) {
			t.Errorf("baselines of %q = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestValueTargets checks the win/draw/loss targets made from results
// mixed with search values.
func TestValueTargets(t *testing.T) {
	b := &datasets.Batch{N: 2, Result: []float32{1, -1, -1, 1}, SearchValue: []float32{0.2, -0.2, 0.6, -0.6}, ScoreDiff: []float32{3, -3, -5, 5},
		LogitOffset: []float32{0.5, -0.5, -2, 2}, ScoreOffset: []float32{4, -4, -12, 12}}
	for _, tc := range []struct {
		weight float32
		want   []float32 // seat 0's targets, two positions
	}{
		{0, []float32{1, 0, 0, 0, 0, 1}},
		{1, []float32{0.2, 0.8, 0, 0.6, 0.4, 0}},
		{0.5, []float32{0.6, 0.4, 0, 0, 0.8, 0.2}},
	} {
		var nb nn.Batch
		toNN(b, &nb, 1, nn.ValueBaseNone, tc.weight)
		if nb.ValueOffset != nil || nb.ScoreOffset != nil {
			t.Errorf("weight %v: a net without a value base got offsets %v and %v", tc.weight, nb.ValueOffset, nb.ScoreOffset)
		}
		for i, w := range tc.want {
			if math.Abs(float64(nb.Value[i]-w)) > 1e-6 {
				t.Errorf("weight %v: value targets %v, want %v", tc.weight, nb.Value, tc.want)
				break
			}
		}
		if nb.Score[0] != 3 || nb.Score[1] != -5 {
			t.Errorf("weight %v: score targets %v, want [3 -5]", tc.weight, nb.Score)
		}
	}
	var nb nn.Batch
	toNN(b, &nb, 1, nn.ValueBaseMaterial, 0)
	if !slices.Equal(nb.ValueOffset, []float32{0.5, -2}) || !slices.Equal(nb.ScoreOffset, []float32{4, -12}) {
		t.Errorf("material base: offsets %v and %v, want seat 0's [0.5 -2] and [4 -12]", nb.ValueOffset, nb.ScoreOffset)
	}
}

// TestResumePassesOverDamagedCheckpoint damages a run's newest checkpoint:
// the run resumes from the one before, moves the damaged file aside
// (keeping it) and says so, and trains on to a new checkpoint of its step.
func TestResumePassesOverDamagedCheckpoint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Steps, c.EvalEvery = 10, 0
	c, err := Prepare(dir, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Progress: io.Discard, Warnings: io.Discard}
	if err := Run(context.Background(), dir, c, opt); err != nil {
		t.Fatal(err)
	}
	newest := filepath.Join(dir, checkpoints.Subdir, checkpoints.FileName(10))
	data, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	os.WriteFile(newest, data, 0o644)
	var warnings strings.Builder
	opt.Warnings = &warnings
	if err := Run(context.Background(), dir, c, opt); err != nil {
		t.Fatalf("resuming with a damaged newest checkpoint: %v", err)
	}
	if w := warnings.String(); !strings.Contains(w, newest) || !strings.Contains(w, "moved it to "+newest+".bad") || !strings.Contains(w, "resuming from "+checkpoints.FileName(0)) {
		t.Errorf("warnings %q do not tell of the damaged checkpoint", w)
	}
	if aside, err := os.ReadFile(newest + ".bad"); err != nil || !bytes.Equal(aside, data) {
		t.Errorf("the damaged checkpoint was not kept aside: %v", err)
	}
	if ck, err := checkpoints.Load(newest); err != nil || ck.Step != 10 {
		t.Errorf("the new checkpoint of step 10: %v", err)
	}
}

// FitGame keeps the baselines that can play the game.
func TestFitGameBaselines(t *testing.T) {
	tests := []struct {
		preset, game, want string
	}{
		{"quick", "trench", "random,greedy,mcts:net=none,sims=16,alphabeta:depth=1"},
		{"quick", "trichess", "random,greedy,mcts:net=none,sims=16,alphabeta:depth=1"},
		{"full", "trench", "random,greedy,mcts:net=none,sims=32,alphabeta:depth=2"},
		{"full", "trichess", "random,greedy,mcts:net=none,sims=32,alphabeta:depth=2"},
		{"tiny", "tictactoe", "random"},
	}
	for _, tt := range tests {
		c, err := Preset(tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		c.Game = tt.game
		if err := c.FitGame(); err != nil {
			t.Fatalf("%s %s: %v", tt.preset, tt.game, err)
		}
		if c.EvalBaselines != tt.want {
			t.Errorf("%s %s: baselines %q, want %q", tt.preset, tt.game, c.EvalBaselines, tt.want)
		}
		if tt.game != "tictactoe" {
			c.Net = "tiny"
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s %s: %v", tt.preset, tt.game, err)
		}
	}
	c, _ := Preset("quick")
	c.Game = "nosuch"
	if err := c.FitGame(); err == nil {
		t.Error("an unknown game was fitted")
	}
}

func TestLearningRateSchedule(t *testing.T) {
	c, _ := Preset("quick")
	if c.LRSchedule != "cosine" {
		t.Fatalf("the quick preset's schedule is %q", c.LRSchedule)
	}
	if r := c.TrainConfig().Rate; r.Rate(uint64(c.Steps)) != c.LearningRate/100 {
		t.Errorf("the quick preset's rate at its last step %d: %v, want %v", c.Steps, r.Rate(uint64(c.Steps)), c.LearningRate/100)
	}
	c.LRSchedule = "constant"
	if r := c.TrainConfig().Rate; r.Rate(0) != c.LearningRate || r.Rate(2999) != c.LearningRate {
		t.Errorf("constant schedule: %v at 0, %v at 2999", r.Rate(0), r.Rate(2999))
	}
	c.LRSchedule, c.Steps = "cosine", 3000
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	r := c.TrainConfig().Rate
	for _, tt := range []struct {
		step uint64
		want float64
	}{{0, c.LearningRate / 30}, {30, c.LearningRate}, {3000, c.LearningRate / 100}} {
		if got := r.Rate(tt.step); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("cosine at step %d: %v, want %v", tt.step, got, tt.want)
		}
	}
	for _, tt := range []struct {
		schedule string
		steps    int
		want     string
	}{
		{"cosine", 0, "needs --steps"},
		{"linear", 3000, `--lr-schedule "linear": want constant or cosine`},
	} {
		c.LRSchedule, c.Steps = tt.schedule, tt.steps
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s with %d steps: %v, want %q", tt.schedule, tt.steps, err, tt.want)
		}
	}
}

// TestPolicyBaseSetting checks --policy-base: none in every preset,
// capture accepted for any game, other words refused, the setting fixed
// for the life of a run, and a run with it training nets that carry it and
// move their policy output layer away from zero.
func TestPolicyBaseSetting(t *testing.T) {
	for _, preset := range Presets {
		c, err := Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		if c.PolicyBase != "none" {
			t.Errorf("preset %s: policy base %q, want none", preset, c.PolicyBase)
		}
	}
	for _, tc := range []struct {
		game, base string
		want       string // "" for accepted
	}{
		{"trench", "none", ""},
		{"trench", "capture", ""},
		{"trichess", "capture", ""},
		{"tictactoe", "capture", ""},
		{"trench", "material", `--policy-base "material": want none or capture`},
	} {
		c := tinyConfig(t)
		c.Game, c.PolicyBase = tc.game, tc.base
		if tc.game == "tictactoe" {
			c.EvalEvery, c.ValueBase = 0, "none"
		}
		err := c.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s with --policy-base %s: %v, want %q", tc.game, tc.base, err, tc.want)
		}
	}

	for i, w := range tenStepRun(t, "policy-base", "capture", func(c *Config, base string) { c.PolicyBase = base }) {
		if w.Config.PolicyBase != nn.PolicyBaseCapture {
			t.Errorf("checkpoint %d: policy base %q, want capture", i, w.Config.PolicyBase)
		}
		out := w.Get("policy/fc/w")
		if out == nil {
			out = w.Get("policy/out/conv")
		}
		moved := slices.ContainsFunc(out, func(x float32) bool { return x != 0 })
		if moved != (i == 1) {
			t.Errorf("checkpoint %d: policy output layer nonzero %v, want %v", i, moved, i == 1)
		}
	}
}

// TestValueBaseSetting checks --value-base: material in the quick and
// full presets where the game has material, none otherwise, refused when
// unknown or for a game without material, fixed for a run's life, and a
// run with the material base trains a net that says so.
func TestValueBaseSetting(t *testing.T) {
	for _, tc := range []struct{ preset, game, want string }{
		{"tiny", "trench", "none"},
		{"quick", "trench", "material"},
		{"full", "trench", "material"},
		{"quick", "trichess", "material"},
		{"quick", "tictactoe", "none"},
		{"full", "tictactoe", "none"},
	} {
		c, err := Preset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		c.Game = tc.game
		if err := c.FitGame(); err != nil {
			t.Fatal(err)
		}
		if c.ValueBase != tc.want {
			t.Errorf("preset %s, %s: value base %q, want %q", tc.preset, tc.game, c.ValueBase, tc.want)
		}
	}
	for _, tc := range []struct {
		game, base string
		want       string // "" for accepted
	}{
		{"trench", "none", ""},
		{"trench", "material", ""},
		{"trichess", "material", ""},
		{"tictactoe", "none", ""},
		{"tictactoe", "material", "--value-base material: the pieces of tictactoe have no values"},
		{"trench", "score", `--value-base "score": want none or material`},
	} {
		c := tinyConfig(t)
		c.Game, c.ValueBase = tc.game, tc.base
		if tc.game == "tictactoe" {
			c.EvalEvery = 0
		}
		err := c.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s with --value-base %s: %v, want %q", tc.game, tc.base, err, tc.want)
		}
	}

	for i, w := range tenStepRun(t, "value-base", "material", func(c *Config, base string) { c.ValueBase = base }) {
		if w.Config.ValueBase != nn.ValueBaseMaterial {
			t.Errorf("checkpoint %d: value base %q, want material", i, w.Config.ValueBase)
		}
	}
}

// tenStepRun starts a tiny 10-step run with a setting given by the flag
// flag, set(c, on), checks that the run then refuses set(c, "none"), runs
// it, and returns the nets of its checkpoints at steps 0 and 10.
func tenStepRun(t *testing.T, flag, on string, set func(c *Config, value string)) []*nn.Weights {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	set(&c, on)
	c.Steps, c.EvalEvery = 10, 0
	c, err := Prepare(dir, c, []string{flag})
	if err != nil {
		t.Fatal(err)
	}
	other := c
	set(&other, "none")
	if _, err := Prepare(dir, other, []string{flag}); !errors.Is(err, rundir.ErrConflict) || !strings.Contains(err.Error(), "--"+flag+" none") {
		t.Errorf("changing --%s of a run: %v", flag, err)
	}
	if err := Run(context.Background(), dir, c, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	paths, err := checkpoints.List(dir)
	if err != nil || len(paths) != 2 {
		t.Fatalf("checkpoints %v, %v; want steps 0 and 10", paths, err)
	}
	var nets []*nn.Weights
	for _, p := range paths {
		w, _, err := nn.LoadWeights(p, trench.Game.FeatureShape(), trench.Game.ActionCount())
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, w)
	}
	return nets
}

// TestPolicyKernelSetting checks --policy-kernel: refused unless 1 or 3
// (every game here lays its actions out over the board), and a run with
// it trains a net whose policy output convolution has that size.
func TestPolicyKernelSetting(t *testing.T) {
	for _, tc := range []struct {
		game   string
		kernel int
		want   string // "" for accepted
	}{
		{"trench", 0, ""},
		{"trench", 1, ""},
		{"trench", 3, ""},
		{"trichess", 3, ""},
		{"trench", 2, "--policy-kernel 2: want 1 or 3"},
		{"tictactoe", 1, ""},
	} {
		c := tinyConfig(t)
		c.Game, c.PolicyKernel = tc.game, tc.kernel
		if tc.game == "tictactoe" {
			c.EvalEvery, c.ValueBase = 0, "none"
		}
		err := c.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s with --policy-kernel %d: %v, want %q", tc.game, tc.kernel, err, tc.want)
		}
	}
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.PolicyKernel, c.Steps, c.EvalEvery = 1, 10, 0
	c, err := Prepare(dir, c, []string{"policy-kernel"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, c, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	paths, err := checkpoints.List(dir)
	if err != nil || len(paths) == 0 {
		t.Fatalf("checkpoints %v, %v", paths, err)
	}
	w, _, err := nn.LoadWeights(paths[len(paths)-1], trench.Game.FeatureShape(), trench.Game.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	if w.Config.PolicyKernel != 1 {
		t.Errorf("the net's policy kernel is %d, want 1", w.Config.PolicyKernel)
	}
	if got, want := len(w.Get("policy/out/conv")), w.Config.PolicyPlanes*w.Config.PolicyChannels; got != want {
		t.Errorf("the policy output convolution has %d weights, want %d (1×1)", got, want)
	}
}

// A run started from a checkpoint brought in from another run trains on
// its own positions from that step: its first rated checkpoint meets the
// baselines alone and starts its Elo scale at 0, and the next is rated
// against it; the brought-in steps do not count as trained on the run's
// positions.
func TestRunFromBroughtCheckpoint(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	c := tinyConfig(t)
	c.Steps = 20
	c, err := Prepare(src, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Progress: io.Discard, Warnings: io.Discard}
	if err := Run(context.Background(), src, c, opt); err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	opt.Progress = &progress
	dir := filepath.Join(t.TempDir(), "dst")
	os.MkdirAll(filepath.Join(dir, checkpoints.Subdir), 0o755)
	data, err := os.ReadFile(filepath.Join(src, checkpoints.Subdir, checkpoints.FileName(20)))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, checkpoints.Subdir, checkpoints.FileName(20)), data, 0o644)
	c.Steps = 40
	if c, err = Prepare(dir, c, nil); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, c, opt); err != nil {
		t.Fatalf("run from a brought-in checkpoint: %v", err)
	}
	if want := "wrote the metrics line of " + checkpoints.FileName(20) + ", which the run starts from"; !strings.Contains(progress.String(), want) {
		t.Errorf("progress %q lacks %q", progress.String(), want)
	}
	m, _, err := ReadMetrics(dir)
	if err != nil || len(m) != 3 {
		t.Fatalf("metrics: %+v, %v; want the lines of steps 20, 30 and 40", m, err)
	}
	if a := m[0].Arena; m[0].Step != 20 || a == nil || a.VsPrevious != nil || len(a.VsBaselines) == 0 || m[0].Elo == nil || *m[0].Elo != 0 {
		t.Errorf("brought-in step 20: %+v, arena %+v; want the baselines alone and Elo 0", m[0], a)
	}
	if a := m[2].Arena; m[2].Step != 40 || a == nil || a.VsPrevious == nil || a.VsPrevious.Opponent == "" || m[2].Elo == nil {
		t.Errorf("step 40: %+v, arena %+v; want a match against step 20", m[2], a)
	}
	if want := int64(20 * c.BatchSize); m[2].Samples != want {
		t.Errorf("step 40 trained %d samples on the run's positions, want %d", m[2].Samples, want)
	}
}

// TestFinalMatch ends a run that trained its steps with the match of
// its newest checkpoint against the same search without a net, printed;
// an eval player that is no tree search is refused when the match is
// asked for.
func TestFinalMatch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Steps, c.EvalPlayer, c.FinalGames = 10, "mcts:sims=2", 4
	c, err := Prepare(dir, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Run(context.Background(), dir, c, Options{Progress: &out, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"the net against the search without it: ckpt-000010.tnet as mcts:sims=2 against mcts:sims=2,net=none, 4 games", "in 4 comparisons, score"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	c.EvalPlayer = "policy"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--final-games") {
		t.Errorf("final games with a policy player: %v", err)
	}
	if q, err := Preset("quick"); err != nil || q.FinalGames == 0 || q.Validate() != nil {
		t.Errorf("the quick preset: final games %d, %v", q.FinalGames, err)
	}
}
