package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"trench/engine"
	"trench/games"
	"trench/internal/excerpt"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
	"trench/training"
	"trench/training/reanalysis"
)

var reanalyseCommand = command{
	name:    "reanalyse",
	summary: "give a run's stored positions a net's, the classical engine's or their games' later targets",
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

With --classical-depth D the teacher is the game's classical engine
(Trench's alphabeta) instead of a net: each position is searched D plies
deep, its value is tanh(score/S) for a lead of score points
(--classical-scale S), or ±1 for a forced win or loss. With --policy the
teacher's policy also replaces every position's policy target (the
classical engine's: its best move alone), those of cheap searches
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
		from := fs.String("from", "", "the run directory whose positions are copied")
		netRef := fs.String("net", "", "the net whose values become the targets: a checkpoint file or a run directory")
		dir := fs.String("run", "", "the run directory to copy into (its datasets folder)")
		positions := fs.Int("positions", 0, "copy the newest shards holding at least this many positions (0: all)")
		gameName := fs.String("game", "trench", "the game of the positions")
		sims := fs.Int("sims", 0, "search each position with this many simulations and take the search's root value (0: the net's own value)")
		workers := fs.Int("workers", 1, "shards reanalysed at once, each on its own goroutine")
		classicalDepth := fs.Int("classical-depth", 0, "search each position this many plies deep with the game's classical engine and take its value, instead of a net's (0: a net)")
		classicalScale := fs.Float64("classical-scale", defaultClassicalScale, "with --classical-depth, the lead in points valued tanh(1)")
		policy := fs.Bool("policy", false, "also replace every position's policy target with the teacher's policy")
		lambda := fs.Float64("td-lambda", 0, "give each position its game's λ-return over the stored values of the later positions, with this λ in [0, 1], instead of a teacher's values")
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return usage("unexpected argument %s", excerpt.Quote(args[0]))
			}
			if *from == "" || *dir == "" {
				return usage("--from and --run are required")
			}
			returns := fs.Changed("td-lambda")
			if teachers := btoi(*netRef != "") + btoi(*classicalDepth != 0) + btoi(returns); teachers != 1 {
				return usage("give exactly one teacher: --net, --classical-depth or --td-lambda")
			}
			if returns && !(*lambda >= 0 && *lambda <= 1) {
				return usage("--td-lambda must be in [0, 1], got %v", *lambda)
			}
			if returns && (*policy || *sims > 0) {
				return usage("--td-lambda gives values from the stored games; it cannot go with --policy or --sims")
			}
			if *classicalDepth < 0 {
				return usage("--classical-depth must not be negative, got %d", *classicalDepth)
			}
			if !(*classicalScale > 0) || math.IsInf(*classicalScale, 1) {
				return usage("--classical-scale must be a positive number of points, got %v", *classicalScale)
			}
			if *classicalDepth > 0 && *sims > 0 {
				return usage("--sims searches with a net; it cannot go with --classical-depth")
			}
			if *positions < 0 {
				return usage("--positions must not be negative, got %d", *positions)
			}
			if *sims < 0 || *sims > searchconfig.MaxSims {
				return usage("--sims must be in 0..%d, got %d", searchconfig.MaxSims, *sims)
			}
			if *workers < 1 || *workers > 256 {
				return usage("--workers must be in 1..256, got %d", *workers)
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			var (
				newEvaluator func() mcts.Evaluator
				teacher      string
			)
			switch {
			case returns:
				teacher = fmt.Sprintf("their games' λ-returns (λ %g)", *lambda)
			case *classicalDepth > 0:
				newEvaluator, teacher, err = classicalTeacher(g, *classicalDepth, *classicalScale, *workers)
			default:
				newEvaluator, teacher, err = netTeacher(g, *netRef, *from, *sims, stderr)
			}
			if err != nil {
				return err
			}
			targets := " (its values)"
			switch {
			case returns:
				targets = ""
			case *policy:
				targets = " (its values and policies)"
			}
			fmt.Fprintf(stderr, "reanalysing %s with %s%s into %s\n", *from, teacher, targets, *dir)
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
			src, dst := filepath.Join(*from, "datasets"), filepath.Join(*dir, "datasets")
			opt := reanalysis.Options{Positions: *positions, Workers: *workers, Policy: *policy, Warnings: stderr, Progress: func(done, _ int) { bar.Set(done) }}
			var st reanalysis.Stats
			if returns {
				st, err = reanalysis.Returns(ctx, g, src, dst, *lambda, opt)
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

// btoi is 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// defaultClassicalScale is the lead in points that the classical teacher
// values tanh(1): the scale that best predicted the results of the shipped
// net's self-play games from alphabeta's scores at depths 1 to 5 (3 or 4
// at every depth; docs/experiments.md).
const defaultClassicalScale = 4

// netTeacher returns the evaluators of the net ref for reanalysis: its
// own values and priors, or with sims > 0 those of a search of sims
// simulations with it and the tactical aids of the run from (the quick
// preset's when from has no config), and a description of them.
func netTeacher(g engine.Game, ref, from string, sims int, stderr io.Writer) (func() mcts.Evaluator, string, error) {
	net, err := neteval.LoadNet(g, ref)
	if err != nil {
		return nil, "", err
	}
	net.WarnPassed(stderr)
	ev, err := neteval.NewWithScoreUtility(g, net.Inference, 0)
	if err != nil {
		return nil, "", fmt.Errorf("net %s: %w", excerpt.Quote(ref), err)
	}
	if sims == 0 {
		return func() mcts.Evaluator { return ev }, fmt.Sprintf("%s (its own evaluation)", net), nil
	}
	cfg, err := training.LoadConfig(from)
	if errors.Is(err, os.ErrNotExist) {
		cfg, err = training.Preset("quick")
	}
	if err != nil {
		return nil, "", err
	}
	aids := cfg.SearchEvaluator(g, ev)
	return func() mcts.Evaluator {
		return &reanalysis.Searcher{Evaluator: aids, Params: mcts.DefaultParams(), Sims: sims}
	}, fmt.Sprintf("%s (a %d-simulation search)", net, sims), nil
}

// classicalTeacher returns the evaluators of g's classical engine
// searching depth plies, one for each of workers, and a description.
func classicalTeacher(g engine.Game, depth int, scale float64, workers int) (func() mcts.Evaluator, string, error) {
	cl := games.ClassicalOf(g)
	if cl == nil {
		return nil, "", usage("--classical-depth: %s has no classical engine (%s has)", g.Name(), games.ClassicalNames())
	}
	if max := cl.MaxDepth(); depth > max {
		return nil, "", usage("--classical-depth must be in 1..%d, got %d", max, depth)
	}
	evaluators := make(chan mcts.Evaluator, workers)
	for range workers {
		s, err := cl.NewSearcher(classicalTableBits)
		if err != nil {
			return nil, "", err
		}
		evaluators <- &reanalysis.Classical{Searcher: s, Depth: depth, Scale: scale}
	}
	return func() mcts.Evaluator { return <-evaluators },
		fmt.Sprintf("%s at depth %d (value scale %g points)", cl.Name(), depth, scale), nil
}

// classicalTableBits sizes each classical teacher's table: 2^18 entries.
const classicalTableBits = 18
