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

	"trench/games"
	"trench/training"
	"trench/training/natsrun"
	"trench/training/rundir"
)

var trainCommand = command{
	name:    "train",
	summary: "train an AI from scratch by self-play (the main job)",
	usage:   helpText("train"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		dir := fs.String("run", "", "the run directory (created if new, resumed if not)")
		noSelfPlay := fs.Bool("no-selfplay", false, "train only on data written by a separate self-play process")
		nf := natsrun.BindFlags(fs, "also meet self-play workers on this NATS JetStream server, e.g. nats://host:4222")
		natsRun := fs.String("nats-run", "", "the run's name on the NATS server (default: DIR's last element)")
		trainThreads := fs.Int("train-threads", 0, "goroutines each training step's matrix products are split over (0: one beside this process's self-play, every core while the replay ratio holds it back or with --no-selfplay); does not change what is learned")
		maxLag := fs.Int("max-data-lag", 0, "with --nats, refuse workers' shards played by checkpoints more than this many steps old (0: none)")
		settings := training.BindFlags(fs)
		return func(_ []string, stdout, stderr io.Writer) error {
			if *dir == "" {
				return usage("--run DIR is required")
			}
			if *trainThreads < 0 {
				return usage("--train-threads must not be negative, got %d", *trainThreads)
			}
			if *maxLag < 0 {
				return usage("--max-data-lag must not be negative, got %d", *maxLag)
			}
			if nf.URL() == "" && (*natsRun != "" || *maxLag != 0) {
				return usage("--nats-run and --max-data-lag need --nats URL")
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
			cfg, err = training.Prepare(*dir, cfg, changed)
			if err != nil {
				return usage("%w", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			teacher := ""
			if cfg.TeacherSteps > 0 {
				teacher = fmt.Sprintf(", without the net until step %d", cfg.TeacherSteps)
			}
			g, err := games.ByName(cfg.Game)
			if err != nil {
				return usage("%w", err)
			}
			if _, doc, err := cfg.ClassicalTeacher(g); err != nil {
				return usage("%w", err)
			} else if doc != "" && cfg.RelabelSteps > 0 {
				teacher += fmt.Sprintf("; then the window's positions relabelled by %s, and %d steps on them", doc, cfg.RelabelSteps)
			} else if doc != "" {
				teacher += ", positions labelled by " + doc
			}
			fmt.Fprintf(stderr, "training %s in %s: preset %s, net %s, %d self-play workers × %d games, %s search %d/%d simulations%s (Ctrl-C stops cleanly)\n",
				cfg.Game, *dir, cfg.Preset, cfg.Net, cfg.Workers, cfg.GamesPerWorker, cfg.Search, cfg.FullSims, cfg.CheapSims, teacher)
			opt := training.Options{
				Progress: stderr, Warnings: stderr, Bars: isTerminal(stderr), NoSelfPlay: *noSelfPlay, TrainThreads: *trainThreads,
			}
			if nf.URL() != "" {
				err := nf.Train(ctx, *dir, *natsRun, *maxLag, cfg, opt, stderr)
				if errors.Is(err, natsrun.ErrUsage) {
					return usage("%w", err)
				}
				return err
			}
			return training.Run(ctx, *dir, cfg, opt)
		}
	},
}

// isTerminal reports whether w is a terminal, where progress bars make
// sense.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && !strings.EqualFold(os.Getenv("TERM"), "dumb")
}
