package neteval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/nn"
)

// randomStates plays random games of g and keeps n positions along them.
func randomStates(g engine.Game, n int, seed uint64) []engine.State {
	rng := rand.New(rand.NewPCG(seed, 1))
	var states []engine.State
	s := g.Start()
	for len(states) < n {
		if s.Over() {
			s = g.Start()
		}
		states = append(states, s.Clone())
		acts := s.LegalActions(nil)
		s.Play(acts[rng.IntN(len(acts))])
	}
	return states
}

// evaluateAll evaluates states in one call, the even-numbered ones with
// the legal actions given as the search gives them.
func evaluateAll(t *testing.T, ev mcts.Evaluator, states []engine.State) []mcts.Evaluation {
	t.Helper()
	out := make([]mcts.Evaluation, len(states))
	for i := 0; i < len(states); i += 2 {
		out[i].Actions = states[i].LegalActions(nil)
	}
	if err := ev.Evaluate(states, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func sameEvaluations(a, b []mcts.Evaluation) error {
	for i := range a {
		if !slices.Equal(a[i].Policy, b[i].Policy) || !slices.Equal(a[i].Values, b[i].Values) {
			return fmt.Errorf("state %d: priors %v values %v, want %v and %v", i, a[i].Policy, a[i].Values, b[i].Policy, b[i].Values)
		}
	}
	return nil
}

// TestCacheChangesNoAnswer checks, for Trench and Trichess (whose
// features hold more than its hash) with nets on both bases, that a
// cached evaluator answers exactly as one without a cache: the first
// time, when every position comes from the cache, and when cached and new
// positions are mixed in one call.
func TestCacheChangesNoAnswer(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		t.Run(g.Name(), func(t *testing.T) {
			inf := basedNet(t, g, nn.ValueBaseMaterial, nn.PolicyBaseCapture)
			plain, err := NewWithScoreUtility(g, inf, DefaultScoreUtility)
			if err != nil {
				t.Fatal(err)
			}
			cached, err := New(g, inf)
			if err != nil {
				t.Fatal(err)
			}
			states := randomStates(g, 40, 3)
			want := evaluateAll(t, plain, states)
			if err := sameEvaluations(evaluateAll(t, cached, states[:25]), want[:25]); err != nil {
				t.Fatalf("first call: %v", err)
			}
			if hits, lookups := cached.CacheStats(); lookups != 25 || hits > 2 {
				t.Fatalf("first call: %d hits in %d lookups", hits, lookups)
			}
			// The cache is direct-mapped under a random hash seed, so two
			// of the states may share a slot; the second call must find
			// every state still held, and nearly all are.
			firstHits, _ := cached.CacheStats()
			held := heldStates(cached, states[:25])
			if held < 20 {
				t.Fatalf("the cache holds %d of the 25 states just evaluated", held)
			}
			if err := sameEvaluations(evaluateAll(t, cached, states[:25]), want[:25]); err != nil {
				t.Fatalf("from the cache: %v", err)
			}
			if hits, lookups := cached.CacheStats(); lookups != 50 || hits-firstHits != int64(held) {
				t.Fatalf("second call: %d hits in %d lookups, want the %d states held", hits-firstHits, lookups-25, held)
			}
			mixed := append(slices.Clone(states[15:]), states[:3]...)
			wantMixed := append(slices.Clone(want[15:]), want[:3]...)
			if err := sameEvaluations(evaluateAll(t, cached, mixed), wantMixed); err != nil {
				t.Fatalf("cached and new states in one call: %v", err)
			}
		})
	}
}

// heldStates counts the states whose outputs the evaluator's cache
// holds, keyed as Evaluate keys them.
func heldStates(e *Evaluator, states []engine.State) int {
	x := make([]float32, e.inf.Config().Shape.Size())
	held := 0
	for _, s := range states {
		s.EncodeFeatures(x)
		key := e.cache.key(x, s.LegalActions(nil))
		sh, entry := e.cache.slot(key)
		sh.mu.Lock()
		if entry.used && entry.key == key {
			held++
		}
		sh.mu.Unlock()
	}
	return held
}

// TestCacheKeysOnActions checks that the same position asked with its
// legal actions in another order gets priors in that order, not the
// cached ones.
func TestCacheKeysOnActions(t *testing.T) {
	inf := tinyNet(t, trench.Game)
	cached, err := New(trench.Game, inf)
	if err != nil {
		t.Fatal(err)
	}
	s := trench.Game.Start()
	acts := s.LegalActions(nil)
	first := []mcts.Evaluation{{Actions: acts}}
	if err := cached.Evaluate([]engine.State{s}, first); err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(acts)
	slices.Reverse(reversed)
	second := []mcts.Evaluation{{Actions: reversed}}
	if err := cached.Evaluate([]engine.State{s}, second); err != nil {
		t.Fatal(err)
	}
	p := slices.Clone(second[0].Policy)
	slices.Reverse(p)
	if !slices.Equal(p, first[0].Policy) {
		t.Errorf("priors for reversed actions %v, want the reverse of %v", second[0].Policy, first[0].Policy)
	}
	if hits, _ := cached.CacheStats(); hits != 0 {
		t.Errorf("%d cache hits for a different action list", hits)
	}
}

// TestCacheConcurrent has several goroutines evaluate overlapping
// positions on one cached evaluator (run with -race) and checks every
// answer against an evaluator without a cache.
func TestCacheConcurrent(t *testing.T) {
	inf := tinyNet(t, trench.Game)
	plain, err := NewWithScoreUtility(trench.Game, inf, DefaultScoreUtility)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := New(trench.Game, inf)
	if err != nil {
		t.Fatal(err)
	}
	states := randomStates(trench.Game, 30, 5)
	evaluateConcurrently(t, cached, states, evaluateAll(t, plain, states), 8, 1)
}

// evaluateConcurrently has workers goroutines evaluate ev at once, five
// rounds each of 20 of states from offset (worker·stride + round) modulo
// len(states)−20, and checks every answer against want, states' answers
// evaluated one at a time.
func evaluateConcurrently(t *testing.T, ev mcts.Evaluator, states []engine.State, want []mcts.Evaluation, workers, stride int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for round := range 5 {
				lo := (w*stride + round) % (len(states) - 20)
				out := make([]mcts.Evaluation, 20)
				if err := ev.Evaluate(states[lo:lo+20], out); err != nil {
					errs <- err
					return
				}
				if err := sameEvaluations(out, want[lo:lo+20]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCacheSmall checks that a cache of one entry a shard evicts without
// mixing up positions.
func TestCacheSmall(t *testing.T) {
	inf := tinyNet(t, trench.Game)
	plain, err := NewWithScoreUtility(trench.Game, inf, DefaultScoreUtility)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := NewWithScoreUtility(trench.Game, inf, DefaultScoreUtility)
	if err != nil {
		t.Fatal(err)
	}
	cached.cache = newCache(1)
	states := randomStates(trench.Game, 200, 9)
	want := evaluateAll(t, plain, states)
	for range 3 {
		if err := sameEvaluations(evaluateAll(t, cached, states), want); err != nil {
			t.Fatal(err)
		}
	}
	if hits, lookups := cached.CacheStats(); lookups != 600 || hits == 0 {
		t.Errorf("%d hits in %d lookups", hits, lookups)
	}
}
