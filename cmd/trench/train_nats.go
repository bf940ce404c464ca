package main

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

	"trench/checkpoints"
	"trench/datasets"
	"trench/games"
	"trench/natsrun"
	"trench/training"
)

// trainOverNATS runs training as training.Run does, and meets workers on
// a NATS server: each checkpoint self-play takes up is published to the
// run, and the shards workers publish are written into DIR/datasets.
func trainOverNATS(ctx context.Context, dir, runName string, maxLag int, nf *natsFlags, cfg training.Config, opt training.Options, stderr io.Writer) error {
	if runName == "" {
		runName = filepath.Base(filepath.Clean(dir))
	}
	if _, err := natsrun.NamesFor(runName); err != nil {
		return &exitError{2, fmt.Errorf("%w (name the run on the server with --nats-run)", err)}
	}
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return err
	}
	nc, err := nf.connect("trench train "+runName, stderr, false)
	if err != nil {
		return err
	}
	defer nc.Close()
	raw, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	run, err := natsrun.Create(cctx, nc, runName, natsrun.Meta{
		Game: cfg.Game, Net: cfg.Net, FormatVersion: datasets.FormatVersion, Steps: cfg.Steps, Config: raw,
	})
	cancel()
	if err != nil {
		return err
	}
	nets := natsrun.NewNetPublisher(run, stderr)
	opt.Published = func(c *checkpoints.Checkpoint) error {
		data, err := os.ReadFile(c.Path)
		if err != nil {
			return err
		}
		nets.Offer(c.Step, filepath.Base(c.Path), data)
		return nil
	}
	ctx, stopTraining := context.WithCancel(ctx)
	defer stopTraining()
	bg, stopBackground := context.WithCancel(context.Background())
	var (
		wg         sync.WaitGroup
		consumeErr error
		stats      natsrun.ConsumeStats
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		nets.Run(bg, 10*time.Second)
	}()
	go func() {
		defer wg.Done()
		consumeErr = run.Consume(bg, natsrun.ConsumeOptions{
			Dir: filepath.Join(dir, "datasets"), Game: g, MaxLag: uint64(maxLag), Step: nets.Step, Warnings: stderr,
		}, &stats)
		if consumeErr != nil {
			stopTraining()
		}
	}()
	fmt.Fprintf(stderr, "run %s is on the NATS server %s; workers join with: trench selfplay --nats URL --run %s\n", runName, nc.ConnectedUrlRedacted(), runName)
	err = training.Run(ctx, dir, cfg, opt)
	stopBackground()
	wg.Wait()
	fmt.Fprintf(stderr, "%d shards taken from workers, %d refused\n", stats.Written.Load(), stats.Refused.Load())
	return errors.Join(err, consumeErr)
}
