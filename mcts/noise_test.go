package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
)

func TestGammaSampleMean(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, alpha := range []float64{0.03, 0.3, 1, 2.5} {
		sum := 0.0
		const n = 20000
		for range n {
			sum += gammaSample(r, alpha)
		}
		if mean := sum / n; math.Abs(mean-alpha) > 0.1*alpha+0.01 {
			t.Errorf("Gamma(%g) sample mean %g", alpha, mean)
		}
	}
}

func TestDirichletNoise(t *testing.T) {
	p := params(PUCT)
	p.DirichletFraction = 0.25
	r := search(t, tictactoe.Game{}.Start(), p, 1, 1)
	sum, spread := 0.0, 0.0
	for _, a := range r.Actions {
		sum += float64(a.Prior)
		spread += math.Abs(float64(a.Prior) - 1.0/9)
		if a.Prior < 0.75/9-1e-6 {
			t.Errorf("prior %g below the undiluted share", a.Prior)
		}
	}
	if math.Abs(sum-1) > 1e-5 || spread < 1e-3 {
		t.Errorf("noisy priors sum to %g, spread %g: %+v", sum, spread, r.Actions)
	}
	again := search(t, tictactoe.Game{}.Start(), p, 1, 1)
	for i := range r.Actions {
		if r.Actions[i].Prior != again.Actions[i].Prior {
			t.Fatalf("the same seed gave different noise")
		}
	}
}

func TestTemperature(t *testing.T) {
	for _, tc := range []struct {
		temp     float64
		distinct int // at least
	}{{0, 1}, {1, 3}} {
		seen := map[int]bool{}
		for seed := range uint64(30) {
			p := params(PUCT)
			p.Temperature, p.Seed = tc.temp, seed
			seen[search(t, parse(t, "x../.../... o"), p, 50, 1).Action] = true
		}
		if tc.temp == 0 && len(seen) != 1 || len(seen) < tc.distinct {
			t.Errorf("temperature %g chose %d distinct moves over 30 seeds", tc.temp, len(seen))
		}
	}
}

// fixedPriorEvaluator gives the first legal action prior 0.8, spreads 0.2
// over the rest, and values every state 0.
type fixedPriorEvaluator struct{}

func (fixedPriorEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	for i := range states {
		n := len(out[i].Actions)
		out[i].Policy = out[i].Policy[:0]
		for j := range n {
			p := float32(0.2) / float32(n-1)
			if j == 0 {
				p = 0.8
			}
			out[i].Policy = append(out[i].Policy, p)
		}
		out[i].Values = append(out[i].Values[:0], 0, 0)
	}
	return nil
}

func TestPolicyTemperature(t *testing.T) {
	for _, temp := range []float64{0, 1, 1.5, 3, 0.5} {
		p := params(PUCT)
		p.PolicyTemperature = temp
		tree, err := NewTree(tictactoe.Game{}.Start(), p)
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Search(context.Background(), fixedPriorEvaluator{}, 1, 1); err != nil {
			t.Fatal(err)
		}
		var r Result
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		inv := 1.0
		if temp > 0 {
			inv = 1 / temp
		}
		first, rest := math.Pow(0.8, inv), math.Pow(0.2/8, inv)
		want := first / (first + 8*rest)
		if got := float64(r.Actions[0].Prior); math.Abs(got-want) > 1e-5 {
			t.Errorf("policy temperature %g: first prior %.6f, want %.6f", temp, got, want)
		}
	}
	p := params(PUCT)
	p.PolicyTemperature = -1
	if _, err := NewTree(tictactoe.Game{}.Start(), p); err == nil {
		t.Error("a negative policy temperature was accepted")
	}
}
