package mcts

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"trench/engine"
	"trench/engine/trench"
)

// hashEvaluator gives each state priors and values drawn from a hash of
// its text: uneven, reproducible and safe for concurrent use. Two players'
// values sum to zero; with more, each is drawn on its own.
type hashEvaluator struct{}

func (hashEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	for i, s := range states {
		h := fnv.New64a()
		h.Write([]byte(s.String()))
		x := h.Sum64()
		next := func() float32 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			return float32(x>>40) / (1 << 24)
		}
		e := &out[i]
		e.Policy = e.Policy[:0]
		for range e.Actions {
			e.Policy = append(e.Policy, next()*next())
		}
		e.Values = e.Values[:0]
		if players := s.Game().Players(); players != 2 {
			for range players {
				e.Values = append(e.Values, 2*next()-1)
			}
			continue
		}
		v := 2*next() - 1
		e.Values = append(e.Values, v, -v)
	}
	return nil
}

// checkTree fails the test unless every node of tree is settled (nothing
// in flight or pending) and its statistics add up: an expanded node's
// visits are one (its own evaluation) plus its children's, and its value
// sums its own value and its children's sums; a terminal node's sums are
// its visits times its result; an unexpanded node has no visits.
func checkTree(t *testing.T, tree *Tree) {
	t.Helper()
	tree.mu.Lock()
	defer tree.mu.Unlock()
	a, p := &tree.a, tree.players
	for i := range a.nodes {
		n := &a.nodes[i]
		sums, raw := a.sums[i*p:(i+1)*p], a.raw[i*p:(i+1)*p]
		if n.inflight != 0 {
			t.Fatalf("node %d: %d simulations still in flight", i, n.inflight)
		}
		switch n.status {
		case pending:
			t.Fatalf("node %d still pending", i)
		case unexpanded:
			if n.visits != 0 {
				t.Fatalf("unexpanded node %d has %d visits", i, n.visits)
			}
		case terminal:
			for k := range p {
				if want := float64(n.visits) * float64(raw[k]); math.Abs(sums[k]-want) > 1e-9 {
					t.Fatalf("terminal node %d: player %d's sum %g, want %d × %g", i, k, sums[k], n.visits, raw[k])
				}
			}
		case expanded:
			visits := int32(1)
			want := make([]float64, p)
			for k := range p {
				want[k] = float64(raw[k])
			}
			first, end := a.children(int32(i))
			for c := first; c < end; c++ {
				visits += a.nodes[c].visits
				for k := range p {
					want[k] += a.sums[int(c)*p+k]
				}
			}
			if n.visits != visits {
				t.Fatalf("node %d: %d visits, want 1 + its children's = %d", i, n.visits, visits)
			}
			for k := range p {
				if math.Abs(sums[k]-want[k]) > 1e-6*float64(visits) {
					t.Fatalf("node %d: player %d's sum %g, want its value plus its children's = %g", i, k, sums[k], want[k])
				}
			}
		}
	}
}

// TestThreadedSearchConsistent searches Trench with several threads and a
// fixed number of simulations per move, keeping the tree from move to
// move, and checks after every search that the root gained exactly those
// simulations and that the whole tree's statistics add up. Run it with
// -race: the threads share the tree.
func TestThreadedSearchConsistent(t *testing.T) {
	moves := 12
	if testing.Short() {
		moves = 4
	}
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		for _, threads := range []int{1, 2, 4} {
			for _, ev := range []Evaluator{UniformEvaluator{}, hashEvaluator{}} {
				t.Run(fmt.Sprintf("%s/%d/%T", algo, threads, ev), func(t *testing.T) {
					tree, err := NewTree(trench.Game.Start(), params(algo))
					if err != nil {
						t.Fatal(err)
					}
					var r Result
					for move := range moves {
						const sims = 200
						before := 1 // the root's own evaluation
						if tree.Result(&r) == nil {
							before = r.Visits
						}
						if err := tree.Search(context.Background(), ev, sims, threads); err != nil {
							t.Fatal(err)
						}
						checkTree(t, tree)
						if err := tree.Result(&r); err != nil {
							t.Fatal(err)
						}
						if r.Visits != before+sims {
							t.Fatalf("move %d: the root has %d visits after a search of %d from %d", move, r.Visits, sims, before)
						}
						sum := 0
						for _, as := range r.Actions {
							sum += as.Visits
						}
						if sum != r.Visits-1 {
							t.Fatalf("move %d: the root's actions have %d visits, the root %d", move, sum, r.Visits)
						}
						if err := tree.Advance(r.Action); err != nil {
							t.Fatal(err)
						}
						if tree.State().Over() {
							break
						}
						checkTree(t, tree)
					}
				})
			}
		}
	}
}
