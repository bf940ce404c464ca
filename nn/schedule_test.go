package nn

import (
	"math"
	"testing"
)

func TestCosineRate(t *testing.T) {
	r := CosineRate{Base: 0.1, Min: 0.001, Warmup: 10, Total: 110}
	tests := []struct {
		step uint64
		want float64
	}{
		{0, 0.01},
		{4, 0.05},
		{9, 0.1},
		{10, 0.1},
		{60, 0.001 + 0.099*0.5},
		{110, 0.001},
		{1000, 0.001},
	}
	for _, tt := range tests {
		if got := r.Rate(tt.step); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("step %d: rate %v, want %v", tt.step, got, tt.want)
		}
	}
	for s := uint64(10); s < 110; s++ {
		if r.Rate(s+1) > r.Rate(s) {
			t.Fatalf("the rate rises after the warm-up, at step %d", s)
		}
	}
	if got := (CosineRate{Base: 0.1, Min: 0.01, Warmup: 5, Total: 5}).Rate(7); got != 0.01 {
		t.Errorf("no cosine part: rate %v, want the minimum", got)
	}
	if got := ConstantRate(0.3).Rate(12345); got != 0.3 {
		t.Errorf("constant rate %v", got)
	}
}

func TestPhasedRate(t *testing.T) {
	r := PhasedRate{First: CosineRate{Base: 0.1, Min: 0.001, Warmup: 0, Total: 100}, At: 100, Then: ConstantRate(0.01)}
	tests := []struct {
		step uint64
		want float64
	}{
		{0, 0.1},
		{50, 0.001 + 0.099*0.5},
		{99, r.First.Rate(99)},
		{100, 0.01},
		{5000, 0.01},
	}
	for _, tt := range tests {
		if got := r.Rate(tt.step); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("step %d: rate %v, want %v", tt.step, got, tt.want)
		}
	}
}
