package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"trench/arena/openings"
	"trench/games"
	"trench/internal/atomicfile"
	"trench/internal/excerpt"
)

var openingsCommand = command{
	name:    "openings",
	summary: "draw a balanced opening book for arena matches",
	usage: `Usage:
  trench openings --out FILE [--count N] [--plies P] [--depth D] [--margin M] [--seed S] [--workers W]

Draws random openings of --plies random plies from the start and keeps the
first --count distinct ones that the classical engine (Trench's alphabeta),
searching --depth plies, rates within --margin points of level, with no
forced result. Writes them to FILE, one position a line after # comments
that say how the book was drawn, for "trench arena --openings FILE".

Random openings alone are often decided before the players meet. In a
match between players far apart, each such opening is a pair split one
game each, whoever plays it, so the score is pulled towards 50% and the
gap understated; measure such matches on a balanced book. The book depends
only on the flags, not on --workers. FILE is written atomically, once the
whole book is drawn.

Examples:
  trench openings --out balanced.txt
  trench openings --out book.txt --count 200 --depth 7 --margin 0.25 --seed 9 --workers 2
  trench arena --openings balanced.txt --games 200 mcts:sims=400 mcts:net=none,sims=400
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Default().Name(), "the game of the openings (one with a classical engine: "+games.ClassicalNames()+")")
		out := fs.String("out", "", "the book file to write")
		count := fs.Int("count", 100, "openings in the book")
		plies := fs.Int("plies", 8, "random plies from the start")
		depth := fs.Int("depth", 6, "depth of the classical search that judges each opening, in plies")
		margin := fs.Float64("margin", 0.5, "largest score lead, in points, the search may give either side")
		seed := fs.Uint64("seed", 1, "seed of the random plies")
		workers := fs.Int("workers", 1, "openings judged at once, each on its own goroutine")
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return usage("unexpected argument %s", excerpt.Quote(args[0]))
			}
			if *out == "" {
				return usage("--out is required")
			}
			if *workers < 1 || *workers > 256 {
				return usage("--workers must be in 1..256, got %d", *workers)
			}
			if !(*margin >= 0) || math.IsInf(*margin, 1) {
				return usage("--margin must be a number of points, at least 0, got %v", *margin)
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			cl := games.ClassicalOf(g)
			if cl == nil {
				return usage("--game: %s has no classical engine to judge openings (%s has)", g.Name(), games.ClassicalNames())
			}
			switch {
			case *count < 1:
				return usage("--count must be at least 1, got %d", *count)
			case *plies < 1:
				return usage("--plies must be at least 1, got %d", *plies)
			case *depth < 1 || *depth > cl.MaxDepth():
				return usage("--depth must be in 1..%d, got %d", cl.MaxDepth(), *depth)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			bar := progressbar.NewOptions(*count,
				progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("openings kept"),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(20),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionSetVisibility(isTerminal(stderr)))
			start := time.Now()
			book, st, err := openings.Balanced(ctx, g, openings.Options{
				Count: *count, Plies: *plies, Depth: *depth, Margin: *margin, Seed: *seed, Workers: *workers,
				Progress: func(kept, _ int) { bar.Set(kept) },
			})
			bar.Finish()
			if err != nil {
				return fmt.Errorf("%w (nothing written to %s)", err, *out)
			}
			var b bytes.Buffer
			fmt.Fprintf(&b, "# %s: %d openings of %d random plies (seed %d), each within %g points of level at %s depth %d\n",
				g.Name(), len(book), *plies, *seed, *margin, cl.Name(), *depth)
			fmt.Fprintf(&b, "# kept %d of %d drawn; made by: trench openings --count %d --plies %d --depth %d --margin %g --seed %d\n",
				len(book), st.Drawn, *count, *plies, *depth, *margin, *seed)
			for _, o := range book {
				fmt.Fprintln(&b, o.State.String())
			}
			if err := atomicfile.Write(*out, b.Bytes()); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%d openings written to %s: kept %d of %d drawn (%.0f%%) in %s\n",
				len(book), *out, len(book), st.Drawn, 100*float64(len(book))/float64(st.Drawn), time.Since(start).Round(time.Second))
			return nil
		}
	},
}
