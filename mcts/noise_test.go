package mcts

import (
	"math"
	"math/rand/v2"
	"testing"

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
