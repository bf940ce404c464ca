package nnue

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAccumulatorBound checks the bound against sorting each column.
func TestAccumulatorBound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ inputs, h, k int }{{5, 4, 8}, {40, 16, 3}, {700, 33, 35}, {100, 1, 100}} {
		ft := make([]float32, tc.inputs*tc.h)
		for i := range ft {
			ft[i] = float32(r.NormFloat64())
		}
		bias := make([]float32, tc.h)
		for j := range bias {
			bias[j] = float32(r.NormFloat64())
		}
		var want float64
		for j := range tc.h {
			col := make([]float64, tc.inputs)
			for f := range tc.inputs {
				col[f] = math.Abs(float64(ft[f*tc.h+j]))
			}
			slices.Sort(col)
			slices.Reverse(col)
			s := math.Abs(float64(bias[j]))
			for _, x := range col[:min(tc.k, len(col))] {
				s += x
			}
			want = max(want, s)
		}
		if got := accumulatorBound(ft, bias, tc.h, tc.k); math.Abs(got-want) > 1e-4*want {
			t.Errorf("%d inputs, h=%d, k=%d: bound %v, sorted %v", tc.inputs, tc.h, tc.k, got, want)
		}
	}
}

// TestQuantizeScale checks the scale chosen for nets of growing
// weights, the rounded weights, and the refusal of a net too large for
// 16 bits.
func TestQuantizeScale(t *testing.T) {
	for _, tc := range []struct {
		name      string
		weight    float32 // every FT weight and bias
		wantScale float32 // 0: refused
	}{
		{"small weights keep the finest scale", 0.001, maxScale},
		// The bias and 35 rows: 36 × 0.25 = 9, and 9·4096 > 32767.
		{"a bound of 9 halves it once", 0.25, 2048},
		{"a bound of 36 leaves 512", 1, 512},
		{"a bound of 32,400 leaves scale 1", 900, 1},
		{"a bound beyond 16 bits is refused", 1000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := New(16, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n.FT {
				n.FT[i] = tc.weight
			}
			for j := range n.FTBias {
				n.FTBias[j] = tc.weight
			}
			q, err := quantize(n)
			if tc.wantScale == 0 {
				if err == nil || !strings.Contains(err.Error(), "beyond 16-bit") {
					t.Fatalf("quantize = %v, want an error", err)
				}
				if _, err := NewEvaluator(n); err == nil || !strings.Contains(err.Error(), "beyond 16-bit") {
					t.Errorf("NewEvaluator = %v, want the error", err)
				}
				if _, err := n.Encode(); err == nil {
					t.Error("Encode saved a net no evaluator can read")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.scale != tc.wantScale {
				t.Errorf("scale %v, want %v", q.scale, tc.wantScale)
			}
			if want := int16(math.Round(float64(tc.weight * q.scale))); q.ft[0] != want || q.bias[0] != want {
				t.Errorf("rounded weight %d, bias %d, want %d", q.ft[0], q.bias[0], want)
			}
			// Mover 0 reads its own accumulator first; mover 1 reads
			// perspective 0's with the second block.
			if want := n.Out[3] / (q.scale * q.scale); q.out[0][3] != want || q.out[1][16+3] != want {
				t.Errorf("output weights %v, %v, want %v", q.out[0][3], q.out[1][16+3], want)
			}
			if want := n.Out[16+3] / (q.scale * q.scale); q.out[1][3] != want {
				t.Errorf("output weight %v, want %v", q.out[1][3], want)
			}
			// The largest accumulator the bound allows fits.
			e, err := NewEvaluator(n)
			if err != nil {
				t.Fatal(err)
			}
			feats := make([]int32, MaxActive)
			for i := range feats {
				feats[i] = int32(i)
			}
			e.grow(0)
			e.refresh(0, 0, feats)
			if want := int64(q.bias[0]) + int64(MaxActive)*int64(q.ft[0]); int64(e.at(0, 0)[0]) != want {
				t.Errorf("an accumulator of %d features = %d, want %d", MaxActive, e.at(0, 0)[0], want)
			}
		})
	}
}
