package generations

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"trench/nnue"
	nnuedata "trench/nnue/data"
	"trench/training/rundir"
)

// tinyTrichess returns settings that run a Trichess generation in a few
// seconds.
func tinyTrichess(t testing.TB) Config {
	t.Helper()
	c, err := Preset(PresetName, trichessName)
	if err != nil {
		t.Fatal(err)
	}
	c.Generations = 2
	c.Positions, c.SoftNodes, c.HardNodes, c.OpeningDepth, c.ShardGames = 150, 100, 400, 1, 1
	c.Hidden, c.Window, c.Steps, c.BatchSize, c.SaveEvery, c.TrainThreads = 16, 10_000, 20, 64, 5, 1
	c.GateNodes, c.GatePairs, c.AnchorPairs, c.Holdout, c.Seed = 200, 3, 1, 0.1, 3
	return c
}

// A Trichess run plays, trains, gates and rates generation after
// generation as Trench's does: its nets are Trichess nets, its gate a
// lead test over opening groups of three games, its anchors challenges
// with a lead; the run's marker names the game, and rerun with more
// generations it goes on from the saved config.
func TestRunTrichess(t *testing.T) {
	dir := t.TempDir()
	cfg, err := Prepare(dir, tinyTrichess(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Run(context.Background(), dir, cfg, Options{Progress: &out, Warnings: &out}); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	lines, _, err := ReadMetrics(dir)
	if err != nil || len(lines) != 2 {
		t.Fatalf("%d lines, %v; output:\n%s", len(lines), err, out.String())
	}
	for g, m := range lines {
		if m.Gate == nil || m.Gate.Pairs < 1 || m.Gate.Pairs > cfg.GatePairs || m.Arena == nil || len(m.Arena.VsBaselines) != 1 || m.TrainLoss <= 0 {
			t.Fatalf("generation %d: %+v", g, m)
		}
		if a := m.Arena.VsBaselines[0]; a.Lead == nil || a.Lead.N != cfg.AnchorPairs || a.Comparisons != 2 {
			t.Errorf("generation %d: anchor %+v, want a lead over %d groups", g, a, cfg.AnchorPairs)
		}
		if _, err := nnue.Trichess.Load(filepath.Join(dir, netsDir, m.Net)); err != nil {
			t.Errorf("generation %d: %v", g, err)
		}
	}
	for _, want := range []string{"playing 150 positions with rules", "up to 3 opening groups", "alphabeta-hand:nodes=200, 1 opening groups"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if m, err := rundir.Read(dir); err != nil || m.Game != trichessName || m.Kind != rundir.NNUE {
		t.Errorf("marker %+v, %v", m, err)
	}
	saved, err := LoadConfig(dir)
	if err != nil || saved.Game != trichessName {
		t.Fatalf("saved config %+v, %v", saved, err)
	}
	// Resumed with a Trench preset's flags but one generation more: the
	// saved game and settings win.
	more, err := Preset(PresetName, trenchName)
	if err != nil {
		t.Fatal(err)
	}
	more.Generations = 3
	resumed, err := Prepare(dir, more, []string{"generations"})
	if err != nil || resumed.Game != trichessName || resumed.Generations != 3 {
		t.Fatalf("resumed config %+v, %v", resumed, err)
	}
	out.Reset()
	if err := Run(context.Background(), dir, resumed, Options{Progress: &out, Warnings: &out}); err != nil {
		t.Fatal(err)
	}
	if lines, _, _ := ReadMetrics(dir); len(lines) != 3 || !strings.Contains(out.String(), "generation 2:") {
		t.Errorf("%d lines after the resume; output:\n%s", len(lines), out.String())
	}
	// Rated afterwards (Rate): each net in each seat against two copies
	// of the hand-written evaluation, with its lead.
	ratings, err := Rate(context.Background(), dir, RateConfig{Pairs: 1, Nodes: 200, Seed: 9}, Options{Progress: io.Discard})
	if err != nil || len(ratings) != 3 {
		t.Fatalf("%d ratings, %v", len(ratings), err)
	}
	for _, r := range ratings {
		if st := r.Standing; st.Lead == nil || st.Lead.N != 1 || st.Comparisons != 2 || st.Wins+st.Draws+st.Losses != 3*2 {
			t.Errorf("generation %d's rating %+v, want 3 games, each compared with 2 seats, and a lead", r.Generation, st)
		}
	}
}

// Games played beside a Trichess run land as its generation's remote
// Trichess shards, played with the rules' piece points before the run
// has a net and with its newest accepted net after; the trainer counts
// them and trains on them.
func TestSelfPlayTrichess(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyTrichess(t)
	// The remote games' ids are random: with any games held out, both
	// of them would be now and then, leaving nothing to train on.
	cfg.Generations, cfg.Holdout = 1, 0
	if _, err := Prepare(dir, cfg, nil); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	st, err := SelfPlay(context.Background(), dir, 2, &log)
	if err != nil {
		t.Fatal(err)
	}
	if st.Generation != 0 || st.Games != 2 || st.Positions <= 0 || !strings.Contains(log.String(), "the rules' evaluation") {
		t.Errorf("stats %+v, log %q; want 2 games of generation 0 with the rules", st, log.String())
	}
	data := filepath.Join(dir, dataDir)
	if n, err := RemotePositions(data, 0); err != nil || n != st.Positions {
		t.Errorf("remote positions on disk %d, %v; want %d", n, err, st.Positions)
	}
	names, err := nnuedata.ShardNames(data)
	if err != nil || len(names) != 2 { // ShardGames 1
		t.Fatalf("shards %v, %v; want 2", names, err)
	}
	for _, name := range names {
		if _, err := nnuedata.Trichess.ReadShard(filepath.Join(data, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := Run(context.Background(), dir, cfg, Options{Progress: &log, Warnings: &log}); err != nil {
		t.Fatalf("%v; output:\n%s", err, log.String())
	}
	ms, _, err := ReadMetrics(dir)
	if err != nil || len(ms) != 1 || ms[0].RemotePositions != st.Positions {
		t.Fatalf("metrics %+v, %v; want generation 0 with %d remote positions", ms, err, st.Positions)
	}
	for _, name := range names { // the window skips a shard it cannot read, naming it
		if strings.Contains(log.String(), name) {
			t.Errorf("training did not read %s:\n%s", name, log.String())
		}
	}
	log.Reset()
	if st, err = SelfPlay(context.Background(), dir, 1, &log); err != nil || st.Generation != 1 || st.Games != 1 {
		t.Fatalf("after generation 0: %+v, %v; want a game of generation 1", st, err)
	}
	if want := "the rules' evaluation"; ms[0].Gate.Accepted {
		want = filepath.Join(dir, netsDir, ms[0].Net)
		if st.Player != want {
			t.Errorf("played by %q, want the accepted net %s", st.Player, want)
		}
	} else if st.Player != want {
		t.Errorf("played by %q, want %q: no net was accepted", st.Player, want)
	}
	if n, err := RemotePositions(data, 1); err != nil || n != st.Positions {
		t.Errorf("generation 1's remote positions %d, %v; want %d", n, err, st.Positions)
	}
}
