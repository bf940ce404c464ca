// Package selfplay plays many games at once for training: each worker
// goroutine drives its own set of games, one search tree per game, and
// evaluates all their leaves in one batched call per step. Each finished
// game becomes training samples for the datasets package.
package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"trench/datasets"
	"trench/engine"
	"trench/mcts"
)

// Config are the knobs of self-play.
type Config struct {
	// Workers is the number of goroutines, each driving GamesPerWorker
	// games and making its own evaluator calls.
	Workers int
	// GamesPerWorker is the number of games a worker plays at once; their
	// leaves make up its batches.
	GamesPerWorker int
	// FullSims is the simulations of a full search, whose policy is a
	// training target; CheapSims those of a cheap one, used to move fast
	// (playout cap randomization, KataGo). FullFraction is the share of
	// moves searched fully.
	FullSims, CheapSims int
	FullFraction        float64
	// OpeningPlies is the number of first plies whose move is sampled from
	// the search policy, for opening diversity; later moves follow the
	// search's choice.
	OpeningPlies int
	// LeavesPerTree is the number of leaves taken from each tree per
	// batched step, under virtual loss.
	LeavesPerTree int
	// Search is the search's parameters; Seed is set per game.
	Search mcts.Params
	// Seed makes a run reproducible (with one worker).
	Seed uint64
	// FirstGameID numbers the games; each game gets the next id.
	FirstGameID int64
	// Throttle, if set, is called by each worker before each search step;
	// it blocks to slow self-play down (so that training keeps up) and
	// returns ctx's error when ctx is done.
	Throttle func(ctx context.Context) error
}

// DefaultConfig returns a self-play configuration for two cores with
// Gumbel root search.
func DefaultConfig() Config {
	p := mcts.DefaultParams()
	p.Algorithm = mcts.Gumbel
	p.GumbelScale = 1
	p.PolicyTemperature = 1 // the targets are the search's own policy
	return Config{
		Workers: 2, GamesPerWorker: 32,
		FullSims: 64, CheapSims: 16, FullFraction: 0.25,
		OpeningPlies: 8, LeavesPerTree: 1,
		Search: p, Seed: 1,
	}
}

// Validate reports the first unusable setting.
func (c Config) Validate() error {
	switch {
	case c.Workers < 1:
		return fmt.Errorf("self-play workers must be at least 1, got %d", c.Workers)
	case c.GamesPerWorker < 1:
		return fmt.Errorf("games per worker must be at least 1, got %d", c.GamesPerWorker)
	case c.FullSims < 1 || c.CheapSims < 1:
		return fmt.Errorf("simulations must be at least 1, got full %d and cheap %d", c.FullSims, c.CheapSims)
	case !(c.FullFraction >= 0 && c.FullFraction <= 1):
		return fmt.Errorf("the full-search fraction must be in [0, 1], got %v", c.FullFraction)
	case c.OpeningPlies < 0:
		return fmt.Errorf("opening plies must not be negative, got %d", c.OpeningPlies)
	}
	return nil
}

// Net is an evaluator and the name of the net behind it (a checkpoint).
type Net struct {
	Name string
	Eval mcts.Evaluator
}

// NetSource returns the net a new game should be played with. Self-play
// calls it at every game start, so a new checkpoint is picked up at the
// next game boundary while running games finish with their own net.
type NetSource func() *Net

// Game is one self-play game as played, finished.
type Game struct {
	// Samples are its positions as training data.
	Samples []datasets.Sample
	// Actions are the actions played, from the start.
	Actions []int
	// Result and Score are each player's final utility and points.
	Result, Score []float32
	// Net names the net that played it.
	Net string
}

// Stats count what self-play has done so far.
type Stats struct {
	Games, Positions, FullSearches atomic.Int64
}

// Run plays games with nets from source until ctx is done, calling sink
// (serialized) with every finished game. Games still running when ctx is
// done are dropped. It returns nil when stopped by ctx, or the first error
// of the evaluator or of sink.
func Run(ctx context.Context, g engine.Game, cfg Config, source NetSource, sink func(*Game) error, stats *Stats) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if stats == nil {
		stats = new(Stats)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		wg      sync.WaitGroup
		sinkMu  sync.Mutex
		nextID  atomic.Int64
		errOnce sync.Once
		runErr  error
	)
	nextID.Store(cfg.FirstGameID)
	fail := func(err error) {
		errOnce.Do(func() { runErr = err })
		cancel(err)
	}
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := &worker{
				game: g, cfg: cfg, source: source, stats: stats, ids: &nextID,
				rng: rand.New(rand.NewPCG(cfg.Seed, uint64(w))),
				sink: func(gm *Game) error {
					sinkMu.Lock()
					defer sinkMu.Unlock()
					return sink(gm)
				},
			}
			// run returns only with an error: the context's when it is done.
			if err := wk.run(ctx); !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				fail(err)
			}
		}()
	}
	wg.Wait()
	return runErr
}
