package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"trench/training"
	"trench/training/natsrun"
)

var selfplayCommand = command{
	name:    "selfplay",
	summary: "play self-play games only, writing training data",
	usage:   helpText("selfplay"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		dir := fs.String("run", "", "the run directory whose latest checkpoint plays (with --nats: the run's name on the server)")
		nf := natsrun.BindFlags(fs, "be a worker of a run on this NATS JetStream server, e.g. nats://host:4222")
		worker := fs.String("name", "", "with --nats, this worker's name (default: host name and process id)")
		buffer := fs.Int("buffer", 64, "with --nats, shards kept while the server is away before self-play pauses")
		ckpt := fs.String("checkpoint", "", "play this checkpoint file instead of the run's latest")
		out := fs.String("out", "", "write shards here (default: the run's datasets folder)")
		games := fs.Int("games", 0, "stop after this many games (0: until interrupted)")
		settings := training.BindFlags(fs)
		return func(_ []string, stdout, stderr io.Writer) error {
			if nf.URL() != "" {
				if *dir == "" || *ckpt != "" || *out != "" {
					return usage("with --nats give --run NAME, and neither --checkpoint nor --out")
				}
				if *buffer < 1 {
					return usage("--buffer must be at least 1, got %d", *buffer)
				}
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				n, published, err := nf.Join(ctx, *dir, natsrun.Worker{Name: *worker, Buffer: *buffer, Games: *games, Log: stderr, Bars: isTerminal(stderr)}, settings)
				if errors.Is(err, natsrun.ErrUsage) {
					return usage("%w", err)
				}
				fmt.Fprintf(stdout, "%d games played, %d shards published\n", n, published)
				return err
			}
			if *dir == "" && (*ckpt == "" || *out == "") {
				return usage("give --run DIR, or --checkpoint FILE with --out DIR")
			}
			if *games < 0 {
				return usage("--games must not be negative, got %d", *games)
			}
			cfg, err := settings.ForRun(*dir)
			if err != nil {
				return usage("%w", err)
			}
			if *out != "" {
				if err := os.MkdirAll(*out, 0o755); err != nil {
					return usage("%w", err)
				}
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			n, err := training.SelfPlay(ctx, *dir, cfg, training.SelfPlayOptions{
				Options:    training.Options{Progress: stderr, Warnings: stderr, Bars: isTerminal(stderr)},
				Checkpoint: *ckpt, Out: *out, Games: *games,
			})
			fmt.Fprintf(stdout, "%d games written\n", n)
			return err
		}
	},
}
