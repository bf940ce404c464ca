package generations

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/training/rundir"
)

// TestFork forks a finished run at its last generation: unchanged, the
// branch trains that generation's net again byte for byte; with another
// λ it keeps the generations before and trains another net.
func TestFork(t *testing.T) {
	src := tinyRun(t, tiny(t))
	want, _, err := ReadMetrics(src)
	if err != nil || len(want) != 2 {
		t.Fatalf("%+v, %v", want, err)
	}
	for _, tc := range []struct {
		name string
		set  map[string]string
		same bool
	}{{"unchanged", nil, true}, {"lambda 0.1", map[string]string{"lambda": "0.1"}, false}} {
		dst := filepath.Join(t.TempDir(), "fork")
		res, err := Fork(src, dst, 1, tc.set)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Shards == 0 || res.Positions < want[0].Positions || res.Elapsed <= want[0].Elapsed || res.Elapsed >= want[1].Elapsed {
			t.Errorf("%s: %+v, the run's generation 0 ended at %.1f s with %d positions, 1 at %.1f s", tc.name, res, want[0].Elapsed, want[0].Positions, want[1].Elapsed)
		}
		if tc.set != nil && res.Config.Lambda != 0.1 {
			t.Errorf("%s: λ %v", tc.name, res.Config.Lambda)
		}
		if err := Run(context.Background(), dst, res.Config, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, _, err := ReadMetrics(dst)
		if err != nil || len(got) != 2 {
			t.Fatalf("%s: %+v, %v", tc.name, got, err)
		}
		if got[0].SHA256 != want[0].SHA256 || got[0].Elapsed != want[0].Elapsed {
			t.Errorf("%s: generation 0 is not the run's: %+v", tc.name, got[0])
		}
		if same := got[1].SHA256 == want[1].SHA256; same != tc.same {
			t.Errorf("%s: generation 1's net the run's: %v, want %v", tc.name, same, tc.same)
		}
	}
}

// TestForkErrors checks that Fork refuses what it cannot branch, by name,
// and that a fork stopped before its end is made again.
func TestForkErrors(t *testing.T) {
	src := tinyRun(t, tiny(t))
	for _, tc := range []struct {
		name string
		g    int
		set  map[string]string
		says string
	}{
		{"unfinished generation", 2, nil, "forked at 0 to 1, not 2"},
		{"negative generation", -1, nil, "not -1"},
		{"unknown setting", 1, map[string]string{"nosuch": "1"}, "--set nosuch"},
		{"the game", 1, map[string]string{"game": "trichess"}, "keeps its run's game"},
		{"a bad value", 1, map[string]string{"lambda": "high"}, "--set"},
		{"out of range", 1, map[string]string{"lambda": "2"}, "lambda"},
		{"another hidden size", 1, map[string]string{"hidden": "32"}, "from-scratch"},
	} {
		dst := filepath.Join(t.TempDir(), "fork")
		if _, err := Fork(src, dst, tc.g, tc.set); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.says)
		}
		if _, err := rundir.Read(dst); err == nil {
			t.Errorf("%s: a run was made", tc.name)
		}
	}
	dst := filepath.Join(t.TempDir(), "fork")
	if _, err := Fork(src, dst, 0, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Fork(src, dst, 0, nil); err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("a fork into a run: %v", err)
	}
	// Stopped before its config and marker: made again, with the new
	// settings.
	for _, f := range []string{rundir.MarkerFile, rundir.NNUEConfigFile} {
		if err := os.Remove(filepath.Join(dst, f)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Fork(src, dst, 1, map[string]string{"steps": "30"})
	if err != nil {
		t.Fatal(err)
	}
	if saved, err := LoadConfig(dst); err != nil || saved.Steps != 30 || res.Config.Steps != 30 {
		t.Errorf("the fork made again: %+v, %v", saved, err)
	}
}
