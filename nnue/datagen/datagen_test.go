package datagen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/alphabeta"
	"trench/engine/trench"
	"trench/nnue/data"
)

// tinyConfig plays fast games: few nodes a move.
func tinyConfig() Config {
	c := DefaultConfig()
	c.SoftNodes, c.HardNodes = 200, 1000
	c.OpeningDepth = 1
	c.ShardGames = 2
	c.TableBits = 12
	return c
}

func rules() (alphabeta.Evaluator, error) { return alphabeta.Rules{}, nil }

// readAll returns every shard file of dir by name.
func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := data.ShardNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := data.DecodeShard(b); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[n] = b
	}
	return out
}

func TestGenerateDeterministicAndResumable(t *testing.T) {
	cfg := tinyConfig()
	job := func(dir string) Job[data.Record] {
		return Job[data.Record]{Dir: dir, Name: "g000001", GameBase: 1 << 40, Positions: 300, Codec: data.Trench, NewGames: NewPlayers(cfg, rules, nil)}
	}
	a, b := t.TempDir(), t.TempDir()
	st, err := Generate(context.Background(), cfg, job(a))
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions < 300 || st.Games == 0 || st.Searched < st.Positions {
		t.Fatalf("stats %+v: want at least 300 positions", st)
	}
	filesA := readAll(t, a)
	n, err := Count(data.Trench, a, "g000001", cfg.Workers)
	if err != nil || n != st.Positions {
		t.Fatalf("Count = %d, %v; wrote %d", n, err, st.Positions)
	}

	// The same job in another directory, killed after its first shard
	// (a cancelled context) and resumed, writes the same files.
	ctx, cancel := context.WithCancel(context.Background())
	j := job(b)
	j.Progress = func(int) { cancel() }
	if _, err := Generate(ctx, cfg, j); err == nil {
		t.Fatal("a cancelled generation returned no error")
	}
	if got := len(readAll(t, b)); got == 0 || got >= len(filesA) {
		t.Fatalf("after the cancel: %d shards, want some of %d", got, len(filesA))
	}
	st2, err := Generate(context.Background(), cfg, job(b))
	if err != nil {
		t.Fatal(err)
	}
	if st2.Resumed == 0 || st2.Resumed+st2.Positions != st.Positions {
		t.Errorf("resumed %d and wrote %d positions, want %d in all", st2.Resumed, st2.Positions, st.Positions)
	}
	filesB := readAll(t, b)
	if len(filesA) != len(filesB) {
		t.Fatalf("%d shards, then %d", len(filesA), len(filesB))
	}
	for name, da := range filesA {
		if !bytes.Equal(da, filesB[name]) {
			t.Errorf("%s differs between the runs", name)
		}
	}
	// A finished job writes nothing more.
	st3, err := Generate(context.Background(), cfg, job(a))
	if err != nil || st3.Positions != 0 || st3.Resumed != st.Positions {
		t.Errorf("rerun of a finished job: %+v, %v", st3, err)
	}
}

func TestGenerateRecords(t *testing.T) {
	cfg := tinyConfig()
	cfg.Workers = 1
	dir := t.TempDir()
	if _, err := Generate(context.Background(), cfg, Job[data.Record]{Dir: dir, Name: "x", GameBase: 7, Positions: 100, Codec: data.Trench, NewGames: NewPlayers(cfg, rules, nil)}); err != nil {
		t.Fatal(err)
	}
	games := map[uint64]bool{}
	for name, b := range readAll(t, dir) {
		if !strings.HasPrefix(name, "shard-x-") {
			t.Errorf("shard %s: want the job's name", name)
		}
		recs, _ := data.DecodeShard(b)
		for _, r := range recs {
			games[r.GameID] = true
			if r.GameID < 7 {
				t.Errorf("game id %d below the base", r.GameID)
			}
			if r.Score > 10000 || r.Score < -10000 {
				t.Errorf("score %d: a forced score was kept", r.Score)
			}
			// Rules{} scores are whole points: a search's score is one.
			if r.Score%100 != 0 {
				t.Errorf("score %d is not the rules' evaluation", r.Score)
			}
		}
	}
	if len(games) < 2 {
		t.Errorf("%d games", len(games))
	}
}

