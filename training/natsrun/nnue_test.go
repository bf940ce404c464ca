package natsrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trench/engine/trench"
	"trench/internal/syncbuf"
	"trench/nn/nntest"
	"trench/nnue"
	nnuedata "trench/nnue/data"
	"trench/training/generations"
)

// tinyNNUE returns NNUE settings that run a generation in a few seconds.
func tinyNNUE(t testing.TB) generations.Config {
	t.Helper()
	c, err := generations.Preset(generations.PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	c.Generations = 2
	c.Positions, c.Workers, c.SoftNodes, c.HardNodes, c.OpeningDepth, c.ShardGames = 300, 1, 100, 400, 1, 2
	c.Hidden, c.Window, c.Steps, c.BatchSize, c.SaveEvery, c.TrainThreads = 16, 10_000, 20, 64, 5, 1
	c.GateNodes, c.GatePairs, c.AnchorPairs, c.Holdout, c.Seed = 300, 3, 2, 0.5, 3
	return c
}

// tinyTeacher saves a tiny conv net of random weights and returns its
// file.
func tinyTeacher(t testing.TB) string {
	t.Helper()
	return nntest.File(t, nntest.Weights(t, nntest.Tiny(t, trench.Game), 7, 8), t.TempDir(), "teacher.tnet")
}

func TestDecodeGeneration(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		rec string
		ok  bool
	}{
		{`{"generation":0,"player":"rules"}`, true},
		{`{"generation":3,"player":"gen-000002.nnue","sha256":"` + sum + `","size":10}`, true},
		{`{"generation":-1,"player":"rules"}`, false},
		{`{"generation":1,"player":"rules","sha256":"` + sum + `","size":10}`, false},
		{`{"generation":1,"player":"gen-000002.nnue","size":10}`, false},
		{`{"generation":1,"player":"gen-000002.nnue","sha256":"` + sum + `"}`, false},
		{`{"generation":1,"player":"../gen-000002.nnue","sha256":"` + sum + `","size":10}`, false},
		{`{"generation":1,"player":"ckpt-000002.tnet","sha256":"` + sum + `","size":10}`, false},
		{`[]`, false},
	} {
		if _, err := decodeGeneration([]byte(tc.rec)); (err == nil) != tc.ok {
			t.Errorf("decodeGeneration(%s) = %v, want ok %v", tc.rec, err, tc.ok)
		}
	}
}

