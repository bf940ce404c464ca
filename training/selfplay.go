package training

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"trench/checkpoints"
	"trench/games"
	"trench/neteval"
	"trench/nn"
	"trench/selfplay"
)

// SelfPlayOptions direct a self-play-only process.
type SelfPlayOptions struct {
	Options
	// Checkpoint is a fixed net to play with; empty follows the run's
	// latest checkpoint, taking up each new one at game boundaries.
	Checkpoint string
	// Out is the folder shards are written to; empty is the run's
	// datasets folder.
	Out string
	// Games stops after this many games; 0 plays until ctx is done.
	Games int
}

// SelfPlay plays games only, writing shards for a trainer running in
// another process ("trench train --no-selfplay"). It returns the number of
// games written.
func SelfPlay(ctx context.Context, dir string, cfg Config, opt SelfPlayOptions) (int, error) {
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return 0, err
	}
	r := &runner{dir: dir, cfg: cfg, opt: opt.Options, game: g, start: time.Now()}
	out := opt.Out
	if out == "" {
		out = r.datasetDir()
	}
	load := func(path string) error {
		c, err := checkpoints.Load(path)
		if err != nil {
			return err
		}
		w, err := nn.WeightsFromCheckpoint(c, g.FeatureShape(), g.ActionCount())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		inf, err := nn.NewInference(w)
		if err != nil {
			return err
		}
		ev, err := neteval.NewWithScoreUtility(g, inf, cfg.ScoreUtility)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r.net.Store(&selfplay.Net{Name: filepath.Base(path), Eval: cfg.SearchEvaluator(ev)})
		return nil
	}
	path := opt.Checkpoint
	if path == "" {
		c, passed, err := checkpoints.LoadNewest(dir, func(c *checkpoints.Checkpoint) error {
			_, err := nn.WeightsFromCheckpoint(c, g.FeatureShape(), g.ActionCount())
			return err
		})
		if err != nil {
			return 0, err
		}
		for _, p := range passed {
			fmt.Fprintf(opt.Warnings, "warning: passing over %v\n", p.Err)
		}
		path = c.Path
	}
	if err := load(path); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opt.Checkpoint == "" {
		go func() {
			failed := "" // the newest checkpoint, which did not load
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(2 * time.Second):
				}
				if latest, err := checkpoints.Latest(dir); err == nil && filepath.Base(latest) != r.net.Load().Name && latest != failed {
					if err := load(latest); err != nil {
						fmt.Fprintf(opt.Warnings, "warning: keeping %s: %v\n", r.net.Load().Name, err)
						failed = latest
					} else {
						fmt.Fprintf(opt.Progress, "self-play now uses %s\n", filepath.Base(latest))
					}
				}
			}
		}()
	}
	return r.playInto(ctx, out, opt.Games, nil)
}
