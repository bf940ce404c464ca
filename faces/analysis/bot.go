package analysis

import (
	"context"
	"time"

	"trench/bot"
	"trench/engine"
)

// This file holds the engine's calls into package bot: searching one
// turn with a worker's bot.

// searcher searches the turns one worker takes, one at a time, with its
// own bot.
type searcher struct {
	bot bot.Bot
}

// search searches pos afresh within limits and returns the final
// analysis. With every > 0 it searches in steps of that long (the
// alphabeta kind's table kept from step to step) and gives during the
// analysis after each step but the last. When ctx is done it returns
// what it found so far, or ctx's error when it found nothing.
func (s *searcher) search(ctx context.Context, pos engine.State, limits bot.Limits, every time.Duration, during func(*bot.Analysis)) (*bot.Analysis, error) {
	s.bot.NewGame()
	if err := s.bot.SetPosition(pos); err != nil {
		return nil, err
	}
	if every == 0 {
		return s.bot.Search(ctx, limits)
	}
	start := time.Now()
	sims, nodes := 0, 0
	var last *bot.Analysis
	for {
		step := bot.Limits{Time: every, MultiPV: limits.MultiPV}
		if limits.Sims > 0 {
			step.Sims = limits.Sims - sims
		}
		if limits.Nodes > 0 {
			step.Nodes = limits.Nodes - nodes
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
		nodes += a.Nodes
		a.Sims, a.Nodes = sims, nodes
		a.Elapsed = time.Since(start)
		a.Limits = limits.String()
		if a.Stopped || ctx.Err() != nil ||
			(limits.Sims > 0 && sims >= limits.Sims) || (limits.Nodes > 0 && nodes >= limits.Nodes) ||
			(limits.Time > 0 && time.Since(start) >= limits.Time) {
			return a, nil
		}
		during(a)
		last = a
	}
}
