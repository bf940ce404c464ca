package nnue

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsAgree checks every vector path against the generic one on
// sizes with and without a remainder past the vector width, with
// weights whose sums wrap past 16 bits on the way and come back.
func TestKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, h := range []int{16, 17, 24, 31, 40, 64, 100, 128, 257, 1024} {
		ft := make([]int16, Inputs*h)
		for i := range ft {
			ft[i] = int16(r.IntN(1 << 16))
		}
		src := ft[5*h : 6*h]
		added := []int32{0, 699, 345}
		removed := []int32{12, 640, 1, 2, 3, 4, 5, 6, 7, 8}
		want := make([]int16, h)
		generic.update(want, src, ft, added, removed)
		// The generic path's own sum, in int64 and reduced.
		for j := range want {
			s := int64(src[j])
			for _, f := range added {
				s += int64(ft[int(f)*h+j])
			}
			for _, f := range removed {
				s -= int64(ft[int(f)*h+j])
			}
			if int16(s) != want[j] {
				t.Fatalf("generic, h=%d: update[%d] = %d, want %d", h, j, want[j], int16(s))
			}
		}
		w := make([]float32, h)
		for j := range w {
			w[j] = float32(r.NormFloat64())
		}
		const scale = 4096
		for _, k := range available {
			got := make([]int16, h)
			k.update(got, src, ft, added, removed)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("%s, h=%d: update[%d] = %d, generic %d", k.name, h, j, got[j], want[j])
				}
			}
			// Values below 0, within 0..scale and above it.
			a := make([]int16, h)
			for j := range a {
				a[j] = int16(r.IntN(3*scale) - scale)
			}
			wantDot := dotGeneric(a, w, scale)
			// float32 sums in another order: within a millionth of
			// the terms' magnitudes.
			var ref, size float64
			for j, x := range a {
				v := min(max(float64(x), 0), scale)
				ref += v * v * float64(w[j])
				size += v * v * math.Abs(float64(w[j]))
			}
			if d := k.dot(a, w, scale); math.Abs(float64(d-wantDot)) > 1e-6*size {
				t.Errorf("%s, h=%d: dot = %v, generic %v", k.name, h, d, wantDot)
			}
			if math.Abs(float64(wantDot)-ref) > 1e-6*size {
				t.Errorf("generic, h=%d: dot = %v, float64 %v", h, wantDot, ref)
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
