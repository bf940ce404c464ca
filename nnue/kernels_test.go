package nnue

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsAgree checks every vector path against the generic one on
// sizes with and without a remainder past the vector width.
func TestKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, h := range []int{16, 17, 24, 31, 40, 64, 100, 128, 257, 1024} {
		ft := make([]float32, Inputs*h)
		for i := range ft {
			ft[i] = float32(r.NormFloat64())
		}
		src := ft[5*h : 6*h]
		added := []int32{0, 699, 345}
		removed := []int32{12, 640, 1, 2, 3, 4, 5, 6, 7, 8}
		want := make([]float32, h)
		generic.update(want, src, ft, added, removed)
		w := ft[9*h : 10*h]
		wantDot := generic.dot(want, w)
		for _, k := range available {
			got := make([]float32, h)
			k.update(got, src, ft, added, removed)
			for j := range want {
				if math.Abs(float64(got[j]-want[j])) > 1e-5 {
					t.Fatalf("%s, h=%d: update[%d] = %v, generic %v", k.name, h, j, got[j], want[j])
				}
			}
			if d := k.dot(got, w); math.Abs(float64(d-wantDot)) > 1e-4*math.Max(1, math.Abs(float64(wantDot))) {
				t.Errorf("%s, h=%d: dot = %v, generic %v", k.name, h, d, wantDot)
			}
			k.update(got, src, ft, nil, nil)
			for j := range src {
				if got[j] != src[j] {
					t.Fatalf("%s, h=%d: an update with no rows is not a copy at %d", k.name, h, j)
				}
			}
		}
	}
}
