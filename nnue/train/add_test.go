package train

import (
	"math/rand/v2"
	"testing"
)

func TestAddTo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 40, 128, 131, 256} {
		src := make([]float32, n+3)
		dst := make([]float32, n)
		for i := range src {
			src[i] = r.Float32()
		}
		for i := range dst {
			dst[i] = r.Float32()
		}
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
