package main

// trench train --preset nnue: the NNUE's generation loop (package
// training/generations) in place of the AlphaZero loop, chosen by the preset
// or by a run directory that holds such a run.

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/pflag"

	"trench/training/generations"
	"trench/training/natsrun"
	"trench/training/rundir"
)

var trainNNUECommand = command{
	name:    "train",
	summary: "train an NNUE for alpha-beta, generation by generation (--preset nnue)",
	usage:   helpText("train-nnue"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		dir := fs.String("run", "", "the run directory (created if new, resumed if not)")
		nf := natsrun.BindFlags(fs, "also meet data generation workers on this NATS JetStream server, e.g. nats://host:4222")
		natsRun := fs.String("nats-run", "", "the run's name on the NATS server (default: DIR's last element)")
		noSelfPlay := fs.Bool("no-selfplay", false, "with --nats, play no games in this process: the workers play them all")
		maxLag := fs.Int("max-data-lag", 0, "with --nats, refuse workers' shards played more than this many generations before the one in progress (0: none)")
		settings := generations.BindFlags(fs)
		return func(_ []string, _, stderr io.Writer) error {
			if *dir == "" {
				return usage("--run DIR is required")
			}
			if *maxLag < 0 {
				return usage("--max-data-lag must not be negative, got %d", *maxLag)
			}
			if nf.URL() == "" && (*natsRun != "" || *maxLag != 0 || *noSelfPlay) {
				return usage("--nats-run, --max-data-lag and --no-selfplay need --nats URL")
			}
			runName := *natsRun
			if runName == "" {
				runName = filepath.Base(filepath.Clean(*dir))
			}
			if nf.URL() != "" {
				if _, err := natsrun.NamesFor(runName); err != nil {
					return usage("%w (name the run on the server with --nats-run)", err)
				}
			}
			cfg, changed, err := settings.Config()
			if err != nil {
				return usage("%w", err)
			}
			lock, err := rundir.Lock(*dir)
			if err != nil {
				return err
			}
			defer lock.Release()
			cfg, err = generations.Prepare(*dir, cfg, changed)
			if err != nil {
				return usage("%w", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(stderr, "training a %s NNUE in %s: %d hidden units, %d positions a generation at %d-%d nodes a move, %d workers (Ctrl-C stops cleanly)\n",
				cfg.Game, *dir, cfg.Hidden, cfg.Positions, cfg.SoftNodes, cfg.HardNodes, cfg.Workers)
			opt := generations.Options{Progress: stderr, Warnings: stderr, Bars: isTerminal(stderr), NoLocal: *noSelfPlay}
			if nf.URL() == "" {
				return generations.Run(ctx, *dir, cfg, opt)
			}
			nc, err := nf.Connect("trench train "+runName, stderr, false)
			if err != nil {
				return err
			}
			defer nc.Close()
			return natsrun.TrainNNUE(ctx, nc, runName, *dir, cfg, uint64(*maxLag), opt)
		}
	},
}

// wantsNNUE tells whether the arguments of trench train ask for the NNUE
// loop: --preset nnue, or no preset and a --run directory holding an
// NNUE run.
func wantsNNUE(args []string) bool {
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	fs.SetOutput(io.Discard)
	preset, dir := fs.String("preset", "", ""), fs.String("run", "", "")
	fs.Usage = func() {}
	_ = fs.Parse(args) // the train command's own parse reports errors
	if *preset != "" || *dir == "" {
		return *preset == generations.PresetName
	}
	// A directory that cannot be read as a run, or another preset, goes
	// to the AlphaZero loop, whose Prepare reports why.
	kind, err := rundir.Holds(*dir)
	return err == nil && kind == rundir.NNUE
}
