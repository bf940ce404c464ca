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

	"trench/checkpoints"
	"trench/games"
	"trench/mcts"
	"trench/training/generations"
	"trench/training/reanalysis"
	"trench/training/relabel"
	"trench/training/rundir"
)

var reanalyseCommand = command{
	name:    "reanalyse",
	summary: "give a run's stored positions a net's, the classical search's or their games' later targets; search an NNUE run's again",
	usage:   helpText("reanalyse"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		var t reanalysis.Teacher
		fs.StringVar(&t.From, "from", "", "the run directory whose positions are copied")
		fs.StringVar(&t.Net, "net", "", "the net whose values become the targets: a checkpoint file, a run directory or default (the built-in one); with --classical-depth, the NNUE the classical search evaluates with (default: the built-in NNUE); from an NNUE run, the NNUE its alpha-beta searches with (default: the run's newest accepted net)")
		dir := fs.String("run", "", "the run directory to copy into (its datasets folder)")
		positions := fs.Int("positions", 0, "copy the newest shards holding at least this many positions (0: all)")
		gameName := fs.String("game", "trench", "the game of the positions")
		fs.IntVar(&t.Sims, "sims", 0, "search each position with this many simulations and take the search's root value (0: the net's own value)")
		fs.IntVar(&t.Workers, "workers", 1, "shards reanalysed at once, each on its own goroutine")
		fs.IntVar(&t.ClassicalDepth, "classical-depth", 0, "search each position this many plies deep with the game's classical search and take its value, instead of a net's (0: a net)")
		fs.StringVar(&t.ClassicalEval, "classical-eval", "", "with --classical-depth, the classical search's evaluation, one of the game's (e.g. material: the rules' piece points alone; nnue: the NNUE --net names, else the built-in one; empty: the game's default)")
		fs.Float64Var(&t.ClassicalScale, "classical-scale", relabel.DefaultClassicalScale, "with --classical-depth in a two-player game, the lead in points valued tanh(1)")
		fs.BoolVar(&t.Policy, "policy", false, "also replace every position's policy target with the teacher's policy")
		fs.Float64Var(&t.Lambda, "td-lambda", 0, "give each position its game's λ-return over the stored values of the later positions, with this λ in [0, 1], instead of a teacher's values")
		softNodes := fs.Uint64("soft-nodes", 0, "an NNUE run's positions: the new search starts no iteration past this many nodes (0: the run's own --soft-nodes)")
		hardNodes := fs.Uint64("hard-nodes", 0, "an NNUE run's positions: the new search stops at this many nodes (0: the run's own --hard-nodes, or --soft-nodes if above it)")
		return func(_ []string, stdout, stderr io.Writer) error {
			if t.From == "" || *dir == "" {
				return usage("--from and --run are required")
			}
			if *positions < 0 {
				return usage("--positions must not be negative, got %d", *positions)
			}
			if h, err := checkpoints.Identify(t.From); err == nil && h == checkpoints.NNUERun {
				opt := generations.BranchOptions{Net: t.Net, SoftNodes: *softNodes, HardNodes: *hardNodes, Positions: *positions, Workers: t.Workers, Warnings: stderr}
				return branchNNUE(fs, t.From, *dir, opt, stdout, stderr)
			}
			if fs.Changed("soft-nodes") || fs.Changed("hard-nodes") {
				return usage("--soft-nodes and --hard-nodes search an NNUE run's positions again; %s is not one", t.From)
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
			var st relabel.Stats
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

// branchNNUE makes dir a branch of the NNUE run from, its positions
// searched again (generations.Branch), refusing the flags of the conv
// net's positions.
func branchNNUE(fs *pflag.FlagSet, from, dir string, opt generations.BranchOptions, stdout, stderr io.Writer) error {
	for _, name := range []string{"sims", "policy", "td-lambda", "classical-depth", "classical-eval", "classical-scale", "game"} {
		if fs.Changed(name) {
			return usage("--%s does not apply to an NNUE run's positions (--from %s): alpha-beta searches them again, with --net, --soft-nodes and --hard-nodes", name, from)
		}
	}
	if opt.Workers < 1 || opt.Workers > reanalysis.MaxWorkers {
		return usage("--workers must be in 1..%d, got %d", reanalysis.MaxWorkers, opt.Workers)
	}
	if same, err := rundir.SameDir(from, dir); err != nil {
		return err
	} else if same {
		return usage("--from and --run name %s: it cannot be both the source and the branch", from)
	}
	src, err := rundir.Lock(from)
	if err != nil {
		return err
	}
	defer src.Release()
	dst, err := rundir.Lock(dir)
	if err != nil {
		return err
	}
	defer dst.Release()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newBar(stderr, 0, "positions")
	started := false
	opt.Progress = func(done, total int) {
		if !started {
			// Branch calls Progress once its checks have passed.
			fmt.Fprintf(stderr, "searching the positions of %s again into %s (Ctrl-C stops; rerun to resume)\n", from, dir)
			started = true
		}
		bar.ChangeMax(total)
		bar.Set(done)
	}
	start := time.Now()
	res, err := generations.Branch(ctx, from, dir, opt)
	bar.Finish()
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "stopped after %d shards; rerun to resume\n", res.Shards)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions in %d shards searched again by %s in %s; %d left out (their best move now captures, or their score is a finished game's); %d shards already there, %d unreadable shards skipped\n",
		res.Positions, res.Shards, res.Searcher, time.Since(start).Round(time.Second), res.Dropped, res.Existing, res.Unreadable)
	fmt.Fprintf(stdout, "%s is a branch of %s at %.2f hours: trench train --run %s plays and trains its generation %d\n", dir, from, res.Elapsed/3600, dir, res.Next)
	return nil
}
