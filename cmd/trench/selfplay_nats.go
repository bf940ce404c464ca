package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"trench/training"
	"trench/training/natsrun"
)

// selfplayOverNATS runs a self-play worker of the run named runName on a
// NATS server.
func selfplayOverNATS(settings *trainFlags, nf *natsrun.Flags, runName string, w natsrun.Worker, stdout, stderr io.Writer) error {
	if _, err := natsrun.NamesFor(runName); err != nil {
		return &exitError{2, err}
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
		return &exitError{2, err}
	}
	defer nc.Close()
	run, err := natsrun.WaitOpen(ctx, nc, runName, func() {
		fmt.Fprintf(stderr, "waiting for run %s to appear on %s (start it with trench train --nats)\n", runName, nf.URL())
	})
	if err != nil {
		return err
	}
	if meta, err := run.Meta(ctx); err != nil {
		return err
	} else if meta.Kind == natsrun.KindNNUE {
		return nnueWorker(ctx, run, settings, w, stdout, stderr)
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
func workerConfig(ctx context.Context, run *natsrun.Run, settings *trainFlags) (training.Config, error) {
	given := settings.Given()
	saved, err := run.SavedConfig(ctx, natsrun.Meta{Game: given.Game, Net: given.Net})
	if errors.Is(err, natsrun.ErrRefused) {
		return training.Config{}, &exitError{2, err}
	}
	if err != nil {
		return training.Config{}, err
	}
	cfg, err := settings.Over(saved)
	if err != nil {
		return training.Config{}, &exitError{2, err}
	}
	return cfg, nil
}

// nnueWorker runs a data generation worker of an NNUE run: the run's
// settings, with --workers alone taken from the command line.
func nnueWorker(ctx context.Context, run *natsrun.Run, settings *trainFlags, w natsrun.Worker, stdout, stderr io.Writer) error {
	var none training.Config
	changed := settings.lay(&none, settings.Given())
	if extra := slices.DeleteFunc(changed, func(name string) bool { return name == "workers" }); len(extra) > 0 {
		return &exitError{2, fmt.Errorf("run %s is an NNUE run, whose workers take only --workers of the settings; drop --%s", run.Run, strings.Join(extra, ", --"))}
	}
	cfg, err := run.SavedNNUEConfig(ctx)
	if errors.Is(err, natsrun.ErrRefused) {
		return &exitError{2, err}
	}
	if err != nil {
		return err
	}
	nw := natsrun.NNUEWorker{Name: w.Name, Buffer: w.Buffer, Games: w.Games, Workers: settings.Given().Workers, Log: stderr}
	workers := cfg.Workers
	if nw.Workers > 0 {
		workers = nw.Workers
	}
	fmt.Fprintf(stderr, "worker %s joins NNUE run %s: %d games at a time, %d-%d nodes a move\n", w.Name, run.Run, workers, cfg.SoftNodes, cfg.HardNodes)
	n, published, err := nw.Work(ctx, run, cfg)
	fmt.Fprintf(stdout, "%d games played, %d shards published\n", n, published)
	return err
}
