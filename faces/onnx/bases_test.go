package onnx

import (
	"math"
	"testing"

	"trench/engine"
	"trench/nn"
	"trench/tactics"
)

// docMaterialBase adds the material value base to one seat's outputs as
// docs/onnx.md tells a caller to: lead is the seat's material lead.
func docMaterialBase(wdl []float32, score float32, lead, scoreScale float64) ([]float64, float64) {
	lead = max(-300, min(300, lead))
	x := lead / 10
	a := math.Abs(x)
	o := a + math.Log((math.Sinh(a)+math.Sqrt(math.Cosh(a)*math.Cosh(a)+3))/2)
	if a > 20 {
		o = 2*a - math.Ln2
	}
	o = math.Copysign(o, x)
	l := []float64{math.Log(float64(wdl[0])) + o, math.Log(float64(wdl[1])), math.Log(float64(wdl[2])) - o}
	m := max(l[0], l[1], l[2])
	var sum float64
	for i := range l {
		l[i] = math.Exp(l[i] - m)
		sum += l[i]
	}
	for i := range l {
		l[i] /= sum
	}
	return l, float64(score) + lead*scoreScale/40
}

// TestDocumentedValueBase checks docs/onnx.md's recipe for the material
// value base against tactics.ApplyValueOffsets, which search uses, on the outputs
// of both shipped nets for positions of random games.
func TestDocumentedValueBase(t *testing.T) {
	for _, net := range testNets(t)[:2] {
		c := net.w.Config
		if c.ValueBase != nn.ValueBaseMaterial {
			t.Fatalf("%s: value base %q, want material", net.name, c.ValueBase)
		}
		inf, err := nn.NewInference(net.w)
		if err != nil {
			t.Fatal(err)
		}
		states := positions(net.game, 200)
		input := features(states)
		wdl, score := make([]float32, len(states)*c.Seats*3), make([]float32, len(states)*c.Seats)
		inf.Forward(input, len(states), nil, wdl, score)
		var worst float64
		leads := 0 // seats with a material lead, so that the offsets are not all zero
		for i, s := range states {
			mats := s.(engine.Material).Materials(nil)
			var total float64
			for _, m := range mats {
				total += float64(m)
			}
			w, sc := wdl[i*c.Seats*3:(i+1)*c.Seats*3], score[i*c.Seats:(i+1)*c.Seats]
			var want []float64
			for k := range c.Seats {
				p := (s.ToMove() + k) % len(mats)
				own := float64(mats[p])
				lead := own - (total-own)/float64(len(mats)-1)
				if lead != 0 {
					leads++
				}
				probs, points := docMaterialBase(w[3*k:3*k+3], sc[k], lead, float64(c.ScoreScale))
				want = append(append(want, probs...), points)
			}
			gw, gs := append([]float32(nil), w...), append([]float32(nil), sc...)
			tactics.ApplyValueOffsets(s, gw, gs, nil)
			for k := range c.Seats {
				for j := range 3 {
					worst = max(worst, math.Abs(float64(gw[3*k+j])-want[4*k+j]))
				}
				worst = max(worst, math.Abs(float64(gs[k])-want[4*k+3])/max(1, math.Abs(want[4*k+3])))
			}
		}
		t.Logf("%s: largest difference from tactics.ApplyValueOffsets %.3g over %d seats with a lead", net.name, worst, leads)
		if leads == 0 {
			t.Errorf("%s: no position has a material lead", net.name)
		}
		if worst > 1e-5 {
			t.Errorf("%s: docs/onnx.md's value base differs from tactics.ApplyValueOffsets by %.3g", net.name, worst)
		}
	}
}
