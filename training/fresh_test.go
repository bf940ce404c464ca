package training

import (
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"trench/datasets"
	"trench/engine"
	"trench/engine/trench"
	"trench/nn"
)

// randomSamples plays games of random moves and returns their positions
// as training samples with uniform full-search targets.
func randomSamples(g engine.Game, games int, seed uint64) []datasets.Sample {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []datasets.Sample
	for id := range games {
		s := g.Start()
		first := len(out)
		for ply := 0; ply < 60 && !s.Over(); ply++ {
			acts := s.LegalActions(nil)
			r := datasets.Sample{State: s.String(), ToMove: s.ToMove(), FullSearch: true, GameID: int64(id)}
			for _, a := range acts {
				r.Actions = append(r.Actions, int32(a))
				r.Probs = append(r.Probs, 1/float32(len(acts)))
			}
			out = append(out, r)
			s.Play(acts[rng.IntN(len(acts))])
		}
		result := []float32{1, -1}
		if rng.IntN(2) == 0 {
			result = []float32{-1, 1}
		}
		for i := first; i < len(out); i++ {
			out[i].Result, out[i].Score, out[i].SearchValue = result, []float32{float32(rng.IntN(36)), float32(rng.IntN(36))}, []float32{0.2, -0.2}
		}
	}
	return out
}

// TestFreshLosses measures nets on positions as they arrive: a new net
// with both bases predicts exactly what the aids do, a net without them
// does not, and an arrival of more than freshMax positions is measured on
// freshMax of them at most.
func TestFreshLosses(t *testing.T) {
	dir := t.TempDir()
	samples := randomSamples(trench.Game, 12, 1)
	if _, err := datasets.WriteShard(dir, trench.Game, samples); err != nil {
		t.Fatal(err)
	}
	win := datasets.NewWindow(dir, trench.Game, datasets.WindowParams{Min: 100000, Exponent: 1}, io.Discard)
	added, err := win.Refresh()
	if err != nil || added != len(samples) || added <= freshMax {
		t.Fatalf("window: %d new positions of %d, %v", added, len(samples), err)
	}
	for _, tc := range []struct {
		name        string
		value, poli string
		sameAsAids  bool
	}{
		{"both bases", nn.ValueBaseMaterial, nn.PolicyBaseCapture, true},
		{"no bases", nn.ValueBaseNone, nn.PolicyBaseNone, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := nn.Preset("tiny", trench.Game.FeatureShape(), trench.Game.ActionCount())
			if err != nil {
				t.Fatal(err)
			}
			c.ValueBase, c.PolicyBase = tc.value, tc.poli
			w, err := nn.NewWeights(c, rand.New(rand.NewPCG(2, 2)))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := nn.NewTrainer(w, nn.DefaultTrainConfig())
			if err != nil {
				t.Fatal(err)
			}
			f := newFreshLosses(trench.Game, 0.5, 0.5)
			if err := f.measure(tr, win, added); err != nil {
				t.Fatal(err)
			}
			var m Metrics
			f.report(&m)
			if m.FreshPositions == 0 || m.FreshPositions > freshMax || m.FreshPositions < freshMax/2 {
				t.Errorf("measured %d of %d new positions, want at most %d and more than half that", m.FreshPositions, added, freshMax)
			}
			for _, v := range []float64{m.FreshLossPolicy, m.FreshLossValue, m.FreshLossScore, m.AidsLossPolicy, m.AidsLossValue, m.AidsLossScore} {
				if !(v > 0) || math.IsInf(v, 0) {
					t.Fatalf("losses %+v", m)
				}
			}
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-4*max(1, b) }
			same := near(m.FreshLossPolicy, m.AidsLossPolicy) && near(m.FreshLossValue, m.AidsLossValue) && near(m.FreshLossScore, m.AidsLossScore)
			if same != tc.sameAsAids {
				t.Errorf("net %v / %v / %v, aids %v / %v / %v: same %v, want %v", m.FreshLossPolicy, m.FreshLossValue, m.FreshLossScore,
					m.AidsLossPolicy, m.AidsLossValue, m.AidsLossScore, same, tc.sameAsAids)
			}
			// A report starts the next period over.
			var next Metrics
			f.report(&next)
			if next.FreshPositions != 0 || next.FreshLossValue != 0 {
				t.Errorf("second report %+v", next)
			}
		})
	}
}
