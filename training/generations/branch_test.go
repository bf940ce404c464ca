package generations

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/nnue/data"
	"trench/training/rundir"
)

// A branch holds the run's finished generations' records and nets to
// the byte, its positions searched again under the same shard names, and
// the run's config; it starts the next generation at the run's time
// plus the searches', refuses to be made twice, and a branch stopped
// while its positions are copied resumes to the same files.
func TestBranch(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"trench", tiny(t)},
		{"trichess", tinyTrichess(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "trench" {
				t.Skip("-short: a Trichess run's matches are slow under the race detector")
			}
			cfg := tc.cfg
			cfg.Generations = 1
			src := tinyRun(t, cfg)
			dst := filepath.Join(t.TempDir(), "branch")
			opt := BranchOptions{SoftNodes: 400, HardNodes: 1600, Workers: 2, Warnings: io.Discard}
			res, err := Branch(context.Background(), src, dst, opt)
			if err != nil {
				t.Fatal(err)
			}
			srcLines, _, err := ReadMetrics(src)
			if err != nil || len(srcLines) != 1 {
				t.Fatalf("source metrics: %d lines, %v", len(srcLines), err)
			}
			if res.Next != 1 || res.Elapsed < srcLines[0].Elapsed || !strings.Contains(res.Searcher, "400-1600 nodes") {
				t.Errorf("result %+v: want generation 1 next, after %.1f s", res, srcLines[0].Elapsed)
			}
			for _, f := range []string{rundir.NNUEConfigFile, rundir.MetricsFile, "gen-000000.json", filepath.Join(netsDir, srcLines[0].Net)} {
				a, errA := os.ReadFile(filepath.Join(src, f))
				b, errB := os.ReadFile(filepath.Join(dst, f))
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s: not copied as it is (%v, %v)", f, errA, errB)
				}
			}
			m, err := rundir.Read(dst)
			if err != nil || m.Kind != rundir.NNUE || m.Game != cfg.Game {
				t.Errorf("marker %+v, %v", m, err)
			}
			prog, err := loadProgress(dst, 1)
			if err != nil || prog.Trained || prog.Gate != nil || prog.Elapsed != res.Elapsed {
				t.Errorf("generation 1's progress %+v, %v: want none but the time %.1f", prog, err, res.Elapsed)
			}
			if _, err := os.Stat(filepath.Join(dst, branchTimeFile)); !os.IsNotExist(err) {
				t.Errorf("the branch's time file is left (%v)", err)
			}
			srcShards, _ := data.ShardNames(filepath.Join(src, dataDir))
			dstShards, _ := data.ShardNames(filepath.Join(dst, dataDir))
			if len(dstShards) != len(srcShards) || res.Shards != len(srcShards) {
				t.Errorf("%d shards copied (%+v), the run has %d", len(dstShards), res.RescoreStats, len(srcShards))
			}
			if _, err := Branch(context.Background(), src, dst, opt); err == nil || !strings.Contains(err.Error(), "already holds a run") {
				t.Errorf("a second branch into %s: %v", dst, err)
			}

			// Stopped while its positions are copied, then resumed: the
			// same positions and scores.
			again := filepath.Join(t.TempDir(), "again")
			ctx, cancel := context.WithCancel(context.Background())
			stopping := opt
			stopping.Progress = func(done, _ int) {
				if done > 0 {
					cancel()
				}
			}
			if _, err := Branch(ctx, src, again, stopping); err == nil {
				t.Fatal("a stopped branch returned no error")
			}
			cancel()
			if _, err := os.Stat(filepath.Join(again, rundir.NNUEConfigFile)); !os.IsNotExist(err) {
				t.Errorf("a stopped branch has its config (%v)", err)
			}
			if _, err := Branch(context.Background(), src, again, opt); err != nil {
				t.Fatal(err)
			}
			for _, name := range dstShards {
				a, errA := os.ReadFile(filepath.Join(dst, dataDir, name))
				b, errB := os.ReadFile(filepath.Join(again, dataDir, name))
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s differs after a stop and a resume (%v, %v)", name, errA, errB)
				}
			}

			// The newest shard alone.
			one := filepath.Join(t.TempDir(), "one")
			if res, err := Branch(context.Background(), src, one, BranchOptions{Positions: 1, Workers: 1}); err != nil || res.Shards != 1 {
				t.Errorf("one position: %+v, %v; want the newest shard", res, err)
			}
		})
	}
}

// The branch trains on: resumed by Run it finishes the generation its
// source was in, on top of the source's records.
func TestBranchGoesOn(t *testing.T) {
	cfg := tiny(t)
	cfg.Generations = 1
	src := tinyRun(t, cfg)
	dst := filepath.Join(t.TempDir(), "branch")
	if _, err := Branch(context.Background(), src, dst, BranchOptions{SoftNodes: 500, HardNodes: 2000, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	cfg.Generations = 2
	cfg, err := Prepare(dst, cfg, []string{"generations"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Run(context.Background(), dst, cfg, Options{Progress: &out, Warnings: &out}); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	srcLines, _, _ := ReadMetrics(src)
	lines, _, err := ReadMetrics(dst)
	if err != nil || len(lines) != 2 {
		t.Fatalf("%d lines, %v; output:\n%s", len(lines), err, out.String())
	}
	a, _ := json.Marshal(lines[0])
	b, _ := json.Marshal(srcLines[0])
	if !bytes.Equal(a, b) || lines[1].Generation != 1 || lines[1].Elapsed <= srcLines[0].Elapsed || lines[1].Parent != srcLines[0].Net {
		t.Errorf("the branch's metrics %+v after the source's %+v", lines, srcLines)
	}
}

// A run whose scores are a conv net's is not searched again, and a
// source that is no run is refused by name.
func TestBranchErrors(t *testing.T) {
	cfg := tiny(t)
	cfg.Generations = 1
	src := tinyRun(t, cfg)
	taught := filepath.Join(t.TempDir(), "taught")
	copyRun(t, src, taught)
	raw, err := os.ReadFile(filepath.Join(taught, rundir.NNUEConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	var saved map[string]any
	if err := json.Unmarshal(raw, &saved); err != nil {
		t.Fatal(err)
	}
	saved["teacher"] = "runs/quick"
	raw, _ = json.Marshal(saved)
	if err := os.WriteFile(filepath.Join(taught, rundir.NNUEConfigFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src, want string
		opt             BranchOptions
	}{
		{"taught", taught, "taught by the conv net", BranchOptions{Workers: 1}},
		{"not a run", t.TempDir(), "", BranchOptions{Workers: 1}},
		{"a bad net", src, "--net", BranchOptions{Workers: 1, Net: filepath.Join(src, "no-such.nnue")}},
	} {
		dst := filepath.Join(t.TempDir(), "b")
		_, err := Branch(context.Background(), tc.src, dst, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dst, rundir.NNUEConfigFile)); !os.IsNotExist(err) {
			t.Errorf("%s: the refused branch has a config (%v)", tc.name, err)
		}
	}
}
