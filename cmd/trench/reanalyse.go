package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"trench/bot"
	"trench/excerpt"
	"trench/games"
	"trench/mcts"
	"trench/neteval"
	"trench/reanalysis"
	"trench/training"
)

var reanalyseCommand = command{
	name:    "reanalyse",
	summary: "give a run's stored positions a net's values as value targets",
	usage: `Usage:
  trench reanalyse --from DIR --net NET --run NEWDIR [--positions N] [--sims N] [--workers N] [--game G]

Copies the self-play positions of the run DIR (its newest shards holding at
least --positions positions, all of them by default) into NEWDIR/datasets,
each position's search value replaced by NET's value of it (its win minus
loss probability; NET is a checkpoint file or a run directory, whose newest
checkpoint is taken). With --sims N the value is instead the root value of
a PUCT search of N simulations with NET and DIR's tactical aids (from its
config.json, or the quick preset's), as in MuZero's Reanalyse. Policy
targets, results and scores are kept. A net then trained on the copy with
--search-value 1 learns these values instead of the results of single
games: a bigger net grown on a run's data can so hand what it learned to a
faster one, and a net can learn what its own search finds.

Each shard is written atomically under its own name; a copy that was
interrupted resumes where it stopped when run again.

Examples:
  trench reanalyse --from runs/first --net runs/big --run runs/distil --positions 650000
  trench reanalyse --from runs/first --net runs/first --run runs/searched --sims 64 --workers 2
  trench train --run runs/distil --no-selfplay --search-value 1 --steps 5000
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		from := fs.String("from", "", "the run directory whose positions are copied")
		netRef := fs.String("net", "", "the net whose values become the targets: a checkpoint file or a run directory")
		dir := fs.String("run", "", "the run directory to copy into (its datasets folder)")
		positions := fs.Int("positions", 0, "copy the newest shards holding at least this many positions (0: all)")
		gameName := fs.String("game", "trench", "the game of the positions")
		sims := fs.Int("sims", 0, "search each position with this many simulations and take the search's root value (0: the net's own value)")
		workers := fs.Int("workers", 1, "shards reanalysed at once, each on its own goroutine")
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %s", excerpt.Quote(args[0]))}
			}
			if *from == "" || *netRef == "" || *dir == "" {
				return &exitError{2, errors.New("--from, --net and --run are required")}
			}
			if *positions < 0 {
				return &exitError{2, fmt.Errorf("--positions must not be negative, got %d", *positions)}
			}
			if *sims < 0 || *sims > bot.MaxSims {
				return &exitError{2, fmt.Errorf("--sims must be in 0..%d, got %d", bot.MaxSims, *sims)}
			}
			if *workers < 1 || *workers > 256 {
				return &exitError{2, fmt.Errorf("--workers must be in 1..256, got %d", *workers)}
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return &exitError{2, err}
			}
			net, err := bot.LoadNet(g, *netRef)
			if err != nil {
				return err
			}
			net.WarnPassed(stderr)
			ev, err := neteval.NewWithScoreUtility(g, net.Inference, 0)
			if err != nil {
				return fmt.Errorf("net %s: %w", excerpt.Quote(*netRef), err)
			}
			newEvaluator := func() mcts.Evaluator { return ev }
			how := "its value"
			if *sims > 0 {
				cfg, err := training.LoadConfig(*from)
				if errors.Is(err, os.ErrNotExist) {
					cfg, err = training.Preset("quick")
				}
				if err != nil {
					return err
				}
				aids := cfg.SearchEvaluator(ev)
				newEvaluator = func() mcts.Evaluator {
					return &reanalysis.Searcher{Evaluator: aids, Params: mcts.DefaultParams(), Sims: *sims}
				}
				how = fmt.Sprintf("the root value of a %d-simulation search", *sims)
			}
			fmt.Fprintf(stderr, "reanalysing %s with %s (%s) into %s\n", *from, net, how, *dir)
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			max := *positions
			if max == 0 {
				max = -1
			}
			bar := progressbar.NewOptions(max,
				progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("positions"),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("positions"),
				progressbar.OptionSetWidth(20),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionSetVisibility(isTerminal(stderr)))
			start := time.Now()
			st, err := reanalysis.Relabel(ctx, g, filepath.Join(*from, "datasets"), filepath.Join(*dir, "datasets"), newEvaluator,
				reanalysis.Options{Positions: *positions, Workers: *workers, Warnings: stderr, Progress: func(done, _ int) { bar.Set(done) }})
			bar.Finish()
			if err != nil && st.Shards == 0 {
				return err
			}
			fmt.Fprintf(stdout, "%d positions in %d shards relabelled in %s; %d shards already there, %d unreadable shards skipped\n",
				st.Positions, st.Shards, time.Since(start).Round(time.Second), st.Kept, st.Skipped)
			return err
		}
	},
}