// TestRelabel checks that Relabel's scores are stored in place of the
// search's, and that its error stops generation naming the game.
func TestRelabel(t *testing.T) {
	cfg := tinyConfig()
	cfg.Workers = 1
	dir := t.TempDir()
	// A label telling each position apart: its move number.
	relabel := func(ps []trench.Position, scores []int) error {
		for i := range ps {
			scores[i] = 7 * ps[i].MoveNumber()
		}
		return nil
	}
	if _, err := Generate(context.Background(), cfg, Job[data.Record]{Dir: dir, Name: "r", Positions: 50, Codec: data.Trench, NewGames: NewPlayers(cfg, rules, relabel)}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range readAll(t, dir) {
		recs, _ := data.DecodeShard(b)
		for _, r := range recs {
			if want := data.ClampScore(7 * r.Position.MoveNumber()); r.Score != want {
				t.Errorf("score %d, want the label %d", r.Score, want)
			}
			n++
		}
	}
	if n < 50 {
		t.Errorf("%d records", n)
	}
	fail := func([]trench.Position, []int) error { return errors.New("no net") }
	_, err := Generate(context.Background(), cfg, Job[data.Record]{Dir: t.TempDir(), Name: "f", GameBase: 9, Positions: 10, Codec: data.Trench, NewGames: NewPlayers(cfg, rules, fail)})
	if err == nil || !strings.Contains(err.Error(), "game 9") || !strings.Contains(err.Error(), "no net") {
		t.Errorf("a failing label: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Config)
		says string
	}{
		{func(c *Config) { c.Workers = 0 }, "workers"},
		{func(c *Config) { c.SoftNodes = 0 }, "soft nodes"},
		{func(c *Config) { c.HardNodes = c.SoftNodes - 1 }, "hard nodes"},
		{func(c *Config) { c.RandomPlies = -1 }, "random plies"},
		{func(c *Config) { c.RandomMoves = -1 }, "random moves"},
		{func(c *Config) { c.RandomChance = 1.5 }, "chance"},
		{func(c *Config) { c.OpeningDepth = -1 }, "opening depth"},
		{func(c *Config) { c.OpeningMargin = -1 }, "opening margin"},
		{func(c *Config) { c.ShardGames = 0 }, "shard games"},
		{func(c *Config) { c.TableBits = 5 }, "table bits"},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: Validate() = %v", tc.says, err)
		}
		if _, err := Generate(context.Background(), c, Job[data.Record]{Dir: t.TempDir(), Name: "a", Codec: data.Trench, NewGames: NewPlayers(c, rules, nil)}); err == nil {
			t.Errorf("%s: Generate accepted the config", tc.says)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("the default config: %v", err)
	}
	games := NewPlayers(DefaultConfig(), rules, nil)
	for _, job := range []Job[data.Record]{
		{Name: "", Codec: data.Trench, NewGames: games},
		{Name: "a/b", Codec: data.Trench, NewGames: games},
		{Name: "a", Codec: data.Trench},
		{Name: "a", NewGames: games},
		{Name: "a", Codec: data.Trench, NewGames: games, Positions: -1},
	} {
		job.Dir = t.TempDir()
		if _, err := Generate(context.Background(), DefaultConfig(), job); err == nil {
			t.Errorf("job %+v accepted", job)
		}
	}
}

// BenchmarkGenerate measures generation at the default budget on one
// worker with the rules' evaluation: positions/s is the figure.
func BenchmarkGenerate(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Workers = 1
	cfg.ShardGames = 1
	dir := b.TempDir()
	positions := 0
	for i := 0; b.Loop(); i++ {
		st, err := Generate(context.Background(), cfg, Job[data.Record]{Dir: dir, Name: fmt.Sprintf("b%06d", i), Positions: 1, Codec: data.Trench, NewGames: NewPlayers(cfg, rules, nil)})
		if err != nil {
			b.Fatal(err)
		}
		positions += st.Positions
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
}
