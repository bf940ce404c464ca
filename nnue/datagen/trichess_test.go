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

// A position's seat leads: the mover's is the search's score, and each
// other seat keeps its lead by the evaluation less half of the search's
// correction of the mover's, so the two opponents stay apart as the
// evaluation sees them; max^n's are its own.
func TestTrichessSeatLeads(t *testing.T) {
	// White has lost a rook and Red a knight, so the evaluation tells
	// Red from Black.
	p, err := trichess.ParseFEN("wRwNwBwQwKwBwN1/wPwPwPwPwPwPwPwP/8/8|rR1rBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w Q,KQ,KQ 0 1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig()
	for _, a := range []trichessab.Algorithm{trichessab.BRS, trichessab.Paranoid, trichessab.MaxN} {
		g, err := NewTrichessPlayer(cfg, a, trichessab.Material{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := g.s.Search(context.Background(), p, trichessab.Limits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		got := g.seatLeads(&p, r)
		if a == trichessab.MaxN {
			if got != [3]int(r.Leads) {
				t.Errorf("max^n: %v, want its leads %v", got, r.Leads)
			}
			continue
		}
		e := trichessab.Material{}.Leads(0, &p)
		d := r.Score - e[trichess.White]
		want := [3]int{r.Score, e[trichess.Red] - d/2, e[trichess.Black] - d/2}
		if got != want || got[trichess.Red] == got[trichess.Black] {
			t.Errorf("%s: %v, want %v (evaluation %v, score %d)", a, got, want, e, r.Score)
		}
	}
}
