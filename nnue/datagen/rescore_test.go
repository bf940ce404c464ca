package datagen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/alphabeta"
	trichessab "trench/alphabeta/trichess"
	"trench/nnue/data"
)

func TestConfigKeeps(t *testing.T) {
	for _, tc := range []struct {
		keepCaptures, keepForced bool
		capture                  bool
		forced                   int
		want                     bool
	}{
		{false, false, false, 0, true},
		{false, false, true, 0, false},
		{false, false, false, 1, false},
		{false, false, false, -1, false},
		{true, false, true, 0, true},
		{true, false, true, -1, false},
		{false, true, false, 1, true},
		{false, true, true, 1, false},
		{true, true, true, 1, true},
	} {
		c := Config{KeepCaptures: tc.keepCaptures, KeepForced: tc.keepForced}
		if got := c.keeps(tc.capture, tc.forced); got != tc.want {
			t.Errorf("%+v: keeps = %v, want %v", tc, got, tc.want)
		}
	}
}

// rescoreCase is one game's shards to rescore: generate writes a
// source directory, rescorers re-search at deeper budgets, and records
// reads a shard's records as comparable values.
type rescoreCase struct {
	name     string
	generate func(t *testing.T, dir string)
	job      func(src, dst string, shards []string, cfg Config) any
	run      func(ctx context.Context, job any) (RescoreStats, error)
	records  func(path string) ([]rescored, error)
}

// rescored is what a record keeps through a rescore (the position, the
// game, the result) and what it changes (the scores).
type rescored struct {
	key    string
	scores [3]int16
}

func trenchRescoreCase(cfg Config) rescoreCase {
	return rescoreCase{
		name: "trench",
		generate: func(t *testing.T, dir string) {
			t.Helper()
			job := Job[data.Record]{Dir: dir, Name: "g000000", GameBase: 1, Positions: 300, Codec: data.Trench, NewGames: NewPlayers(cfg, rules, nil)}
			if _, err := Generate(context.Background(), cfg, job); err != nil {
				t.Fatal(err)
			}
		},
		job: func(src, dst string, shards []string, c Config) any {
			return RescoreJob[data.Record]{Src: src, Dst: dst, Shards: shards, Workers: 2, Codec: data.Trench,
				NewRescorer: func() (Rescorer[data.Record], error) { return NewPlayer(c, alphabeta.Rules{}, nil) }}
		},
		run: func(ctx context.Context, job any) (RescoreStats, error) {
			return Rescore(ctx, job.(RescoreJob[data.Record]))
		},
		records: func(path string) ([]rescored, error) {
			rs, err := data.Trench.ReadShard(path)
			out := make([]rescored, len(rs))
			for i, r := range rs {
				out[i] = rescored{key: fmt.Sprintf("%s %v %d", r.Position.FEN(), r.Result, r.GameID), scores: [3]int16{r.Score}}
			}
			return out, err
		},
	}
}

func trichessRescoreCase(cfg Config) rescoreCase {
	return rescoreCase{
		name: "trichess",
		generate: func(t *testing.T, dir string) {
			t.Helper()
			job := trichessJob(cfg, dir)
			job.Positions = 300
			if _, err := Generate(context.Background(), cfg, job); err != nil {
				t.Fatal(err)
			}
		},
		job: func(src, dst string, shards []string, c Config) any {
			return RescoreJob[data.TrichessRecord]{Src: src, Dst: dst, Shards: shards, Workers: 2, Codec: data.Trichess,
				NewRescorer: func() (Rescorer[data.TrichessRecord], error) {
					return NewTrichessPlayer(c, trichessab.Default, trichessab.Material{})
				}}
		},
		run: func(ctx context.Context, job any) (RescoreStats, error) {
			return Rescore(ctx, job.(RescoreJob[data.TrichessRecord]))
		},
		records: func(path string) ([]rescored, error) {
			rs, err := data.Trichess.ReadShard(path)
			out := make([]rescored, len(rs))
			for i, r := range rs {
				out[i] = rescored{key: fmt.Sprintf("%s %v %d", r.Position.FEN(), r.Titles, r.GameID), scores: r.Leads}
			}
			return out, err
		},
	}
}

// withJob sets a job's Progress, Done and Warnings, whichever game's.
func withJob(job any, progress func(int), done func() error, warn *strings.Builder) any {
	switch j := job.(type) {
	case RescoreJob[data.Record]:
		j.Progress, j.Done, j.Warnings = progress, done, warn
		return j
	case RescoreJob[data.TrichessRecord]:
		j.Progress, j.Done, j.Warnings = progress, done, warn
		return j
	}
	panic("unknown job")
}

