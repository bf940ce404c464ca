package train

import (
	"math"
	"math/rand/v2"
	"testing"
)

// lengths are the vector lengths the kernel tests try: whole blocks of 8
// and 16, and tails.
var lengths = []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 128, 131, 256}

// randomAcc returns n accumulator values around [0, 1], with exact 0s
// and 1s among them.
func randomAcc(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		switch r.IntN(6) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = 1
		default:
			x[i] = float32(2*r.Float64() - 0.5)
		}
	}
	return x
}

func randomVector(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(2*r.Float64() - 1)
	}
	return x
}

func TestAddTo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range lengths {
		src, dst := randomVector(r, n+3), randomVector(r, n)
		want := append([]float32(nil), dst...)
		addToGo(want, src)
		addTo(dst, src)
		for i := range dst {
			if dst[i] != want[i] {
				t.Fatalf("n=%d: addTo gives %v at %d, want %v", n, dst[i], i, want[i])
			}
		}
	}
}

func close32(a, b float32) bool {
	return math.Abs(float64(a-b)) <= 1e-5*(1+math.Abs(float64(b)))
}

func TestHead(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range lengths {
		acc, out := randomAcc(r, n), randomVector(r, n+5)
		if got, want := head(acc, out), headGo(acc, out); !close32(got, want) {
			t.Errorf("n=%d: head = %v, want %v", n, got, want)
		}
	}
}

func TestGOut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range lengths {
		acc, out, g := randomAcc(r, n), randomVector(r, n), randomVector(r, n)
		dy := float32(r.Float64() - 0.5)
		gWant := append([]float32(nil), g...)
		dacc, daccWant := randomVector(r, n), make([]float32, n)
		gOutGo(gWant, daccWant, acc, out, dy)
		gOut(g, dacc, acc, out, dy)
		for i := range g {
			if !close32(g[i], gWant[i]) || dacc[i] != daccWant[i] {
				t.Fatalf("n=%d, x=%v: gOut gives g %v, dacc %v at %d; want %v, %v", n, acc[i], g[i], dacc[i], i, gWant[i], daccWant[i])
			}
		}
	}
}

func BenchmarkAddTo(b *testing.B) {
	for _, f := range []struct {
		name string
		fn   func(dst, src []float32)
	}{{"addTo", addTo}, {"go", addToGo}} {
		b.Run(f.name, func(b *testing.B) {
			rows := make([]float32, numFeatures*128)
			acc := make([]float32, 128)
			for i := 0; i < b.N; i++ {
				r := i * 37 % numFeatures
				f.fn(acc, rows[r*128:r*128+128])
			}
		})
	}
}
