package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"trench/training"
	"trench/training/natsrun"
)

// selfplayOverNATS runs a self-play worker of the run named runName on a
// NATS server.
func selfplayOverNATS(settings *training.Flags, nf *natsrun.Flags, runName string, w natsrun.Worker, stdout, stderr io.Writer) error {
	if _, err := natsrun.NamesFor(runName); err != nil {
		return usage("%w", err)
	}
	if w.Name == "" {
		host, err := os.Hostname()
		if err != nil {
			host = "worker"
		}
		w.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	w.Log = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	nc, err := nf.Connect("trench selfplay "+w.Name, stderr, true)
	if err != nil {
		return usage("%w", err)
	}
	defer nc.Close()
	run, err := natsrun.WaitOpen(ctx, nc, runName, func() {
		fmt.Fprintf(stderr, "waiting for run %s to appear on %s (start it with trench train --nats)\n", runName, nf.URL())
	})
	if err != nil {
		return err
	}
	cfg, err := workerConfig(ctx, run, settings)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "worker %s joins run %s: %s, net %s, %d self-play workers × %d games\n", w.Name, runName, cfg.Game, cfg.Net, cfg.Workers, cfg.GamesPerWorker)
	n, published, err := w.Work(ctx, run, cfg)
	fmt.Fprintf(stdout, "%d games played, %d shards published\n", n, published)
	return err
}

// workerConfig is the run's config with the settings the user gave laid
// over it, after checking that the worker's game, net and shard format
// match.
func workerConfig(ctx context.Context, run *natsrun.Run, settings *training.Flags) (training.Config, error) {
	given := settings.Given()
	saved, err := run.SavedConfig(ctx, natsrun.Meta{Game: given.Game, Net: given.Net})
	if errors.Is(err, natsrun.ErrRefused) {
		return training.Config{}, usage("%w", err)
	}
	if err != nil {
		return training.Config{}, err
	}
	cfg, err := settings.Over(saved)
	if err != nil {
		return training.Config{}, usage("%w", err)
	}
	return cfg, nil
}
