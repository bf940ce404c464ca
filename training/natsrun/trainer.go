package natsrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"trench/checkpoints"
	"trench/datasets"
	"trench/games"
	"trench/training"
)

// Train runs training as training.Run does in the run directory dir, and
// meets the run's workers on the server nc reaches: it creates the run
// called name there (or checks the one there), publishes each checkpoint
// self-play takes up, and writes the shards workers publish into
// dir/datasets, refusing those played by checkpoints more than maxLag
// steps old (0: none). Progress goes to opt.Progress and warnings to
// opt.Warnings.
func Train(ctx context.Context, nc *nats.Conn, name, dir string, cfg training.Config, maxLag uint64, opt training.Options) error {
	progress, warn := opt.Progress, opt.Warnings
	if progress == nil {
		progress = io.Discard
	}
	if warn == nil {
		warn = io.Discard
	}
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	run, err := Create(cctx, nc, name, Meta{
		Game: cfg.Game, Net: cfg.Net, FormatVersion: datasets.FormatVersion, Steps: cfg.LastStep(), Config: raw,
	})
	cancel()
	if err != nil {
		return err
	}
	nets := NewNetPublisher(run, warn)
	opt.Published = func(c *checkpoints.Checkpoint) error {
		data, err := os.ReadFile(c.Path)
		if err != nil {
			return err
		}
		nets.Offer(c.Step, filepath.Base(c.Path), data)
		return nil
	}
	return run.meet(ctx, progress, func(bg context.Context) { nets.Run(bg, 10*time.Second) },
		ConsumeOptions{Dir: filepath.Join(dir, "datasets"), Game: g, MaxLag: maxLag, Step: nets.Step, Warnings: warn},
		func(ctx context.Context) error { return training.Run(ctx, dir, cfg, opt) })
}

// meet runs train while, in the background, announce publishes to the
// run what the trainer offers its workers and Consume with opt takes in
// their shards; an intake that fails stops training. It tells progress
// how workers join and, at the end, how many shards it took.
func (r *Run) meet(ctx context.Context, progress io.Writer, announce func(context.Context), opt ConsumeOptions, train func(context.Context) error) error {
	ctx, stopTraining := context.WithCancel(ctx)
	defer stopTraining()
	bg, stopBackground := context.WithCancel(context.Background())
	var (
		wg         sync.WaitGroup
		consumeErr error
		stats      ConsumeStats
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		announce(bg)
	}()
	go func() {
		defer wg.Done()
		consumeErr = r.Consume(bg, opt, &stats)
		if consumeErr != nil {
			stopTraining()
		}
	}()
	fmt.Fprintf(progress, "run %s is on the NATS server %s; workers join with: trench selfplay --nats URL --run %s\n", r.Run, r.nc.ConnectedUrlRedacted(), r.Run)
	err := train(ctx)
	stopBackground()
	wg.Wait()
	fmt.Fprintf(progress, "%d shards taken from workers, %d refused\n", stats.Written.Load(), stats.Refused.Load())
	return errors.Join(err, consumeErr)
}
