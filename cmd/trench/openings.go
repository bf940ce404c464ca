package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"trench/arena/openings"
	"trench/games"
)

var openingsCommand = command{
	name:    "openings",
	summary: "draw a balanced opening book for arena matches",
	usage:   helpText("openings"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Default().Name(), "the game of the openings (one with a classical search: "+games.ClassicalNames()+")")
		out := fs.String("out", "", "the book file to write")
		count := fs.Int("count", 100, "openings in the book")
		plies := fs.Int("plies", 8, "random plies from the start")
		depth := fs.Int("depth", 6, "depth of the classical search that judges each opening, in plies")
		margin := fs.Float64("margin", 0.5, "largest score lead, in points, the search may give any player (Trichess: each seat's lead over the mean of the others)")
		seed := fs.Uint64("seed", 1, "seed of the random plies")
		workers := fs.Int("workers", 1, "openings judged at once, each on its own goroutine")
		return func(_ []string, stdout, stderr io.Writer) error {
			if *out == "" {
				return usage("--out is required")
			}
			if *workers < 1 {
				return usage("--workers must be in 1..%d, got %d", openings.MaxWorkers, *workers)
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			opt := openings.Options{Count: *count, Plies: *plies, Depth: *depth, Margin: *margin, Seed: *seed, Workers: *workers}
			if err := opt.Validate(g); err != nil {
				return usage("--%w", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			bar := newBar(stderr, *count, "openings kept")
			opt.Progress = func(kept, _ int) { bar.Set(kept) }
			start := time.Now()
			book, st, err := openings.Balanced(ctx, g, opt)
			bar.Finish()
			if err != nil {
				return fmt.Errorf("%w (nothing written to %s)", err, *out)
			}
			if err := openings.WriteBook(*out, g, book, st, opt); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%d openings written to %s: kept %d of %d drawn (%.0f%%) in %s\n",
				len(book), *out, len(book), st.Drawn, 100*float64(len(book))/float64(st.Drawn), time.Since(start).Round(time.Second))
			return nil
		}
	},
}
