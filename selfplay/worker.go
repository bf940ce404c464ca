package selfplay

import (
	"context"
	"math/rand/v2"
	"sync/atomic"

	"trench/datasets"
	"trench/engine"
	"trench/mcts"
)

// worker drives a set of games, each searched by its own tree; all their
// leaves are evaluated together, one call per net per step.
type worker struct {
	game   engine.Game
	cfg    Config
	source NetSource
	sink   func(*Game) error
	stats  *Stats
	ids    *atomic.Int64
	rng    *rand.Rand

	slots  []*slot
	search map[*Net]*mcts.BatchSearch
	result mcts.Result
}

// slot is one game in progress.
type slot struct {
	tree    *mcts.Tree
	net     *Net
	id      int64
	full    bool
	samples []datasets.Sample
	actions []int
}

func (w *worker) run(ctx context.Context) error {
	w.search = map[*Net]*mcts.BatchSearch{}
	w.slots = make([]*slot, w.cfg.GamesPerWorker)
	for i := range w.slots {
		s := &slot{}
		if err := w.newGame(s); err != nil {
			return err
		}
		w.slots[i] = s
	}
	groups := map[*Net][]*mcts.Tree{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if w.cfg.Throttle != nil {
			if err := w.cfg.Throttle(ctx); err != nil {
				return err
			}
		}
		for _, s := range w.slots {
			if s.tree.Done() {
				if err := w.move(s); err != nil {
					return err
				}
			}
		}
		clear(groups)
		for _, s := range w.slots {
			groups[s.net] = append(groups[s.net], s.tree)
		}
		for net, trees := range groups {
			bs := w.search[net]
			if bs == nil {
				bs = &mcts.BatchSearch{Evaluator: net.Eval, LeavesPerTree: w.cfg.LeavesPerTree}
				w.search[net] = bs
			}
			if _, err := bs.Step(trees); err != nil {
				return err
			}
			groups[net] = trees[:0]
		}
		// Forget the batch buffers of nets no game uses any more.
		for net := range w.search {
			if _, used := groups[net]; !used {
				delete(w.search, net)
			}
		}
	}
}

// newGame starts a new game in s with the current net.
func (w *worker) newGame(s *slot) error {
	s.net = w.source()
	s.id = w.ids.Add(1) - 1
	s.samples, s.actions = s.samples[:0:0], s.actions[:0:0]
	p := w.cfg.Search
	p.Seed = w.rng.Uint64()
	if s.tree == nil {
		t, err := mcts.NewTree(w.game.Start(), p)
		if err != nil {
			return err
		}
		s.tree = t
	} else {
		s.tree.Reset(w.game.Start())
	}
	return w.begin(s)
}

// begin starts the search for s's next move, full or cheap.
func (w *worker) begin(s *slot) error {
	s.full = w.rng.Float64() < w.cfg.FullFraction
	sims := w.cfg.CheapSims
	if s.full {
		sims = w.cfg.FullSims
	}
	return s.tree.BeginSearch(sims)
}

// move records the finished search of s, plays its move, and either
// begins the next search or finishes the game and starts another.
func (w *worker) move(s *slot) error {
	r := &w.result
	if err := s.tree.Result(r); err != nil {
		return err
	}
	state := s.tree.State()
	sample := datasets.Sample{State: state.String(), ToMove: state.ToMove(), FullSearch: s.full, GameID: s.id}
	sample.SearchValue = make([]float32, len(r.Value))
	for i, v := range r.Value {
		sample.SearchValue[i] = min(max(v, -1), 1)
	}
	if s.full {
		for _, a := range r.Actions {
			if a.Policy > 0 {
				sample.Actions = append(sample.Actions, int32(a.Action))
				sample.Probs = append(sample.Probs, a.Policy)
			}
		}
		// The raw priors are those the root was expanded with: the
		// evaluator's, with the tactical aids' capture priors mixed in
		// when the run uses them.
		surprise := float32(r.Surprise())
		sample.Surprise = &surprise
		w.stats.FullSearches.Add(1)
	}
	s.samples = append(s.samples, sample)
	action := r.Action
	if len(s.actions) < w.cfg.OpeningPlies {
		action = samplePolicy(w.rng, r.Actions, action)
	}
	if err := s.tree.Advance(action); err != nil {
		return err
	}
	s.actions = append(s.actions, action)
	w.stats.Positions.Add(1)
	if end := s.tree.State(); end.Over() {
		gm := &Game{Samples: s.samples, Actions: s.actions, Result: end.Result(nil), Score: end.Scores(nil), Net: s.net.Name}
		for i := range gm.Samples {
			gm.Samples[i].Result, gm.Samples[i].Score = gm.Result, gm.Score
		}
		w.stats.Games.Add(1)
		if err := w.sink(gm); err != nil {
			return err
		}
		return w.newGame(s)
	}
	return w.begin(s)
}

// samplePolicy draws an action in proportion to the search policy,
// falling back to the given action when the policy is empty.
func samplePolicy(rng *rand.Rand, stats []mcts.ActionStats, fallback int) int {
	var total float32
	for _, a := range stats {
		total += a.Policy
	}
	if !(total > 0) {
		return fallback
	}
	x := rng.Float32() * total
	for _, a := range stats {
		x -= a.Policy
		if x < 0 && a.Policy > 0 {
			return a.Action
		}
	}
	return fallback
}
