package datagen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	trichessab "trench/alphabeta/trichess"
	"trench/engine/trichess"
	"trench/nnue/data"
)

// trichessJob is a Trichess job into dir whose players search with the
// rules' piece points.
func trichessJob(cfg Config, dir string) Job[data.TrichessRecord] {
	return Job[data.TrichessRecord]{
		Dir: dir, Name: "g000000", GameBase: 5, Positions: 120, Codec: data.Trichess,
		NewGames: func() (Games[data.TrichessRecord], error) {
			return NewTrichessPlayer(cfg, trichessab.Default, trichessab.Material{})
		},
	}
}

// Trichess games go to Trichess shards: every record checks, holds a
// position of a game not over with each seat's lead and the titles of
// one finished game, and the same job played again, killed and resumed,
// writes the same files.
func TestGenerateTrichess(t *testing.T) {
	cfg := tinyConfig()
	cfg.SoftNodes, cfg.HardNodes, cfg.RandomPlies = 100, 400, 4
	a, b := t.TempDir(), t.TempDir()
	st, err := Generate(context.Background(), cfg, trichessJob(cfg, a))
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions < 120 || st.Searched < st.Positions {
		t.Fatalf("stats %+v: want at least 120 positions", st)
	}
	titles := map[uint64][3]trichess.Title{}
	files := map[string][]byte{}
	names, err := data.ShardNames(a)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range names {
		recs, err := data.Trichess.ReadShard(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := data.Trench.ReadShard(filepath.Join(a, name)); err == nil {
			t.Errorf("%s reads as Trench data", name)
		}
		for _, r := range recs {
			if seen, ok := titles[r.GameID]; ok && seen != r.Titles {
				t.Errorf("game %d: titles %v and %v", r.GameID, seen, r.Titles)
			}
			titles[r.GameID] = r.Titles
			points := 0
			for _, ti := range r.Titles {
				points += ti.Points()
			}
			if points == 0 {
				t.Errorf("game %d: no seat has a point: %v", r.GameID, r.Titles)
			}
			n++
		}
		files[name], _ = readFile(a, name)
	}
	if n != st.Positions {
		t.Errorf("%d records on disk, %d written", n, st.Positions)
	}
	if c, err := Count(data.Trichess, a, "g000000", cfg.Workers); err != nil || c != n {
		t.Errorf("Count = %d, %v; want %d", c, err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := trichessJob(cfg, b)
	j.Progress = func(int) { cancel() }
	if _, err := Generate(ctx, cfg, j); err == nil {
		t.Fatal("a cancelled generation returned no error")
	}
	if _, err := Generate(context.Background(), cfg, trichessJob(cfg, b)); err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		if got, err := readFile(b, name); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs after a kill and a resume (%v)", name, err)
		}
	}
}

// readFile reads file name of dir.
func readFile(dir, name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
