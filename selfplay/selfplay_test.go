package selfplay

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/mcts"
)

// collect runs self-play until n games are finished and returns them.
func collect(t *testing.T, g engine.Game, cfg Config, source NetSource, n int) []*Game {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var games []*Game
	err := Run(ctx, g, cfg, source, func(gm *Game) error {
		games = append(games, gm)
		if len(games) >= n {
			cancel()
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

func uniform(name string) NetSource {
	net := &Net{Name: name, Eval: mcts.UniformEvaluator{}}
	return func() *Net { return net }
}

func smallConfig(workers int) Config {
	cfg := DefaultConfig()
	cfg.Workers, cfg.GamesPerWorker = workers, 8
	cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 16, 4, 0.5
	return cfg
}

// TestGamesReplay checks that every record is a position of its game, in
// order, and that results match a replay of the actions.
func TestGamesReplay(t *testing.T) {
	for _, g := range []engine.Game{tictactoe.Game{}, trench.Game} {
		games := collect(t, g, smallConfig(2), uniform("u"), 12)
		ids := map[int64]bool{}
		full, total, valued, surprised := 0, 0, 0, 0
		for _, gm := range games {
			if len(gm.Samples) != len(gm.Actions) || gm.Net != "u" {
				t.Fatalf("%s: %d samples for %d actions, net %q", g.Name(), len(gm.Samples), len(gm.Actions), gm.Net)
			}
			s := g.Start()
			for i, a := range gm.Actions {
				r := gm.Samples[i]
				if r.State != s.String() || r.ToMove != s.ToMove() || ids[r.GameID] && i == 0 {
					t.Fatalf("%s: record %d is %q (id %d), want %q", g.Name(), i, r.State, r.GameID, s.String())
				}
				if r.FullSearch {
					full++
					var sum float32
					for _, p := range r.Probs {
						sum += p
					}
					if sum < 0.99 || sum > 1.01 {
						t.Errorf("%s: full-search policy sums to %v", g.Name(), sum)
					}
					if r.Surprise == nil || !(*r.Surprise >= 0 && *r.Surprise < 20) {
						t.Fatalf("%s: full-search record %d has surprise %v", g.Name(), i, r.Surprise)
					}
					if *r.Surprise > 0 {
						surprised++
					}
				} else if len(r.Actions) != 0 || r.Surprise != nil {
					t.Errorf("%s: a cheap search stored a policy target or a surprise", g.Name())
				}
				total++
				if len(r.SearchValue) != g.Players() {
					t.Fatalf("%s: record %d has search values %v", g.Name(), i, r.SearchValue)
				}
				for _, v := range r.SearchValue {
					if !(v >= -1 && v <= 1) {
						t.Fatalf("%s: record %d has search values %v", g.Name(), i, r.SearchValue)
					}
					if v != 0 {
						valued++
					}
				}
				if err := engine.PlayChecked(s, a); err != nil {
					t.Fatal(err)
				}
			}
			ids[gm.Samples[0].GameID] = true
			if !s.Over() {
				t.Fatalf("%s: the game's actions do not end it", g.Name())
			}
			res := s.Result(nil)
			for p := range res {
				if gm.Result[p] != res[p] || gm.Samples[0].Result[p] != res[p] {
					t.Errorf("%s: recorded result %v, replayed %v", g.Name(), gm.Result, res)
				}
			}
		}
		if len(ids) != len(games) {
			t.Errorf("%s: %d distinct game ids for %d games", g.Name(), len(ids), len(games))
		}
		// The uniform evaluator values every position 0: non-zero search
		// values come from the game ends the searches reached.
		if valued == 0 {
			t.Errorf("%s: every search value is 0", g.Name())
		}
		// The search's targets leave the uniform priors wherever it
		// found a move better than another.
		if surprised == 0 {
			t.Errorf("%s: no full search was surprised", g.Name())
		}
		if full == 0 || full == total {
			t.Errorf("%s: %d of %d positions had a full search, want about half", g.Name(), full, total)
		}
	}
}

// leaning gives the first legal action prior 0.6 and spreads the rest
// evenly; every value is 0.
type leaning struct{}

func (leaning) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	if err := (mcts.UniformEvaluator{}).Evaluate(states, out); err != nil {
		return err
	}
	for i := range out {
		leaningPriors(out[i].Policy)
	}
	return nil
}

// leaningPriors writes leaning's priors into p.
func leaningPriors(p []float32) {
	for j := range p {
		p[j] = 0.4 / float32(max(1, len(p)-1))
	}
	p[0] = 0.6
	if len(p) == 1 {
		p[0] = 1
	}
}

// TestSurpriseIsAgainstTheRawPriors checks that each full search records
// the KL divergence of its policy target from the evaluator's priors, not
// from the Dirichlet-noised ones that PUCT self-play searches with.
func TestSurpriseIsAgainstTheRawPriors(t *testing.T) {
	cfg := smallConfig(1)
	cfg.Search.Algorithm = mcts.PUCT
	cfg.Search.DirichletAlpha, cfg.Search.DirichletFraction = 0.3, 0.25
	net := &Net{Name: "l", Eval: leaning{}}
	checked := 0
	for _, gm := range collect(t, tictactoe.Game{}, cfg, func() *Net { return net }, 4) {
		for i, r := range gm.Samples {
			if !r.FullSearch {
				continue
			}
			s, err := tictactoe.Game{}.ParseState(r.State)
			if err != nil {
				t.Fatal(err)
			}
			acts := s.LegalActions(nil)
			priors := make([]float32, len(acts))
			leaningPriors(priors)
			want := 0.0
			for j, a := range r.Actions {
				k := slices.Index(acts, int(a))
				want += float64(r.Probs[j]) * math.Log(float64(r.Probs[j])/float64(priors[k]))
			}
			if math.Abs(float64(*r.Surprise)-want) > 1e-4 {
				t.Fatalf("position %d: surprise %v, want %v", i, *r.Surprise, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no full search")
	}
}

// TestNewNetAtGameBoundary checks that games started after a net change
// use the new net and that no game is played by two nets.
func TestNewNetAtGameBoundary(t *testing.T) {
	var started atomic.Int64
	a := &Net{Name: "a", Eval: mcts.UniformEvaluator{}}
	b := &Net{Name: "b", Eval: mcts.UniformEvaluator{}}
	source := func() *Net {
		if started.Add(1) > 8 {
			return b
		}
		return a
	}
	games := collect(t, tictactoe.Game{}, smallConfig(1), source, 24)
	names := map[string]int{}
	for _, gm := range games {
		names[gm.Net]++
	}
	if names["a"] == 0 || names["b"] == 0 || names["a"] > 8 {
		t.Errorf("games per net %v: want at most 8 on a, the rest on b", names)
	}
}

// failing is an evaluator that fails after some calls.
type failing struct {
	mu    sync.Mutex
	calls int
}

func (f *failing) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls > 5 {
		return errors.New("net unavailable")
	}
	return mcts.UniformEvaluator{}.Evaluate(states, out)
}

func TestErrorsStopTheRun(t *testing.T) {
	f := &failing{}
	net := &Net{Name: "f", Eval: f}
	err := Run(context.Background(), tictactoe.Game{}, smallConfig(2), func() *Net { return net }, func(*Game) error { return nil }, nil)
	if err == nil || err.Error() != "net unavailable" {
		t.Errorf("Run = %v, want the evaluator's error", err)
	}
	sinkErr := errors.New("disk full")
	err = Run(context.Background(), tictactoe.Game{}, smallConfig(2), uniform("u"), func(*Game) error { return sinkErr }, nil)
	if !errors.Is(err, sinkErr) {
		t.Errorf("Run = %v, want the sink's error", err)
	}
	bad := smallConfig(1)
	bad.FullFraction = 2
	if err := Run(context.Background(), tictactoe.Game{}, bad, uniform("u"), nil, nil); err == nil {
		t.Error("Run accepted a full-search fraction of 2")
	}
}

// BenchmarkSelfPlayUniformTrench measures self-play's own cost: Trench
// moves per second with a free evaluator (one op is one move).
func BenchmarkSelfPlayUniformTrench(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Workers, cfg.GamesPerWorker = 1, 32
	var stats Stats
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() {
		done <- Run(ctx, trench.Game, cfg, uniform("u"), func(*Game) error { return nil }, &stats)
	}()
	for stats.Positions.Load() < int64(b.N) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(stats.Positions.Load())/b.Elapsed().Seconds(), "moves/s")
}
