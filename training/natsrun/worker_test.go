package natsrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"trench/datasets"
)

func TestSavedConfig(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	nc := connect(t, s)
	ctx := context.Background()
	meta := testMeta()
	meta.Config = []byte(`{"game":"trench","net":"tiny","steps":30}`)
	r, err := Create(ctx, nc, "saved", meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		want    Meta
		refused string
	}{
		{Meta{}, ""},
		{Meta{Game: "trench", Net: "tiny"}, ""},
		{Meta{Game: "trichess"}, "the run plays trench, this worker trichess"},
		{Meta{Net: "large"}, "the run's net is tiny, this worker's large"},
		{Meta{FormatVersion: datasets.FormatVersion + 1}, ""}, // the worker's own format is checked, not this one
	} {
		cfg, err := r.SavedConfig(ctx, tc.want)
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("SavedConfig(%+v): %v", tc.want, err)
		case tc.refused == "" && (cfg.Game != "trench" || cfg.Net != "tiny" || cfg.Steps != 30):
			t.Errorf("SavedConfig(%+v) = %+v, want the saved config", tc.want, cfg)
		case tc.refused != "" && (!errors.Is(err, ErrRefused) || !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("SavedConfig(%+v): %v, want a refusal saying %q", tc.want, err, tc.refused)
		}
	}

	for _, tc := range []struct {
		name    string
		meta    Meta
		refused bool
		says    string
	}{
		{"unknowngame", Meta{Game: "go", Net: "tiny", FormatVersion: datasets.FormatVersion, Config: []byte(`{}`)}, true, "go"},
		{"badconfig", Meta{Game: "trench", Net: "tiny", FormatVersion: datasets.FormatVersion, Config: []byte(`{"steps":"many"}`)}, false, "malformed config on the server"},
	} {
		r, err := Create(ctx, nc, tc.name, tc.meta)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.SavedConfig(ctx, Meta{})
		if err == nil || errors.Is(err, ErrRefused) != tc.refused || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: SavedConfig: %v, want refused %v saying %q", tc.name, err, tc.refused, tc.says)
		}
	}
}

func TestStatusPrint(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	meta := testMeta()
	for _, tc := range []struct {
		name string
		st   Status
		want string
	}{
		{"new", Status{Meta: Meta{Game: "trench", Net: "tiny", FormatVersion: 3}},
			"run r: trench, net tiny, shard format 3\n" +
				"checkpoint: none yet (steps no end)\n" +
				"shards: 0 published by workers (0.0 MB), 0 not yet taken by the trainer\n" +
				"workers: 0 live\n"},
		{"working", Status{Meta: meta, Latest: &Checkpoint{Name: "ckpt-000010.tnet", Step: 10, Time: now.Add(-90 * time.Second)},
			Shards: 12, Bytes: 2_500_000, Waiting: 2, Workers: []Heartbeat{
				{Worker: "a-1", Games: 40, Positions: 3000, PositionsPerSecond: 12.25, Checkpoint: "ckpt-000010.tnet", Published: 10, Buffered: 0,
					Started: now.Add(-time.Hour), Time: now.Add(-3 * time.Second)},
				{Worker: "b-22", Games: 5, Positions: 400, PositionsPerSecond: 1, Checkpoint: "ckpt-000000.tnet", Published: 2, Buffered: 64, Paused: true,
					Started: now.Add(-time.Minute), Time: now.Add(-1 * time.Second)},
			}},
			fmt.Sprintf("run r: trench, net tiny, shard format %d\n", datasets.FormatVersion) +
				"checkpoint: ckpt-000010.tnet, step 10 of 30, published 1m30s ago\n" +
				"shards: 12 published by workers (2.5 MB), 2 not yet taken by the trainer\n" +
				"workers: 2 live\n" +
				"  WORKER  GAMES  POSITIONS  POS/S  CHECKPOINT        PUBLISHED  BUFFERED     UP      SEEN\n" +
				"  a-1     40     3000       12.2   ckpt-000010.tnet  10         0            1h0m0s  3s ago\n" +
				"  b-22    5      400        1.0    ckpt-000000.tnet  2          64 (paused)  1m0s    1s ago\n"},
		{"nnue", Status{Meta: Meta{Kind: KindNNUE, Game: "trench", Net: "nnue-128", FormatVersion: 1, Steps: 20},
			Generation: &Generation{Generation: 3, Player: "gen-000002.nnue", Time: now.Add(-5 * time.Second)}, Shards: 4, Bytes: 100_000,
			Workers: []Heartbeat{{Worker: "c", Games: 8, Positions: 700, PositionsPerSecond: 30, Checkpoint: "g3: gen-000002.nnue", Published: 4,
				Started: now.Add(-time.Minute), Time: now}}},
			"run r: NNUE of trench, net nnue-128, position shard format 1\n" +
				"generation: 3 of 20, played by gen-000002.nnue, announced 5s ago\n" +
				"shards: 4 published by workers (0.1 MB), 0 not yet taken by the trainer\n" +
				"workers: 1 live\n" +
				"  WORKER  GAMES  POSITIONS  POS/S  CHECKPOINT           PUBLISHED  BUFFERED  UP    SEEN\n" +
				"  c       8      700        30.0   g3: gen-000002.nnue  4          0         1m0s  0s ago\n"},
		{"nnue, new", Status{Meta: Meta{Kind: KindNNUE, Game: "trench", Net: "nnue-128", FormatVersion: 1}},
			"run r: NNUE of trench, net nnue-128, position shard format 1\n" +
				"generation: none yet (generations no end)\n" +
				"shards: 0 published by workers (0.0 MB), 0 not yet taken by the trainer\n" +
				"workers: 0 live\n"},
	} {
		var b strings.Builder
		tc.st.Print(&b, "r", now)
		if b.String() != tc.want {
			t.Errorf("%s: Print wrote\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
	}
}