func FuzzDecodeGeneration(f *testing.F) {
	f.Add([]byte(`{"generation":3,"player":"gen-000002.nnue","sha256":"` + strings.Repeat("0", 64) + `","size":10}`))
	f.Add([]byte(`{"generation":0,"player":"rules"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := decodeGeneration(b)
		if err == nil && (g.Generation < 0 || strings.ContainsAny(g.Player, "/\\") || g.Player != RulesPlayer && g.Size <= 0) {
			t.Errorf("accepted %+v", g)
		}
	})
}

func TestKindsDoNotMix(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	nc := connect(t, s)
	ctx := context.Background()
	meta, err := NNUEMeta(tinyNNUE(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Create(ctx, nc, "nnue", meta)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.SavedConfig(ctx, Meta{}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "nnue run") {
		t.Errorf("an AlphaZero worker joined an NNUE run: %v", err)
	}
	if cfg, err := r.SavedNNUEConfig(ctx); err != nil || cfg.Hidden != 16 {
		t.Errorf("SavedNNUEConfig = %+v, %v", cfg, err)
	}
	if _, err := Create(ctx, nc, "nnue", testMeta()); err == nil {
		t.Error("an AlphaZero run replaced an NNUE run")
	}
	az, err := Create(ctx, nc, "az", testMeta())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := az.SavedNNUEConfig(ctx); !errors.Is(err, ErrRefused) {
		t.Errorf("an NNUE worker joined an AlphaZero run: %v", err)
	}
}

func TestGenerationRecord(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	nc := connect(t, s)
	ctx := context.Background()
	meta, _ := NNUEMeta(tinyNNUE(t))
	r, err := Create(ctx, nc, "gen", meta)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CurrentGeneration(ctx); !errors.Is(err, ErrNoGeneration) {
		t.Errorf("before any: %v", err)
	}
	if err := r.PublishGeneration(ctx, 0, RulesPlayer, nil); err != nil {
		t.Fatal(err)
	}
	g, err := r.CurrentGeneration(ctx)
	if err != nil || g.Generation != 0 || g.Player != RulesPlayer {
		t.Fatalf("generation 0: %+v, %v", g, err)
	}
	if net, err := r.FetchPlayer(ctx, g, nnue.Trench); net != nil || err != nil {
		t.Errorf("the rules' net: %v, %v", net, err)
	}
	net, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := net.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.PublishGeneration(ctx, 4, "gen-000002.nnue", buf); err != nil {
		t.Fatal(err)
	}
	g, err = r.CurrentGeneration(ctx)
	if err != nil || g.Generation != 4 || g.Player != "gen-000002.nnue" {
		t.Fatalf("generation 4: %+v, %v", g, err)
	}
	got, err := r.FetchPlayer(ctx, g, nnue.Trench)
	if err != nil || got.Hidden != 16 {
		t.Fatalf("the player: %v, %v", got, err)
	}
	if _, err := r.FetchPlayer(ctx, g, nnue.Trichess); !errors.Is(err, nnue.ErrGame) {
		t.Errorf("a Trench net as a Trichess run's player: %v, want ErrGame", err)
	}
	g.SHA256 = strings.Repeat("0", 64)
	if _, err := r.FetchPlayer(ctx, g, nnue.Trench); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a wrong checksum: %v", err)
	}
}

// TestNNUERunThroughServer runs the NNUE loop with its games played by
// workers alone through a real server: the first worker is killed in
// the middle of generation 0, a second one finishes the run. Every shard
// the workers published is on the trainer's disk exactly once, and
// generation 0's carry the teacher's labels.
func TestNNUERunThroughServer(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	dir := t.TempDir()
	cfg := tinyNNUE(t)
	cfg.Teacher = tinyTeacher(t)
	cfg.Positions = 3000 // the first worker is killed long before
	cfg, err := generations.Prepare(dir, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var log syncbuf.Buffer
	trainerDone := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	go func() {
		trainerDone <- TrainNNUE(ctx, connect(t, s), "nn", dir, cfg, 0, generations.Options{Progress: &log, Warnings: &log, NoLocal: true})
	}()
	run, err := WaitOpen(ctx, connect(t, s), "nn", func() {})
	if err != nil {
		t.Fatal(err)
	}
	wcfg, err := run.SavedNNUEConfig(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The first worker is killed once some of its shards are in.
	ctx1, kill := context.WithCancel(ctx)
	type result struct {
		published int64
		err       error
	}
	first := make(chan result, 1)
	go func() {
		_, n, err := NNUEWorker{Name: "first", Buffer: 8, Log: &log}.Work(ctx1, run, wcfg)
		first <- result{n, err}
	}()
	for {
		n, err := generations.RemotePositions(filepath.Join(dir, "data"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no shard arrived; log:\n%s", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	kill()
	r1 := <-first
	if r1.err != nil || r1.published == 0 {
		t.Fatalf("the first worker: %d shards, %v", r1.published, r1.err)
	}
	if n, _ := generations.RemotePositions(filepath.Join(dir, "data"), 0); n >= cfg.Positions {
		t.Fatalf("generation 0 was done when the first worker was killed (%d positions)", n)
	}
	ctx2, stop2 := context.WithCancel(ctx)
	second := make(chan result, 1)
	go func() {
		_, n, err := NNUEWorker{Name: "second", Buffer: 8, Workers: 2, Log: &log}.Work(ctx2, run, wcfg)
		second <- result{n, err}
	}()
	if err := <-trainerDone; err != nil {
		t.Fatalf("trainer: %v; log:\n%s", err, log.String())
	}
	stop2()
	r2 := <-second
	if r2.err != nil {
		t.Fatalf("the second worker: %v", r2.err)
	}
	lines, _, err := generations.ReadMetrics(dir)
	if err != nil || len(lines) != 2 {
		t.Fatalf("%d metrics lines, %v; log:\n%s", len(lines), err, log.String())
	}
	for g, m := range lines {
		// Shards that came during training and matches count too.
		if m.NewPositions < cfg.Positions || m.RemotePositions != m.NewPositions {
			t.Errorf("generation %d: %d positions (%d remote), want at least %d, all remote", g, m.NewPositions, m.RemotePositions, cfg.Positions)
		}
	}
	if lines[0].Teacher == "" || lines[1].Teacher != "" {
		t.Errorf("teachers %q, %q", lines[0].Teacher, lines[1].Teacher)
	}
	names, err := nnuedata.ShardNames(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	tch, err := generations.LoadTeacher(cfg.Teacher, cfg.ScoreScale())
	if err != nil {
		t.Fatal(err)
	}
	remote := 0
	for _, name := range names {
		if !strings.Contains(name, "-r-") {
			t.Errorf("%s: the trainer played though it was told not to", name)
			continue
		}
		remote++
		recs, err := nnuedata.ReadShard(filepath.Join(dir, "data", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(name, generations.RemoteShardPrefix(0)) {
			continue
		}
		want := append([]nnuedata.Record(nil), recs...)
		if err := tch.Relabel(want); err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			if recs[i].Score != want[i].Score {
				t.Errorf("%s, record %d: score %d, the teacher's %d", name, i, recs[i].Score, want[i].Score)
			}
		}
	}
	// Every shard on disk is a distinct published one; every shard the
	// killed worker published is there (the second worker's last ones
	// may have come after the trainer stopped).
	published := map[string]string{}
	var fromFirst []string
	st, err := run.js.Stream(ctx, run.Stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		id := m.Header.Get(hdrWorker) + "/" + m.Header.Get(hdrShard)
		published[objectName(id)] = id
		if m.Header.Get(hdrWorker) == "first" {
			fromFirst = append(fromFirst, objectName(id))
		}
	}
	if int64(len(published)) != r1.published+r2.published || int64(len(fromFirst)) != r1.published {
		t.Errorf("%d shards on the stream, %d of them the first worker's; the workers published %d and %d", len(published), len(fromFirst), r1.published, r2.published)
	}
	onDisk := map[string]bool{}
	for _, name := range names {
		parts := strings.Split(strings.TrimSuffix(name, nnuedata.ShardSuffix), "-")
		key := parts[len(parts)-1]
		if _, ok := published[key]; !ok || onDisk[key] {
			t.Errorf("%s: not a published shard, or one already on disk", name)
		}
		onDisk[key] = true
	}
	for _, key := range fromFirst {
		if !onDisk[key] {
			t.Errorf("shard %s of the killed worker is not on disk", published[key])
		}
	}
	if remote != len(names) || remote == 0 {
		t.Errorf("%d shards on disk, %d of them remote", len(names), remote)
	}
	if _, err := os.Stat(filepath.Join(dir, "nets", lines[1].Net)); err != nil {
		t.Error(err)
	}
}

// tinyTrichessNNUE returns Trichess NNUE settings that run a generation
// in a few seconds.
func tinyTrichessNNUE(t testing.TB) generations.Config {
	t.Helper()
	c, err := generations.Preset(generations.PresetName, "trichess")
	if err != nil {
		t.Fatal(err)
	}
	c.Generations = 2
	c.Positions, c.Workers, c.SoftNodes, c.HardNodes, c.OpeningDepth, c.ShardGames = 150, 1, 100, 400, 1, 1
	c.Hidden, c.Window, c.Steps, c.BatchSize, c.SaveEvery, c.TrainThreads = 16, 10_000, 20, 64, 5, 1
	c.GateNodes, c.GatePairs, c.AnchorPairs, c.Holdout, c.Seed = 200, 3, 1, 0.1, 3
	return c
}

// TestTrichessNNUERunThroughServer runs a Trichess NNUE run whose games
// a worker plays alone: the run on the server is a Trichess one, the
// worker plays each generation with its player (a Trichess net once one
// is accepted), and the trainer writes its Trichess shards and trains
// on them, refusing a Trench shard.
func TestTrichessNNUERunThroughServer(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	dir := t.TempDir()
	cfg, err := generations.Prepare(dir, tinyTrichessNNUE(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var log syncbuf.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	trainerDone := make(chan error, 1)
	go func() {
		trainerDone <- TrainNNUE(ctx, connect(t, s), "tri", dir, cfg, 0, generations.Options{Progress: &log, Warnings: &log, NoLocal: true})
	}()
	run, err := WaitOpen(ctx, connect(t, s), "tri", func() {})
	if err != nil {
		t.Fatal(err)
	}
	if meta, err := run.Meta(ctx); err != nil || meta.Game != "trichess" || meta.Kind != KindNNUE {
		t.Fatalf("meta %+v, %v; want a Trichess NNUE run", meta, err)
	}
	trenchShard, err := nnuedata.EncodeShard(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.PublishShard(ctx, Shard{Worker: "stray", ID: "1", Data: trenchShard}); err != nil {
		t.Fatal(err)
	}
	wcfg, err := run.SavedNNUEConfig(ctx)
	if err != nil || wcfg.Game != "trichess" {
		t.Fatalf("saved config %+v, %v", wcfg, err)
	}
	wctx, stopWorker := context.WithCancel(ctx)
	worker := make(chan error, 1)
	go func() {
		_, _, err := NNUEWorker{Name: "w", Buffer: 8, Log: &log}.Work(wctx, run, wcfg)
		worker <- err
	}()
	if err := <-trainerDone; err != nil {
		t.Fatalf("trainer: %v; log:\n%s", err, log.String())
	}
	stopWorker()
	if err := <-worker; err != nil {
		t.Fatalf("worker: %v", err)
	}
	lines, _, err := generations.ReadMetrics(dir)
	if err != nil || len(lines) != 2 {
		t.Fatalf("%d metrics lines, %v; log:\n%s", len(lines), err, log.String())
	}
	for g, m := range lines {
		if m.NewPositions < cfg.Positions || m.RemotePositions != m.NewPositions {
			t.Errorf("generation %d: %d positions (%d remote), want at least %d, all remote", g, m.NewPositions, m.RemotePositions, cfg.Positions)
		}
	}
	player := RulesPlayer
	if lines[0].Gate.Accepted {
		player = lines[0].Net
	}
	for _, want := range []string{"playing generation 0 with rules", "playing generation 1 with " + player, `skipping shard "1" of worker "stray": ` + "not a position shard (bad magic): a trench shard, not trichess data"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	data := filepath.Join(dir, "data")
	names, err := nnuedata.ShardNames(data)
	if err != nil || len(names) == 0 {
		t.Fatalf("shards %v, %v", names, err)
	}
	for _, name := range names {
		if !strings.Contains(name, "-r-") {
			t.Errorf("%s: the trainer played though it was told not to", name)
		}
		if _, err := nnuedata.Trichess.ReadShard(filepath.Join(data, name)); err != nil {
			t.Error(err)
		}
	}
}
