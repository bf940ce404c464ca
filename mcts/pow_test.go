package mcts

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkPowUnit fails the test when powUnit(x, y) is not within a relative
// 1e-9·(1+y) of math.Pow(x, y); below e^-708 it may also be 0.
func checkPowUnit(t *testing.T, x, y float64) {
	t.Helper()
	got, want := powUnit(x, y), math.Pow(x, y)
	if got == 0 && want < math.Exp(-708) {
		return
	}
	if math.Abs(got-want) > 1e-9*(1+y)*want {
		t.Errorf("powUnit(%g, %g) = %.17g, want %.17g (relative error %.2g)", x, y, got, want, math.Abs(got-want)/want)
	}
}

func TestPowUnit(t *testing.T) {
	for _, c := range []struct{ x, y float64 }{
		{1, 2.0 / 3}, {1, 1e300}, {1, math.Inf(1)}, {0.5, 1}, {0.5, 2}, {0.25, 0.5},
		{math.Sqrt2 / 2, 2.0 / 3}, {0.7071067811865476, 3}, {0.7071067811865475, 3},
		{1e-45, 2.0 / 3}, {1e-45, 10}, {0x1p-1022, 0.1}, {0x1p-1022, 1}, {1e-300, 0.5},
		{0.999999, 1e6}, {0.1, 700}, {0.5, 1021.5}, {0.5, 1100}, {0.3, math.Inf(1)},
	} {
		checkPowUnit(t, c.x, c.y)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		x := math.Exp(-rng.Float64() * 110) // down to float32's smallest priors
		y := 0.1 + rng.Float64()*9.9        // the temperatures players accept
		checkPowUnit(t, x, y)
	}
}

func FuzzPowUnit(f *testing.F) {
	f.Add(0.5, 2.0/3)
	f.Add(1e-40, 10.0)
	f.Fuzz(func(t *testing.T, x, y float64) {
		if !(x >= 0x1p-1022 && x <= 1 && y > 0) {
			return
		}
		checkPowUnit(t, x, y)
	})
}

func BenchmarkPowUnit(b *testing.B) {
	xs := make([]float64, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range xs {
		xs[i] = rng.Float64()
	}
	b.Run("powUnit", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += powUnit(xs[i&1023], 2.0/3)
		}
		sink = s
	})
	b.Run("math.Pow", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += math.Pow(xs[i&1023], 2.0/3)
		}
		sink = s
	})
}

var sink float64
