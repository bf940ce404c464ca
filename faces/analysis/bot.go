package analysis

import (
	"context"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/mcts"
	"trench/neteval"
)

// This file holds the engine's calls into package bot: making a search
// per worker and searching one turn with it.

// searcher searches the turns one worker takes, one at a time.
type searcher struct {
	bot bot.Bot
}

// newSearcher makes a worker's bot for g: with net, evaluating through
// shared (the batcher every worker's bot shares), or with tactics.Fallback when
// net is nil; threads search its tree. It searches without the guard and
// the endgame's classical search, so that what it reports is the tree's.
func newSearcher(g engine.Game, net *neteval.Net, shared mcts.Evaluator, threads int) (*searcher, error) {
	opts := bot.Options{Threads: threads}
	if net != nil {
		opts.Evaluator = shared
	}
	b, err := bot.New(g, net, opts)
	if err != nil {
		return nil, err
	}
	return &searcher{bot: b}, nil
}

// describe says what the searches search with, e.g. the net.
func (s *searcher) describe() string { return s.bot.String() }

// search searches pos afresh within limits and returns the final
// analysis. With every > 0 it searches in steps of that long and gives
// during the analysis after each step but the last. When ctx is done it
// returns what it found so far, or ctx's error when it found nothing.
func (s *searcher) search(ctx context.Context, pos engine.State, limits bot.Limits, every time.Duration, during func(*bot.Analysis)) (*bot.Analysis, error) {
	s.bot.NewGame()
	if err := s.bot.SetPosition(pos); err != nil {
		return nil, err
	}
	if every == 0 {
		return s.bot.Search(ctx, limits)
	}
	start := time.Now()
	sims := 0
	var last *bot.Analysis
	for {
		step := bot.Limits{Time: every}
		if limits.Sims > 0 {
			step.Sims = limits.Sims - sims
		}
		if limits.Time > 0 {
			left := limits.Time - time.Since(start)
			if left <= 0 && last != nil {
				return last, nil
			}
			step.Time = max(min(every, left), time.Millisecond)
		}
		a, err := s.bot.Search(ctx, step)
		if err != nil {
			if last != nil && ctx.Err() != nil {
				last.Stopped = true
				return last, nil
			}
			return nil, err
		}
		sims += a.Sims
		a.Sims = sims
		a.Elapsed = time.Since(start)
		a.Limits = limits.String()
		if a.Stopped || ctx.Err() != nil ||
			(limits.Sims > 0 && sims >= limits.Sims) || (limits.Time > 0 && time.Since(start) >= limits.Time) {
			return a, nil
		}
		during(a)
		last = a
	}
}
