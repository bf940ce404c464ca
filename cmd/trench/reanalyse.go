package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"trench/games"
	"trench/mcts"
	"trench/training/reanalysis"
)

var reanalyseCommand = command{
	name:    "reanalyse",
	summary: "give a run's stored positions a net's, the classical search's or their games' later targets",
	usage: `Usage:
  trench reanalyse --from DIR --net NET --run NEWDIR [--positions N] [--sims N] [--workers N] [--game G] [--policy]
  trench reanalyse --from DIR --classical-depth D --run NEWDIR [--classical-scale S] [--positions N] [--workers N] [--policy]
  trench reanalyse --from DIR --td-lambda L --run NEWDIR [--positions N] [--workers N] [--game G]

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

With --classical-depth D the teacher is the game's classical search
(Trench's alphabeta) instead of a net: each position is searched D plies
deep, its value is tanh(score/S) for a lead of score points
(--classical-scale S), or ±1 for a forced win or loss. With --policy the
teacher's policy also replaces every position's policy target (the
classical search's: its best move alone), those of cheap searches
included.

With --td-lambda L the positions teach themselves: each position's value
becomes its game's λ-return (TD(λ)), the stored values of the positions
after it, each later one weighted L times less, and the game's result
after the last. L 1 is the result alone, L 0 the next position's value.
The stored values are those of the search that played each move, or a
teacher's from an earlier reanalysis (first --net, then --td-lambda on
the copy: the later positions' net values instead of the search's).

Each shard is written atomically under its own name; a copy that was
interrupted resumes where it stopped when run again.

Examples:
  trench reanalyse --from runs/first --net runs/big --run runs/distil --positions 650000
  trench reanalyse --from runs/first --net runs/first --run runs/searched --sims 64 --workers 2
  trench reanalyse --from runs/first --classical-depth 3 --policy --run runs/taught --workers 2
  trench reanalyse --from runs/distil --td-lambda 0.9 --run runs/returns
  trench train --run runs/distil --no-selfplay --search-value 1 --steps 5000
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		var t reanalysis.Teacher
		fs.StringVar(&t.From, "from", "", "the run directory whose positions are copied")
		fs.StringVar(&t.Net, "net", "", "the net whose values become the targets: a checkpoint file or a run directory")
		dir := fs.String("run", "", "the run directory to copy into (its datasets folder)")
		positions := fs.Int("positions", 0, "copy the newest shards holding at least this many positions (0: all)")
		gameName := fs.String("game", "trench", "the game of the positions")
		fs.IntVar(&t.Sims, "sims", 0, "search each position with this many simulations and take the search's root value (0: the net's own value)")
		fs.IntVar(&t.Workers, "workers", 1, "shards reanalysed at once, each on its own goroutine")
		fs.IntVar(&t.ClassicalDepth, "classical-depth", 0, "search each position this many plies deep with the game's classical search and take its value, instead of a net's (0: a net)")
		fs.Float64Var(&t.ClassicalScale, "classical-scale", reanalysis.DefaultClassicalScale, "with --classical-depth, the lead in points valued tanh(1)")
		fs.BoolVar(&t.Policy, "policy", false, "also replace every position's policy target with the teacher's policy")
		fs.Float64Var(&t.Lambda, "td-lambda", 0, "give each position its game's λ-return over the stored values of the later positions, with this λ in [0, 1], instead of a teacher's values")
		return func(_ []string, stdout, stderr io.Writer) error {
			if t.From == "" || *dir == "" {
				return usage("--from and --run are required")
			}
			if *positions < 0 {
				return usage("--positions must not be negative, got %d", *positions)
			}
			t.Returns = fs.Changed("td-lambda")
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			if err := t.Validate(g); err != nil {
				return usage("%w", err)
			}
			var newEvaluator func() mcts.Evaluator
			teacher := t.Describe()
			if !t.Returns {
				if newEvaluator, teacher, err = t.Evaluators(g, stderr); err != nil {
					return err
				}
			}
			targets := " (its values)"
			switch {
			case t.Returns:
				targets = ""
			case t.Policy:
				targets = " (its values and policies)"
			}
			fmt.Fprintf(stderr, "reanalysing %s with %s%s into %s\n", t.From, teacher, targets, *dir)
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			bar := newBar(stderr, *positions, "positions")
			start := time.Now()
			src, dst := filepath.Join(t.From, "datasets"), filepath.Join(*dir, "datasets")
			opt := reanalysis.Options{Positions: *positions, Workers: t.Workers, Policy: t.Policy, Warnings: stderr, Progress: func(done, _ int) { bar.Set(done) }}
			var st reanalysis.Stats
			if t.Returns {
				st, err = reanalysis.Returns(ctx, g, src, dst, t.Lambda, opt)
			} else {
				st, err = reanalysis.Relabel(ctx, g, src, dst, newEvaluator, opt)
			}
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

// newBar returns a progress bar on w, shown only when w is a terminal,
// counting to max things called what (max 0: no end known).
func newBar(w io.Writer, max int, what string) *progressbar.ProgressBar {
	if max == 0 {
		max = -1
	}
	return progressbar.NewOptions(max, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(what),
		progressbar.OptionSetWidth(20), progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetVisibility(isTerminal(w)))
}
