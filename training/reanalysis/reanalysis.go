// Package reanalysis gives stored self-play positions new value targets
// from a teacher: another net, such as a bigger one grown on the same
// data, a search with a net (MuZero's Reanalyse), or the game's classical
// engine. A net trained on them learns the teacher's values instead of
// the noisy results of single games. Each shard is copied under its own
// name with every position's search value replaced, and optionally its
// policy target; the rest of the position (its result and score) is
// kept. Training on the copy with `--search-value 1` then makes the
// teacher's values the value target. Returns needs no teacher: it gives
// each position its game's λ-return over the values stored for the
// positions after it (TD(λ)).
package reanalysis

import (
	"context"
	"fmt"
	"io"

	"trench/engine"
	"trench/mcts"
	"trench/training/relabel"
)

// Options tune Relabel and Returns.
type Options struct {
	// Positions bounds the work to the newest shards of the source that
	// hold at least this many positions; 0 takes every shard.
	Positions int
	// Batch is the number of positions evaluated at once (relabel.DefaultBatch
	// when 0).
	Batch int
	// Workers is the number of shards relabelled at once, each by its own
	// goroutine and evaluator (1 when 0).
	Workers int
	// Policy also replaces every position's policy target with the
	// evaluator's policy, the positions of cheap searches included (each
	// becomes a full search, with no policy surprise recorded).
	Policy bool
	// Warnings receives a line for each source shard that cannot be read
	// and is skipped (nothing when nil).
	Warnings io.Writer
	// Progress, when set, is called after each shard is written, never
	// twice at once, with the positions done so far (copied now or found
	// copied before) and the positions of every shard to be done.
	Progress func(done, total int)
}

// copyOptions is what relabel.Copy takes of opt.
func (opt Options) copyOptions() relabel.CopyOptions {
	return relabel.CopyOptions{Positions: opt.Positions, Workers: opt.Workers, Warnings: opt.Warnings, Progress: opt.Progress}
}

// Relabel copies the newest shards of directory src into directory dst
// (created if need be), giving every position the values an evaluator
// gives it as its search value (and with opt.Policy its policy as the
// policy target). Opt.Workers goroutines copy shards at
// once, each with its own evaluator from newEvaluator. A shard dst
// already has is left alone, so a call that was interrupted resumes where
// it stopped; each shard is written atomically. src and dst must differ.
func Relabel(ctx context.Context, g engine.Game, src, dst string, newEvaluator func() mcts.Evaluator, opt Options) (relabel.Stats, error) {
	if opt.Batch < 0 {
		return relabel.Stats{}, fmt.Errorf("reanalysis: batch %d must not be negative", opt.Batch)
	}
	return relabel.Copy(ctx, g, src, dst, opt.copyOptions(), func() (relabel.ShardLabeller, error) {
		return relabel.New(g, newEvaluator(), opt.Batch, opt.Policy), nil
	})
}
