package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"trench/engine"
)

var trenchShape = engine.Shape{Planes: 19, Height: 8, Width: 8}

const trenchActions = 2560

func mustPreset(t testing.TB, name string) Config {
	t.Helper()
	c, err := Preset(name, trenchShape, trenchActions)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testConfigs covers the Trench tiny preset and an odd, non-square,
// three-seat net that catches layout mistakes.
func testConfigs(t testing.TB) map[string]Config {
	return map[string]Config{
		"tiny": mustPreset(t, "tiny"),
		"odd": {Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 30, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7, ScoreScale: 10},
	}
}

// randomWeights returns weights whose batch-norm parameters and running
// statistics are far from the identity.
func randomWeights(t testing.TB, c Config, seed uint64) *Weights {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	w, err := NewWeights(c, rng)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c.specs() {
		d := w.Tensors[i].Data
		for j := range d {
			switch s.kind {
			case kindBNScale:
				d[j] = float32(0.5 + rng.Float64())
			case kindBNBias, kindBias:
				d[j] = float32(rng.NormFloat64() * 0.3)
			case kindBNMean:
				d[j] = float32(rng.NormFloat64() * 0.5)
			case kindBNVar:
				d[j] = float32(0.3 + 2*rng.Float64())
			}
		}
	}
	return w
}

func randomInput(c Config, n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := make([]float32, n*c.Shape.Size())
	for i := range x {
		if rng.IntN(3) == 0 {
			x[i] = 1
		} else if rng.IntN(4) == 0 {
			x[i] = float32(rng.NormFloat64())
		}
	}
	return x
}

type outputs struct{ policy, value, score []float32 }

func newOutputs(c Config, n int) outputs {
	return outputs{make([]float32, n*c.Actions), make([]float32, n*c.Seats*3), make([]float32, n*c.Seats)}
}

// closeTo reports the worst relative difference, with differences of
// values near zero measured against the output's scale.
func worstRelative(got, want []float32) float64 {
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(float64(v)))
	}
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		den := max(math.Abs(float64(want[i])), 0.01*scale, 1e-6)
		worst = max(worst, d/den)
	}
	return worst
}

func TestFastPassMatchesGorgonia(t *testing.T) {
	for name, c := range testConfigs(t) {
		for _, n := range []int{1, 3, 8} {
			w := randomWeights(t, c, 7)
			tr, err := NewTrainer(w, DefaultTrainConfig())
			if err != nil {
				t.Fatal(err)
			}
			inf, err := NewInference(w)
			if err != nil {
				t.Fatal(err)
			}
			x := randomInput(c, n, uint64(n))
			want, got := newOutputs(c, n), newOutputs(c, n)
			if err := tr.EvalForward(x, n, want.policy, want.value, want.score); err != nil {
				t.Fatal(err)
			}
			inf.Forward(x, n, got.policy, got.value, got.score)
			for _, o := range []struct {
				what      string
				got, want []float32
			}{{"policy", got.policy, want.policy}, {"value", got.value, want.value}, {"score", got.score, want.score}} {
				if r := worstRelative(o.got, o.want); r > 1e-4 || math.IsNaN(r) {
					t.Errorf("%s n=%d %s: relative difference %.3g > 1e-4 (got %v…, want %v…)", name, n, o.what, r, o.got[:3], o.want[:3])
				}
			}
			// Running statistics must survive evaluation untouched.
			if got := tr.Weights().Get("stem/bn/var"); got[0] != w.Get("stem/bn/var")[0] {
				t.Errorf("%s: evaluation changed running variance: %v -> %v", name, w.Get("stem/bn/var")[0], got[0])
			}
		}
	}
}

// fixedBatch makes n random positions with random targets.
func fixedBatch(c Config, n int, seed uint64) Batch {
	rng := rand.New(rand.NewPCG(seed, 3))
	b := Batch{N: n, Input: randomInput(c, n, seed), Policy: make([]float32, n*c.Actions),
		Value: make([]float32, n*c.Seats*3), Score: make([]float32, n*c.Seats), Weight: make([]float32, n)}
	for i := 0; i < n; i++ {
		// A target spread over three "legal" actions.
		for _, a := range rng.Perm(c.Actions)[:3] {
			b.Policy[i*c.Actions+a] = 1.0 / 3
		}
		for s := 0; s < c.Seats; s++ {
			b.Value[(i*c.Seats+s)*3+rng.IntN(3)] = 1
			b.Score[i*c.Seats+s] = float32(rng.IntN(41) - 20)
		}
		b.Weight[i] = float32(0.5 + rng.Float64())
	}
	return b
}

// entropy is the weighted mean entropy of b's policy and value targets:
// the least cross-entropy a net can reach on b.
func entropy(c Config, b Batch) float64 {
	h := 0.0
	for i := 0; i < b.N; i++ {
		for _, p := range b.Policy[i*c.Actions : (i+1)*c.Actions] {
			if p > 0 {
				h -= float64(b.Weight[i]) * float64(p) * math.Log(float64(p)) / float64(b.N)
			}
		}
	}
	return h
}

func TestOverfitsSmallSet(t *testing.T) {
	c := mustPreset(t, "tiny")
	w, err := NewWeights(c, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	tc := DefaultTrainConfig()
	tc.Rate = ConstantRate(0.03)
	tc.WeightDecay = 0
	tr, err := NewTrainer(w, tc)
	if err != nil {
		t.Fatal(err)
	}
	b := fixedBatch(c, 32, 9)
	floor := entropy(c, b)
	var first, last Losses
	for i := 0; i < 150; i++ {
		l, err := tr.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = l
		}
		last = l
	}
	t.Logf("loss %.4f -> %.4f, floor %.4f (policy %.3f -> %.3f, value %.3f -> %.3f, score %.4f -> %.4f)",
		first.Total, last.Total, floor, first.Policy, last.Policy, first.Value, last.Value, first.Score, last.Score)
	if excess := last.Total - floor; excess > 0.1*(first.Total-floor) {
		t.Errorf("loss above the targets' entropy fell from %.4f to %.4f, less than 90%%", first.Total-floor, excess)
	}
	if tr.Steps() != 150 {
		t.Errorf("Steps() = %d after 150 steps", tr.Steps())
	}
}
