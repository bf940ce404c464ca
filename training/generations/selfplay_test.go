package generations

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"trench/nnue/data"
	"trench/training/rundir"
)

// TestSelfPlay checks that games played beside a run land as the
// generation in progress's remote shards, that the trainer then counts
// them, and that a directory that is no run is refused by name.
func TestSelfPlay(t *testing.T) {
	dir := t.TempDir()
	cfg := tiny(t)
	// More positions than the games played beside it give, so that the
	// generation plays games of its own too and its window never holds
	// only the few games that the holdout may all take.
	cfg.Generations, cfg.Positions = 1, 600
	if _, err := Prepare(dir, cfg, nil); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	st, err := SelfPlay(context.Background(), dir, 3, &log)
	if err != nil {
		t.Fatal(err)
	}
	if st.Generation != 0 || st.Games != 3 || st.Positions <= 0 || !strings.Contains(log.String(), "the rules' evaluation") {
		t.Errorf("stats %+v, log %q; want 3 games of generation 0 with the rules", st, log.String())
	}
	n, err := RemotePositions(filepath.Join(dir, dataDir), 0)
	if err != nil || n != st.Positions {
		t.Errorf("remote positions on disk %d, %v; want %d", n, err, st.Positions)
	}
	names, err := data.ShardNames(filepath.Join(dir, dataDir))
	if err != nil || len(names) != 2 { // ShardGames 2: a shard of 2 games and one of 1
		t.Errorf("shards %v, %v; want 2", names, err)
	}
	if err := Run(context.Background(), dir, cfg, Options{Progress: &log, Warnings: &log}); err != nil {
		t.Fatal(err)
	}
	ms, _, err := ReadMetrics(dir)
	if err != nil || len(ms) != 1 || ms[0].RemotePositions != st.Positions {
		t.Errorf("metrics %+v, %v; want generation 0 with %d remote positions", ms, err, st.Positions)
	}
	if st, err = SelfPlay(context.Background(), dir, 1, &log); err != nil || st.Generation != 1 {
		t.Errorf("after generation 0: %+v, %v; want generation 1", st, err)
	}
	if _, err := SelfPlay(context.Background(), t.TempDir(), 1, &log); err == nil || !strings.Contains(err.Error(), "is not a run directory") {
		t.Errorf("an empty directory: %v", err)
	}
	conv := t.TempDir()
	if err := rundir.Mark(conv, rundir.Marker{Kind: rundir.Conv, Game: "trench"}); err != nil {
		t.Fatal(err)
	}
	if _, err := SelfPlay(context.Background(), conv, 1, &log); !errors.Is(err, rundir.ErrOtherKind) {
		t.Errorf("a conv-net run: %v, want ErrOtherKind", err)
	}
	if _, err := SelfPlay(context.Background(), dir, -1, &log); err == nil {
		t.Error("-1 games accepted")
	}
}
