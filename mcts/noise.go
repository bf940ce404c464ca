package mcts

import (
	"math"
	"math/rand/v2"
)

// addNoise mixes Dirichlet(alpha) noise into the root's priors:
// p ← (1−f)·p + f·η, keeping the priors before it in t.clean.
func (t *Tree) addNoise() {
	first, end := t.a.children(0)
	t.clean = t.clean[:0]
	for c := first; c < end; c++ {
		t.clean = append(t.clean, t.a.nodes[c].prior)
	}
	if end-first < 2 {
		return
	}
	eta := t.probs[:0]
	sum := 0.0
	for range end - first {
		g := gammaSample(t.rng, t.params.DirichletAlpha)
		eta = append(eta, g)
		sum += g
	}
	t.probs = eta
	if sum <= 0 {
		return
	}
	f := t.params.DirichletFraction
	for i, c := 0, first; c < end; i, c = i+1, c+1 {
		n := &t.a.nodes[c]
		n.prior = float32((1-f)*float64(n.prior) + f*eta[i]/sum)
	}
}

// gammaSample draws from Gamma(alpha, 1) by Marsaglia and Tsang's method,
// boosted for alpha < 1.
func gammaSample(r *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		u := r.Float64()
		return gammaSample(r, alpha+1) * math.Pow(u, 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// gumbelSample draws from the standard Gumbel distribution.
func gumbelSample(r *rand.Rand) float64 {
	u := r.Float64()
	for u == 0 {
		u = r.Float64()
	}
	return -math.Log(-math.Log(u))
}
