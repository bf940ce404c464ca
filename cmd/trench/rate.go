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
	"time"

	"github.com/spf13/pflag"

	"trench/training/generations"
	"trench/training/rundir"
)

var rateCommand = command{
	name:    "rate",
	summary: "rate every generation of an NNUE run against the hand-written evaluation",
	usage:   helpText("rate"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		dir := fs.String("run", "", "the run directory of trench train --preset nnue")
		pairs := fs.Int("pairs", 100, "game pairs each net plays (Trichess: opening groups of three games)")
		nodes := fs.Uint64("nodes", 0, "nodes a move of both players (default: the run's --gate-nodes, unless --ms)")
		ms := fs.Int("ms", 0, "milliseconds a move of both players instead of nodes")
		anchorNodes := fs.Uint64("anchor-nodes", 0, "nodes a move of the hand-written evaluation alone (default: the net's), to keep strong nets' scores off 100%")
		anchorMS := fs.Int("anchor-ms", 0, "with --ms, milliseconds a move of the hand-written evaluation alone (default: the net's)")
		openings := fs.String("openings", "", "a file of opening positions, one a line, used in turn (trench openings makes balanced ones; default: the run's random openings)")
		seed := fs.Uint64("seed", 1, "seed of the random openings, the same for every net")
		return func(_ []string, stdout, stderr io.Writer) error {
			if *dir == "" {
				return usage("--run DIR is required")
			}
			kind, err := rundir.Holds(*dir)
			if err != nil && !errors.Is(err, rundir.ErrNotRun) {
				return usage("--run: %w", err)
			}
			if kind != rundir.NNUE {
				return usage("--run %s is not a run of trench train --preset nnue", *dir)
			}
			cfg, err := generations.LoadConfig(*dir)
			if err != nil {
				return usage("--run: %w", err)
			}
			rc := generations.RateConfig{Pairs: *pairs, Nodes: *nodes, Time: time.Duration(*ms) * time.Millisecond,
				AnchorNodes: *anchorNodes, AnchorTime: time.Duration(*anchorMS) * time.Millisecond, OpeningsFile: *openings, Seed: *seed}
			if !fs.Changed("nodes") && *ms == 0 {
				rc.Nodes = cfg.GateNodes
			}
			if err := rc.Validate(); err != nil {
				return usage("%w", err)
			}
			lock, err := rundir.Lock(*dir)
			if err != nil {
				return err
			}
			defer lock.Release()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			opt := generations.Options{Progress: stderr, Warnings: stderr, Bars: isTerminal(stderr)}
			ratings, err := generations.Rate(ctx, *dir, rc, opt)
			if err != nil {
				return err
			}
			if len(ratings) > 0 {
				from := fmt.Sprintf("random openings, seed %d", rc.Seed)
				if *openings != "" {
					from = "the openings of " + *openings
				}
				fmt.Fprintf(stdout, "%s at %s a move against %s, %d %s a net, %s:\n", *dir, ratings[0].Limits, ratings[0].Standing.Opponent, rc.Pairs, cfg.Openings(), from)
				fmt.Fprintf(stdout, "%10s %7s %-16s %9s %s\n", "generation", "hours", "net", "W-D-L", "Elo, 95% interval per "+strings.TrimSuffix(cfg.Openings(), "s"))
				for _, r := range ratings {
					st := r.Standing
					fmt.Fprintf(stdout, "%10d %7.2f %-16s %9s %s", r.Generation, r.Hours, r.Net, fmt.Sprintf("%d-%d-%d", st.Wins, st.Draws, st.Losses), st.PairElo)
					if st.Lead != nil {
						fmt.Fprintf(stdout, ", lead %+.2f [%+.2f, %+.2f] a game", st.Lead.Mean, st.Lead.Low, st.Lead.High)
					}
					fmt.Fprintln(stdout)
				}
			}
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "stopped; rerun to resume")
			}
			return nil
		}
	},
}
