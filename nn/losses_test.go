package nn

import (
	"math"
	"strings"
	"testing"
)

// wantLosses computes b's weighted losses from the net's outputs as
// Forward gives them (policy logits, win/draw/loss probabilities, scores
// in points): the offsets shift the policy logits and, in log space, the
// probabilities.
func wantLosses(c Config, b Batch, o outputs, scoreWeight float64) Losses {
	var l Losses
	for i := 0; i < b.N; i++ {
		w := float64(b.Weight[i]) / float64(b.N)
		z := make([]float64, c.Actions)
		norm := math.Inf(-1)
		for a := range z {
			z[a] = float64(o.policy[i*c.Actions+a])
			if b.PolicyOffset != nil {
				z[a] += float64(b.PolicyOffset[i*c.Actions+a])
			}
			norm = logAdd(norm, z[a])
		}
		for a, t := range b.Policy[i*c.Actions : (i+1)*c.Actions] {
			l.Policy -= w * float64(t) * (z[a] - norm)
		}
		for s := 0; s < c.Seats; s++ {
			g := 3 * (i*c.Seats + s)
			var off [3]float64
			var so float64
			if b.ValueOffset != nil {
				off = [3]float64{float64(b.ValueOffset[i*c.Seats+s]), 0, -float64(b.ValueOffset[i*c.Seats+s])}
				so = float64(b.ScoreOffset[i*c.Seats+s])
			}
			var lp [3]float64
			norm := math.Inf(-1)
			for k := range lp {
				lp[k] = math.Log(float64(o.value[g+k])) + off[k]
				norm = logAdd(norm, lp[k])
			}
			for k := range lp {
				l.Value -= w * float64(b.Value[g+k]) * (lp[k] - norm)
			}
			d := (float64(o.score[i*c.Seats+s]) + so - float64(b.Score[i*c.Seats+s])) / float64(c.ScoreScale)
			l.Score += w * 0.5 * d * d
		}
	}
	l.Total = l.Policy + l.Value + scoreWeight*l.Score
	return l
}

func logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

func closeLosses(got, want Losses) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-4*max(1, math.Abs(b)) }
	return near(got.Policy, want.Policy) && near(got.Value, want.Value) && near(got.Score, want.Score) &&
		near(got.Total, want.Total) && got.L2 == 0
}

// TestInferenceLosses checks the losses of a batch against those computed
// from Forward's outputs, for nets with and without bases and a batch
// longer than one chunk.
func TestInferenceLosses(t *testing.T) {
	for name, c := range testConfigs(t) {
		t.Run(name, func(t *testing.T) {
			inf, err := NewInference(randomWeights(t, c, 5))
			if err != nil {
				t.Fatal(err)
			}
			const n = lossChunk + 5
			b := fixedBatch(c, n, 9)
			o := newOutputs(c, n)
			inf.Forward(b.Input, n, o.policy, o.value, o.score)
			got, err := inf.Losses(b, 0.5)
			if err != nil {
				t.Fatal(err)
			}
			if want := wantLosses(c, b, o, 0.5); !closeLosses(got, want) {
				t.Errorf("losses %+v, want %+v", got, want)
			}
		})
	}
}

// TestBaseLosses checks the losses of a net whose outputs are zero against
// hand-computed ones: even odds under a zero value offset, the offsets'
// own softmax as the policy, the score offset as the score.
func TestBaseLosses(t *testing.T) {
	c := testConfigs(t)["tiny"]
	b := Batch{N: 1, Input: make([]float32, c.Shape.Size()), Policy: make([]float32, c.Actions),
		Value: make([]float32, 3), Score: []float32{6}, ValueOffset: []float32{0}, ScoreOffset: []float32{2},
		PolicyOffset: make([]float32, c.Actions)}
	for a := range b.PolicyOffset {
		b.PolicyOffset[a] = -40
	}
	// Two legal actions with priors 3/4 and 1/4; the target is all on
	// the second.
	b.PolicyOffset[0], b.PolicyOffset[1] = float32(math.Log(0.75)), float32(math.Log(0.25))
	b.Policy[1] = 1
	b.Value[0] = 1
	got, err := BaseLosses(c, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := float64(2-6) / float64(c.ScoreScale)
	want := Losses{Policy: math.Log(4), Value: math.Log(3), Score: 0.5 * d * d}
	want.Total = want.Policy + want.Value + want.Score
	if !closeLosses(got, want) {
		t.Errorf("base losses %+v, want %+v", got, want)
	}
	b.PolicyOffset = nil
	if _, err := BaseLosses(c, b, 1); err == nil || !strings.Contains(err.Error(), "policy offsets") {
		t.Errorf("without policy offsets: error %v", err)
	}
}

// TestInferenceLossesChecksBatch refuses a batch that does not fit the net.
func TestInferenceLossesChecksBatch(t *testing.T) {
	c := testConfigs(t)["tiny"]
	inf, err := NewInference(randomWeights(t, c, 5))
	if err != nil {
		t.Fatal(err)
	}
	b := fixedBatch(c, 2, 1)
	b.Score = b.Score[:1]
	if _, err := inf.Losses(b, 0.5); err == nil || !strings.Contains(err.Error(), "score") {
		t.Errorf("short score: error %v", err)
	}
}
