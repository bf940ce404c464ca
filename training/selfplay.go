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
	// Nets, if set, replaces the run directory as the source of nets:
	// play starts with the first checkpoint received and takes up each
	// later one at game boundaries (one that does not load is skipped
	// with a warning).
	Nets <-chan *checkpoints.Checkpoint
	// Shards, if set, receives each shard's encoded bytes and the step of
	// the oldest checkpoint that played its games, instead of Out.
	Shards func(data []byte, step uint64) error
	// Stats, if set, counts the games and positions played.
	Stats *selfplay.Stats
}

// SelfPlay plays games only, writing shards for a trainer running in
// another process ("trench train --no-selfplay"). It returns the number of
// games written.
func SelfPlay(ctx context.Context, dir string, cfg Config, opt SelfPlayOptions) (int, error) {
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return 0, err
	}
	r := &runner{dir: dir, cfg: cfg, opt: opt.Options, game: g, start: time.Now(), shards: opt.Shards, stats: opt.Stats}
	if r.stats == nil {
		r.stats = new(selfplay.Stats)
	}
	out := opt.Out
	if out == "" {
		out = r.datasetDir()
	}
	use := func(c *checkpoints.Checkpoint) error {
		path := c.Path
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
	if opt.Nets != nil {
		return r.playFrom(ctx, opt, use)
	}
	load := func(path string) error {
		c, err := checkpoints.Load(path)
		if err != nil {
			return err
		}
		return use(c)
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

// playFrom plays with the nets opt.Nets delivers.
func (r *runner) playFrom(ctx context.Context, opt SelfPlayOptions, use func(*checkpoints.Checkpoint) error) (int, error) {
	select {
	case <-ctx.Done():
		return 0, nil
	case c := <-opt.Nets:
		if err := use(c); err != nil {
			return 0, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case c := <-opt.Nets:
				if err := use(c); err != nil {
					fmt.Fprintf(opt.Warnings, "warning: keeping %s: %v\n", r.net.Load().Name, err)
				} else {
					fmt.Fprintf(opt.Progress, "self-play now uses %s\n", r.net.Load().Name)
				}
			}
		}
	}()
	return r.playInto(ctx, opt.Out, opt.Games, nil)
}
