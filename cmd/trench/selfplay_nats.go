package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"trench/checkpoints"
	"trench/datasets"
	"trench/games"
	"trench/natsrun"
	"trench/selfplay"
	"trench/training"
)

// natsWorker is what "trench selfplay --nats" was asked to do.
type natsWorker struct {
	run, name string
	buffer    int
	games     int
}

// selfplayOverNATS runs a self-play worker of a run on a NATS server.
func selfplayOverNATS(fs *pflag.FlagSet, flags training.Config, nf *natsFlags, w natsWorker, stdout, stderr io.Writer) error {
	if _, err := natsrun.NamesFor(w.run); err != nil {
		return &exitError{2, err}
	}
	if w.name == "" {
		host, err := os.Hostname()
		if err != nil {
			host = "worker"
		}
		w.name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	nc, err := nf.connect("trench selfplay "+w.name, stderr, true)
	if err != nil {
		return &exitError{2, err}
	}
	defer nc.Close()
	run, err := natsrun.WaitOpen(ctx, nc, w.run, func() {
		fmt.Fprintf(stderr, "waiting for run %s to appear on %s (start it with trench train --nats)\n", w.run, *nf.url)
	})
	if err != nil {
		return err
	}
	cfg, err := workerConfig(ctx, run, fs, flags)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "worker %s joins run %s: %s, net %s, %d self-play workers × %d games\n", w.name, w.run, cfg.Game, cfg.Net, cfg.Workers, cfg.GamesPerWorker)

	pub := natsrun.NewPublisher(run, w.name, w.buffer, stderr)
	pubCtx, stopPub := context.WithCancel(context.Background())
	defer stopPub()
	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		pub.Run(pubCtx)
	}()

	var (
		wg      sync.WaitGroup
		current atomic.Value // the name of the checkpoint playing
		stats   selfplay.Stats
		nets    = make(chan *checkpoints.Checkpoint)
	)
	current.Store("")
	bg, stopBackground := context.WithCancel(ctx)
	wg.Add(2)
	go func() {
		defer wg.Done()
		run.Follow(bg, 2*time.Second, stderr, func(c natsrun.Checkpoint, data []byte) {
			ck, err := checkpoints.Decode(data, c.Name)
			if err != nil {
				fmt.Fprintf(stderr, "warning: keeping the current net: %v\n", err)
				return
			}
			select {
			case nets <- ck:
				current.Store(c.Name)
			case <-bg.Done():
			}
		})
	}()
	go func() {
		defer wg.Done()
		started := time.Now()
		var lastPositions int64
		last := started
		for {
			now := time.Now()
			positions := stats.Positions.Load()
			rate := float64(positions-lastPositions) / now.Sub(last).Seconds()
			lastPositions, last = positions, now
			hb := natsrun.Heartbeat{
				Worker: w.name, Games: stats.Games.Load(), Positions: positions, PositionsPerSecond: rate,
				Checkpoint: current.Load().(string), Published: pub.Published(), Buffered: pub.Buffered(), Paused: pub.Paused(),
				Started: started.UTC(),
			}
			hctx, cancel := context.WithTimeout(bg, 5*time.Second)
			run.Beat(hctx, hb)
			cancel()
			select {
			case <-bg.Done():
				return
			case <-time.After(5 * time.Second):
			}
		}
	}()
	n, playErr := training.SelfPlay(ctx, "", cfg, training.SelfPlayOptions{
		Options: training.Options{Progress: stderr, Warnings: stderr},
		Games:   w.games, Nets: nets, Stats: &stats,
		Shards: func(data []byte, step uint64) error { return pub.Add(ctx, data, step) },
	})
	stopBackground()
	wg.Wait()
	pub.Close()
	select {
	case <-pubDone:
	case <-time.After(time.Minute):
		stopPub()
		<-pubDone
	}
	lctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	run.Leave(lctx, w.name)
	cancel()
	fmt.Fprintf(stdout, "%d games played, %d shards published\n", n, pub.Published())
	if left := pub.Buffered(); left > 0 {
		playErr = errors.Join(playErr, fmt.Errorf("%d shards could not be published: the NATS server did not answer for a minute", left))
	}
	return playErr
}

// workerConfig is the run's config with the flags the user set laid over
// it, after checking that the worker's game, net and shard format match.
func workerConfig(ctx context.Context, run *natsrun.Run, fs *pflag.FlagSet, flags training.Config) (training.Config, error) {
	meta, err := run.Meta(ctx)
	if err != nil {
		return training.Config{}, err
	}
	want := natsrun.Meta{FormatVersion: datasets.FormatVersion}
	if fs.Changed("game") {
		want.Game = flags.Game
	}
	if fs.Changed("net") {
		want.Net = flags.Net
	}
	if err := meta.Mismatch(want); err != nil {
		return training.Config{}, &exitError{2, fmt.Errorf("refusing run %s: %w: %w", run.Run, natsrun.ErrMismatch, err)}
	}
	if _, err := games.ByName(meta.Game); err != nil {
		return training.Config{}, &exitError{2, fmt.Errorf("refusing run %s: %w", run.Run, err)}
	}
	var saved training.Config
	if err := json.Unmarshal(meta.Config, &saved); err != nil {
		return training.Config{}, fmt.Errorf("run %s: malformed config on the server: %w", run.Run, err)
	}
	cfg, _, err := configFromFlags(fs, flags)
	if err != nil {
		return training.Config{}, &exitError{2, err}
	}
	cfg, err = overlayFlags(fs, saved, cfg)
	if err != nil {
		return training.Config{}, &exitError{2, err}
	}
	return cfg, nil
}
