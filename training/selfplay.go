package training

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"trench/checkpoints"
	"trench/games"
	"trench/neteval"
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
	use := func(net *neteval.Net) error {
		ev, err := neteval.NewWithScoreUtility(g, net.Inference, cfg.ScoreUtility)
		if err != nil {
			return fmt.Errorf("%s: %w", net.Source, err)
		}
		r.net.Store(&selfplay.Net{Name: filepath.Base(net.Source), Eval: cfg.SearchEvaluator(g, ev)})
		return nil
	}
	if opt.Nets != nil {
		prog := startPlayProgress(ctx, opt.Options, r.stats, opt.Games)
		defer prog.finish()
		return r.playFrom(ctx, opt, prog, func(c *checkpoints.Checkpoint) error {
			net, err := neteval.NetFromCheckpoint(g, c)
			if err != nil {
				return err
			}
			return use(net)
		})
	}
	// load loads a checkpoint file, or a run directory's newest checkpoint
	// that loads.
	load := func(ref string) error {
		net, err := neteval.LoadNet(g, ref)
		if err != nil {
			return err
		}
		net.WarnPassed(opt.Warnings)
		return use(net)
	}
	ref := opt.Checkpoint
	if ref == "" {
		ref = dir
	}
	if ref == "" {
		return 0, errors.New("self-play needs a run directory or a checkpoint")
	}
	if err := load(ref); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prog := startPlayProgress(ctx, opt.Options, r.stats, opt.Games)
	defer prog.finish()
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
						prog.println("self-play now uses %s", filepath.Base(latest))
					}
				}
			}
		}()
	}
	return r.playInto(ctx, out, opt.Games, nil)
}

// playFrom plays with the nets opt.Nets delivers.
func (r *runner) playFrom(ctx context.Context, opt SelfPlayOptions, prog *playProgress, use func(*checkpoints.Checkpoint) error) (int, error) {
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
					prog.println("self-play now uses %s", r.net.Load().Name)
				}
			}
		}
	}()
	return r.playInto(ctx, opt.Out, opt.Games, nil)
}
