package generations

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// tinyRun makes a finished run of cfg's generations in a new directory.
func tinyRun(t *testing.T, cfg Config) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := Prepare(dir, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, cfg, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRate rates every generation of a run: a line each, on the run's
// clock, with the net's hash; a second call plays nothing, another seed
// plays again; the same settings give the same games in a copy of the
// run; a net changed since its metrics line is refused by name.
// (TestRunTrichess rates a Trichess run.)
func TestRate(t *testing.T) {
	dir := tinyRun(t, tiny(t))
	lines, _, err := ReadMetrics(dir)
	if err != nil {
		t.Fatal(err)
	}
	rc := RateConfig{Pairs: 2, Nodes: 300, Seed: 9}
	var out strings.Builder
	got, err := Rate(context.Background(), dir, rc, Options{Progress: &out})
	if err != nil || len(got) != len(lines) {
		t.Fatalf("%d ratings, %v, want %d; output:\n%s", len(got), err, len(lines), out.String())
	}
	for i, r := range got {
		m := lines[i]
		st := r.Standing
		if r.Generation != m.Generation || r.Net != m.Net || r.SHA256 != m.SHA256 || r.Hours != m.Hours || r.Positions != m.Positions ||
			st.Opponent != "alphabeta-hand:nodes=300" || r.Limits != "nodes=300" || r.Pairs != 2 || r.Seed != 9 || r.Time.IsZero() {
			t.Errorf("rating %d: %+v, for the metrics line %+v", i, r, m)
		}
		if st.Wins+st.Draws+st.Losses != 2*rc.Pairs {
			t.Errorf("rating %d: %d-%d-%d, want %d games", i, st.Wins, st.Draws, st.Losses, 2*rc.Pairs)
		}
	}
	if !strings.Contains(out.String(), "generation 1 (") {
		t.Errorf("output lacks generation 1's line:\n%s", out.String())
	}
	saved, skipped, err := ReadRatings(dir)
	if err != nil || skipped != 0 || len(saved) != len(lines) {
		t.Fatalf("ratings.jsonl: %d lines, %d skipped, %v", len(saved), skipped, err)
	}

	// Resumed: nothing is played again.
	out.Reset()
	again, err := Rate(context.Background(), dir, rc, Options{Progress: &out})
	if err != nil || !reflect.DeepEqual(again, got) || out.Len() != 0 {
		t.Errorf("second call: %d ratings, %v, output %q", len(again), err, out.String())
	}

	// A copy of the run, rated alike, plays the same games.
	copyDir := t.TempDir()
	copyRun(t, dir, copyDir)
	if err := os.Remove(filepath.Join(copyDir, RatingsFile)); err != nil {
		t.Fatal(err)
	}
	fresh, err := Rate(context.Background(), copyDir, rc, Options{Progress: io.Discard})
	if err != nil || len(fresh) != len(got) {
		t.Fatalf("the copy: %d ratings, %v", len(fresh), err)
	}
	for i := range got {
		if !reflect.DeepEqual(fresh[i].Standing, got[i].Standing) {
			t.Errorf("the copy's rating %d: %+v, the run's %+v", i, fresh[i].Standing, got[i].Standing)
		}
	}

	// Another seed is another rating, kept beside the first.
	rc.Seed = 10
	if _, err := Rate(context.Background(), dir, rc, Options{Progress: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if saved, _, _ := ReadRatings(dir); len(saved) != 2*len(lines) {
		t.Errorf("after another seed: %d lines, want %d", len(saved), 2*len(lines))
	}
	// So is an anchor with more nodes than the net.
	rc.AnchorNodes = 600
	handicap, err := Rate(context.Background(), dir, rc, Options{Progress: io.Discard})
	if err != nil || len(handicap) != len(lines) || handicap[0].Limits != "nodes=300" || handicap[0].Standing.Opponent != "alphabeta-hand:nodes=600" {
		t.Errorf("an anchor at 600 nodes: %+v, %v", handicap, err)
	}
	if saved, _, _ := ReadRatings(dir); len(saved) != 3*len(lines) {
		t.Errorf("after another anchor: %d lines, want %d", len(saved), 3*len(lines))
	}
	rc.AnchorNodes = 0

	// A net changed since its metrics line.
	path := filepath.Join(copyDir, netsDir, lines[1].Net)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-1] ^= 1
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	rc.Seed = 11
	if _, err := Rate(context.Background(), copyDir, rc, Options{Progress: io.Discard}); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a changed net: %v, want an error naming %s and its SHA-256", err, path)
	}
}

// copyRun copies the files of the run in src that rating reads into dst.
func copyRun(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), raw, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRateErrors checks the settings refused, a directory that is not a
// finished run, and a rating stopped before its first match, which
// saves nothing.
func TestRateErrors(t *testing.T) {
	for _, tc := range []struct {
		rc   RateConfig
		want string
	}{
		{RateConfig{Pairs: 0, Nodes: 100}, "--pairs must be at least 1, got 0"},
		{RateConfig{Pairs: 1}, "give --nodes or --ms, one of them"},
		{RateConfig{Pairs: 1, Nodes: 100, Time: time.Second}, "give --nodes or --ms, one of them"},
		{RateConfig{Pairs: 1, Time: -time.Second}, "--ms must be positive"},
		{RateConfig{Pairs: 1, Nodes: 100, AnchorTime: -time.Second}, "--anchor-ms must be positive"},
		{RateConfig{Pairs: 1, Time: time.Second, AnchorNodes: 100}, "give the anchor's limit as the net's"},
		{RateConfig{Pairs: 1, Nodes: 100, AnchorTime: time.Second}, "give the anchor's limit as the net's"},
	} {
		if err := tc.rc.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.rc, err, tc.want)
		}
	}
	rc := RateConfig{Pairs: 1, Nodes: 100}
	empty := t.TempDir()
	if _, err := Rate(context.Background(), empty, rc, Options{Progress: io.Discard}); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("a directory that is no run: %v, want an error naming it", err)
	}
	if _, err := Prepare(empty, tiny(t), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Rate(context.Background(), empty, rc, Options{Progress: io.Discard}); err == nil || !strings.Contains(err.Error(), "no generation has finished") {
		t.Errorf("a run with no generation: %v", err)
	}
	dir := tinyRun(t, tiny(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := Rate(ctx, dir, rc, Options{Progress: io.Discard})
	if saved, _, _ := ReadRatings(dir); err != nil || len(got) != 0 || len(saved) != 0 {
		t.Errorf("stopped at once: %d ratings, %d saved, %v; want none and no error", len(got), len(saved), err)
	}
}
