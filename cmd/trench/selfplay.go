package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"trench/checkpoints"
	"trench/training"
	"trench/training/generations"
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
			if h, err := checkpoints.Identify(*dir); err == nil && h == checkpoints.NNUERun {
				return nnueSelfPlay(fs, *dir, *games, stdout, stderr)
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

// nnueSelfPlay plays games for an NNUE run (generations.SelfPlay): the
// generation in progress, with the run's newest accepted net, into the
// run's data folder. The AlphaZero loop's flags do not apply to it.
func nnueSelfPlay(fs *pflag.FlagSet, dir string, games int, stdout, stderr io.Writer) error {
	var wrong []string
	fs.Visit(func(f *pflag.Flag) {
		if f.Name != "run" && f.Name != "games" {
			wrong = append(wrong, "--"+f.Name)
		}
	})
	if len(wrong) > 0 {
		return usage("%s is a run of trench train --preset nnue, which takes --run and --games alone, not %s", dir, strings.Join(wrong, ", "))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := generations.SelfPlay(ctx, dir, games, stderr)
	fmt.Fprintf(stdout, "%d games played, %d positions written for generation %d\n", st.Games, st.Positions, st.Generation)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}
