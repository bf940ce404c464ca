package data

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/alphabeta"
	"trench/engine/trench"
)

// writeShards writes one shard per slice of records into dir, in order.
func writeShards(t *testing.T, dir string, shards ...[]Record) {
	t.Helper()
	for _, rs := range shards {
		if _, err := WriteShard(dir, rs); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWindowSamplesTheNewest(t *testing.T) {
	dir := t.TempDir()
	records := randomGames(t, 30, 8)
	// Three shards; tag each record with its shard in Score.
	third := len(records) / 3
	var parts [3][]Record
	for j := range parts {
		parts[j] = append([]Record(nil), records[j*third:(j+1)*third]...)
		for i := range parts[j] {
			parts[j][i].Score = int16(j)
		}
	}
	writeShards(t, dir, parts[0], parts[1])
	var warn bytes.Buffer
	w, err := NewWindow(dir, WindowConfig{Newest: third + third/2, Holdout: 0.2, Seed: 1}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Refresh(); err != nil || n != 2*third {
		t.Fatalf("Refresh = %d, %v; want %d positions", n, err, 2*third)
	}
	writeShards(t, dir, parts[2])
	os.WriteFile(filepath.Join(dir, "shard-99999999999999999999-bad.pos"), []byte("junk"), 0o644)
	if n, err := w.Refresh(); err != nil || n != third {
		t.Fatalf("second Refresh = %d, %v; want %d positions", n, err, third)
	}
	if !strings.Contains(warn.String(), "shard-99999999999999999999-bad.pos: not a position shard") {
		t.Errorf("warnings %q do not name the bad shard", warn.String())
	}
	// Shard 0 is outside the window of 1.5 shards and is dropped.
	if len(w.shards) != 2 || w.Size() != w.cfg.Newest {
		t.Fatalf("window holds %d shards and %d positions, want 2 and %d", len(w.shards), w.Size(), w.cfg.Newest)
	}
	val, _ := w.Validation()
	held := map[uint64]bool{}
	for _, r := range val {
		if !HeldOut(r.GameID, 0.2, 1) || r.Score == 0 {
			t.Fatalf("validation record of game %d from shard %d", r.GameID, r.Score)
		}
		held[r.GameID] = true
	}
	if len(held) == 0 {
		t.Fatal("no game held out of 20")
	}
	// Draws: no held-out game; from shard 2 (all its training records)
	// and the newest part of shard 1, in proportion.
	train2 := len(w.shards[1].train) / RecordSize
	rng := rand.New(rand.NewPCG(1, 2))
	batch := make([]Record, 20000)
	w.Sample(rng, batch, nil)
	from := [3]int{}
	for _, r := range batch {
		if held[r.GameID] {
			t.Fatalf("sampled a position of held-out game %d", r.GameID)
		}
		from[r.Score]++
	}
	want2 := float64(train2) / float64(w.Size())
	if got := float64(from[2]) / float64(len(batch)); from[0] != 0 || got < want2-0.02 || got > want2+0.02 {
		t.Errorf("draws by shard %v: want none from shard 0 and a share %.3f from shard 2, got %.3f", from, want2, got)
	}
}

func TestNewWindowErrors(t *testing.T) {
	for _, cfg := range []WindowConfig{{Newest: 0}, {Newest: 10, Holdout: 1}, {Newest: 10, Holdout: -0.1}} {
		if _, err := NewWindow(t.TempDir(), cfg, nil); err == nil {
			t.Errorf("NewWindow(%+v) accepted", cfg)
		}
	}
}

func TestHeldOutShare(t *testing.T) {
	n := 0
	for id := uint64(0); id < 100000; id++ {
		if HeldOut(id, 0.1, 42) {
			n++
		}
	}
	if n < 9500 || n > 10500 {
		t.Errorf("HeldOut(·, 0.1, 42) held out %d of 100000 ids", n)
	}
}

// TestSearchedGameShard plays a short game with alpha-beta at depth 2,
// labels it with the search's scores and reads it back from a shard.
func TestSearchedGameShard(t *testing.T) {
	e, err := alphabeta.New(12)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	p := trench.StartPosition()
	var positions []trench.Position
	var scores []int
	var moves []trench.Move
	for ply := 0; !p.Over(); ply++ {
		res, err := e.Search(context.Background(), p, alphabeta.Limits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, p)
		scores = append(scores, res.Score)
		m := res.Move
		if ply%4 == 0 { // some randomness, so the game ends
			moves = p.GenerateMoves(moves)
			m = moves[r.IntN(len(moves))]
		}
		p.Play(m)
	}
	records, err := Label(1, positions, scores, &p)
	if err != nil {
		t.Fatal(err)
	}
	path, err := WriteShard(t.TempDir(), records)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadShard(path)
	if err != nil || len(got) != len(positions) {
		t.Fatalf("ReadShard = %d records, %v; want %d", len(got), err, len(positions))
	}
	nonzero := 0
	for i, r := range got {
		if int(r.Score) != int(ClampScore(scores[i])) {
			t.Fatalf("record %d: score %d, searched %d", i, r.Score, scores[i])
		}
		if r.Score != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("every searched score is 0")
	}
}

func BenchmarkWindowSample(b *testing.B) {
	dir := b.TempDir()
	records := randomGames(b, 100, 11)
	for i := 0; i < 4; i++ {
		if _, err := WriteShard(dir, records[i*len(records)/4:(i+1)*len(records)/4]); err != nil {
			b.Fatal(err)
		}
	}
	w, err := NewWindow(dir, WindowConfig{Newest: len(records)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	batch := make([]Record, 1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Sample(rng, batch, nil)
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "records/s")
}
