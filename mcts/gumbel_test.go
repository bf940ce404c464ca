package mcts

import (
	"math"
	"slices"
	"testing"
)

func TestConsideredVisits(t *testing.T) {
	// Expected sequences computed with mctx's
	// seq_halving.get_sequence_of_considered_visits.
	tests := []struct {
		m, sims int
		want    []int32
	}{
		{4, 8, []int32{0, 0, 0, 0, 1, 1, 2, 2}},
		{16, 32, []int32{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}},
		{1, 4, []int32{0, 1, 2, 3}},
		{3, 10, []int32{0, 0, 0, 1, 1, 2, 2, 3, 3, 4}},
		{2, 5, []int32{0, 0, 1, 1, 2}},
		{16, 0, nil},
	}
	for _, tc := range tests {
		if got := consideredVisits(nil, tc.m, tc.sims); !slices.Equal(got, tc.want) {
			t.Errorf("consideredVisits(%d, %d) = %v, want %v", tc.m, tc.sims, got, tc.want)
		}
	}
}

func TestGumbelFewSimulations(t *testing.T) {
	tests := []struct {
		text string
		sims int
		want int
	}{
		{"xx./oo./... x", 8, 2},
		{"xx./oo./... x", 16, 2},
		{"xx./.o./o.. x", 8, 2},
		{"xx./.o./o.. x", 32, 2},
		{"x../.oo/x.. x", 16, 3},
	}
	for _, tc := range tests {
		for seed := uint64(0); seed < 5; seed++ {
			p := params(Gumbel)
			p.Seed = seed
			r := search(t, parse(t, tc.text), p, tc.sims, 1)
			if r.Action != tc.want {
				t.Errorf("%q with %d simulations, seed %d: chose %d, want %d", tc.text, tc.sims, seed, r.Action, tc.want)
			}
			if r.Visits != tc.sims+1 {
				t.Errorf("%q: %d root visits after %d simulations", tc.text, r.Visits, tc.sims)
			}
		}
	}
}

func TestPolicyTargets(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		r := search(t, parse(t, "xx./oo./... x"), params(algo), 64, 1)
		sum, visits := 0.0, 0
		for _, a := range r.Actions {
			sum += float64(a.Policy)
			visits += a.Visits
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("%s: policy target sums to %g", algo, sum)
		}
		if visits != 64 {
			t.Errorf("%s: children have %d visits, want 64", algo, visits)
		}
		best := slices.MaxFunc(r.Actions, func(a, b ActionStats) int { return cmpFloat(a.Policy, b.Policy) })
		if best.Action != 2 {
			t.Errorf("%s: policy target favours %d, want 2: %+v", algo, best.Action, r.Actions)
		}
		if len(r.PV) == 0 || r.PV[0] != r.Action {
			t.Errorf("%s: PV %v does not start with the chosen %d", algo, r.PV, r.Action)
		}
	}
}

// cmpFloat orders two float32 values.
func cmpFloat(a, b float32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestGumbelDeterministicWithoutNoise(t *testing.T) {
	p := params(Gumbel)
	p.GumbelScale = 0
	var first []ActionStats
	for seed := uint64(0); seed < 3; seed++ {
		p.Seed = seed
		r := search(t, parse(t, "x../.../... o"), p, 50, 1)
		if first == nil {
			first = r.Actions
		} else if !slices.Equal(first, r.Actions) {
			t.Errorf("seed %d changed a noiseless search: %+v vs %+v", seed, r.Actions, first)
		}
	}
}