// Rescoring copies every shard under its name, each record's position,
// game and result kept and its scores those of a deeper search, the
// same whether run at once or stopped and resumed; a shard that does not
// decode is skipped with a warning naming it.
func TestRescore(t *testing.T) {
	cfg := tinyConfig()
	cfg.SoftNodes, cfg.HardNodes, cfg.RandomPlies = 100, 400, 4
	deeper := cfg
	deeper.SoftNodes, deeper.HardNodes = 400, 1600
	for _, tc := range []rescoreCase{trenchRescoreCase(cfg), trichessRescoreCase(cfg)} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "trench" {
				t.Skip("-short: the generic copy runs for Trench alone")
			}
			src := t.TempDir()
			tc.generate(t, src)
			names, err := data.ShardNames(src)
			if err != nil || len(names) < 3 {
				t.Fatalf("%d source shards (%v), want at least 3", len(names), err)
			}
			dst := t.TempDir()
			var warn strings.Builder
			st, err := tc.run(context.Background(), withJob(tc.job(src, dst, names, deeper), nil, nil, &warn))
			if err != nil {
				t.Fatal(err)
			}
			if st.Shards != len(names) || st.Existing != 0 || st.Unreadable != 0 || warn.Len() != 0 {
				t.Fatalf("stats %+v, warnings %q: want %d shards written", st, warn.String(), len(names))
			}
			changed, total := 0, 0
			for _, name := range names {
				before, err := tc.records(filepath.Join(src, name))
				if err != nil {
					t.Fatal(err)
				}
				after, err := tc.records(filepath.Join(dst, name))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				total += len(before)
				// The kept records are the source's, in order.
				i := 0
				for _, a := range after {
					for i < len(before) && before[i].key != a.key {
						i++
					}
					if i == len(before) {
						t.Fatalf("%s: a record not in the source, or out of order: %s", name, a.key)
					}
					if before[i].scores != a.scores {
						changed++
					}
					i++
				}
			}
			if st.Positions+st.Dropped != total {
				t.Errorf("kept %d + dropped %d, want the source's %d", st.Positions, st.Dropped, total)
			}
			if changed == 0 {
				t.Errorf("no score of %d records changed with 4 times the nodes", st.Positions)
			}

			// Stopped after its first shard and resumed, the copy is the
			// same to the byte, and the resumed call keeps what is there.
			again := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			job := tc.job(src, again, names, deeper)
			if _, err := tc.run(ctx, withJob(job, nil, func() error { cancel(); return nil }, nil)); err == nil {
				t.Fatal("a cancelled rescore returned no error")
			}
			cancel()
			var last int
			st2, err := tc.run(context.Background(), withJob(job, func(n int) { last = n }, nil, nil))
			if err != nil {
				t.Fatal(err)
			}
			if st2.Existing == 0 || st2.Existing+st2.Shards != len(names) || last != total {
				t.Errorf("resumed: stats %+v, progress %d: want the shards split between kept and written, %d records done", st2, last, total)
			}
			for _, name := range names {
				a, errA := os.ReadFile(filepath.Join(dst, name))
				b, errB := os.ReadFile(filepath.Join(again, name))
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s differs after a stop and a resume (%v, %v)", name, errA, errB)
				}
			}

			// A truncated source shard is skipped, named in a warning.
			broken := t.TempDir()
			for i, name := range names {
				b, err := os.ReadFile(filepath.Join(src, name))
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 {
					b = b[:len(b)-7]
				}
				if err := os.WriteFile(filepath.Join(broken, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := t.TempDir()
			warn.Reset()
			last = 0
			st3, err := tc.run(context.Background(), withJob(tc.job(broken, out, names, deeper), func(n int) { last = n }, nil, &warn))
			if err != nil {
				t.Fatal(err)
			}
			if st3.Unreadable != 1 || st3.Shards != len(names)-1 || !strings.Contains(warn.String(), names[1]) {
				t.Errorf("a truncated shard: stats %+v, warnings %q", st3, warn.String())
			}
			if last != total {
				t.Errorf("a truncated shard: progress ends at %d, want all %d records of the shards' headers", last, total)
			}
			if _, err := os.Stat(filepath.Join(out, names[1])); !os.IsNotExist(err) {
				t.Errorf("the truncated shard was copied (%v)", err)
			}
		})
	}
}

func TestNewestShards(t *testing.T) {
	cfg := tinyConfig()
	dir := t.TempDir()
	trenchRescoreCase(cfg).generate(t, dir)
	all, err := data.ShardNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, len(all))
	sum := 0
	for i, name := range all {
		if counts[i], err = data.Trench.ShardCount(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		sum += counts[i]
	}
	last := counts[len(all)-1]
	for _, tc := range []struct {
		positions, shards, records int
	}{
		{0, len(all), sum},
		{1, 1, last},
		{last, 1, last},
		{last + 1, 2, last + counts[len(all)-2]},
		{sum * 2, len(all), sum},
	} {
		names, n, err := NewestShards(data.Trench, dir, tc.positions)
		if err != nil {
			t.Fatal(err)
		}
		if len(names) != tc.shards || n != tc.records || names[len(names)-1] != all[len(all)-1] {
			t.Errorf("%d positions: %d shards holding %d (newest %s), want %d holding %d", tc.positions, len(names), n, names[len(names)-1], tc.shards, tc.records)
		}
	}
	if _, _, err := NewestShards(data.Trench, filepath.Join(dir, "missing"), 0); err == nil {
		t.Error("a missing directory gave no error")
	}
}
