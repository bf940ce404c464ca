package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
)

func TestThreadedSearch(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		for _, threads := range []int{2, 4, 8} {
			for _, text := range []string{"xx./oo./... x", "xx./.xo/o.. o", "x.o/.../... x"} {
				t.Run(fmt.Sprintf("%s/%d/%s", algo, threads, text), func(t *testing.T) {
					s := parse(t, text)
					_, best := tictactoe.Solve(s)
					r := search(t, s, params(algo), 800, threads)
					if r.Visits != 801 {
						t.Errorf("root has %d visits, want 801", r.Visits)
					}
					if !slices.Contains(best, r.Action) {
						t.Errorf("chose %d, best %v", r.Action, best)
					}
				})
			}
		}
	}
}

// strictEvaluator is a uniform evaluator that fails the test when asked
// about a finished game, and counts its calls and states.
type strictEvaluator struct {
	t                     testing.TB
	mu                    sync.Mutex
	calls, states, widest int
}

func (e *strictEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	e.mu.Lock()
	e.calls++
	e.states += len(states)
	e.widest = max(e.widest, len(states))
	e.mu.Unlock()
	for _, s := range states {
		if s.Over() {
			e.t.Errorf("evaluator asked about the finished game %s", s)
		}
	}
	return UniformEvaluator{}.Evaluate(states, out)
}

func TestTerminalsUseResult(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		tree, err := NewTree(parse(t, "xx./oo./... x"), params(algo))
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Search(context.Background(), &strictEvaluator{t: t}, 300, 2); err != nil {
			t.Fatal(err)
		}
		var r Result
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		for _, a := range r.Actions {
			if a.Action == 2 && (a.Q != 1 || a.Visits == 0) {
				t.Errorf("%s: the winning move has Q %g after %d visits, want 1", algo, a.Q, a.Visits)
			}
		}
	}
	over, err := NewTree(parse(t, "xxx/oo./... o"), params(PUCT))
	if err != nil {
		t.Fatal(err)
	}
	if err := over.Search(context.Background(), UniformEvaluator{}, 10, 1); !errors.Is(err, ErrGameOver) {
		t.Errorf("searching a finished game: %v, want ErrGameOver", err)
	}
}

// faultyEvaluator answers badly from its nth call on.
type faultyEvaluator struct {
	n, calls int
	mode     string
}

func (e *faultyEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	e.calls++
	if err := (UniformEvaluator{}).Evaluate(states, out); err != nil || e.calls < e.n {
		return err
	}
	switch e.mode {
	case "error":
		return errors.New("net on fire")
	case "policy":
		out[0].Policy = out[0].Policy[:0]
	case "values":
		out[0].Values = out[0].Values[:1]
	}
	return nil
}

func TestEvaluatorFaultsLeaveTreeConsistent(t *testing.T) {
	for _, mode := range []string{"error", "policy", "values"} {
		for _, algo := range []Algorithm{PUCT, Gumbel} {
			tree, err := NewTree(parse(t, "x../.../... o"), params(algo))
			if err != nil {
				t.Fatal(err)
			}
			if err := tree.Search(context.Background(), &faultyEvaluator{n: 20, mode: mode}, 100, 1); err == nil {
				t.Errorf("%s/%s: no error from a faulty evaluator", mode, algo)
			}
			if err := tree.Search(context.Background(), UniformEvaluator{}, 100, 3); err != nil {
				t.Fatalf("%s/%s: search after a fault: %v", mode, algo, err)
			}
			var r Result
			if err := tree.Result(&r); err != nil {
				t.Fatal(err)
			}
			sum := 0
			for _, a := range r.Actions {
				sum += a.Visits
			}
			if sum != r.Visits-1 {
				t.Errorf("%s/%s: children have %d visits, root %d", mode, algo, sum, r.Visits)
			}
		}
	}
}

func TestSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tree, err := NewTree(tictactoe.Game{}.Start(), params(PUCT))
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(ctx, UniformEvaluator{}, 100, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search returned %v", err)
	}
}

func TestNewTreeRejectsBadParams(t *testing.T) {
	mutate := []func(*Params){
		func(p *Params) { p.Algorithm = 7 },
		func(p *Params) { p.CPUCT = -1 },
		func(p *Params) { p.DirichletFraction = 2 },
		func(p *Params) { p.DirichletFraction, p.DirichletAlpha = 0.25, 0 },
		func(p *Params) { p.Temperature = -1 },
		func(p *Params) { p.Algorithm, p.GumbelConsidered = Gumbel, 0 },
		func(p *Params) { p.MaxNodes = 0 },
		func(p *Params) { p.MinimaxWeight = -0.1 },
		func(p *Params) { p.MinimaxWeight = 1.5 },
		func(p *Params) { p.MinimaxWeight = math.NaN() },
		func(p *Params) { p.Algorithm, p.MinimaxWeight = Gumbel, 0.3 },
	}
	for i, m := range mutate {
		p := DefaultParams()
		m(&p)
		if _, err := NewTree(tictactoe.Game{}.Start(), p); err == nil {
			t.Errorf("case %d: NewTree accepted %+v", i, p)
		}
	}
}

// PriorEvaluator gives the listed actions their priors, the others 0.001,
// and every player 0; the search follows the largest prior.
func TestPriorEvaluator(t *testing.T) {
	s := tictactoe.Game{}.Start()
	acts := s.LegalActions(nil)
	ev := PriorEvaluator{acts[4]: 0.9, acts[0]: 0.05}
	out := []Evaluation{{Actions: acts}}
	if err := ev.Evaluate([]engine.State{s}, out); err != nil {
		t.Fatal(err)
	}
	for i, a := range acts {
		want := float32(0.001)
		switch a {
		case acts[4]:
			want = 0.9
		case acts[0]:
			want = 0.05
		}
		if out[0].Policy[i] != want {
			t.Errorf("prior of action %d = %v, want %v", a, out[0].Policy[i], want)
		}
	}
	if !slices.Equal(out[0].Values, []float32{0, 0}) {
		t.Errorf("values %v, want 0 for each player", out[0].Values)
	}
	tree, err := NewTree(s, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), ev, 20, 1); err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := tree.Result(&r); err != nil || r.Action != acts[4] {
		t.Errorf("the search chose %d (%v), want %d", r.Action, err, acts[4])
	}
}
