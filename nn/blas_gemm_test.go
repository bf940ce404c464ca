//go:build !openblas

package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestGorgoniaUsesKernel checks that gorgonia multiplies with the
// project's kernel, and correctly: a product through gorgonia's tensors,
// plain and with a transposed operand, against a triple loop.
func TestGorgoniaUsesKernel(t *testing.T) {
	if _, ok := G.WhichBLAS().(gorgoniaBLAS); !ok {
		t.Fatalf("gorgonia uses %T", G.WhichBLAS())
	}
	const m, n, k = 37, 41, 29
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float32, m*k), make([]float32, k*n)
	for i := range x {
		x[i] = rng.Float32()*2 - 1
	}
	for i := range y {
		y[i] = rng.Float32()*2 - 1
	}
	want := make([]float64, m*n)
	for i := range m {
		for j := range n {
			for p := range k {
				want[i*n+j] += float64(x[i*k+p]) * float64(y[p*n+j])
			}
		}
	}
	// y's transpose, stored n×k, transposed back by the tensor.
	yt := make([]float32, n*k)
	for p := range k {
		for j := range n {
			yt[j*k+p] = y[p*n+j]
		}
	}
	ytT := tensor.New(tensor.WithShape(n, k), tensor.WithBacking(yt))
	if err := ytT.T(); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*tensor.Dense{
		"plain":      tensor.New(tensor.WithShape(k, n), tensor.WithBacking(y)),
		"transposed": ytT,
	} {
		a := tensor.New(tensor.WithShape(m, k), tensor.WithBacking(x))
		got, err := tensor.MatMul(a, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, v := range got.Data().([]float32) {
			if math.Abs(float64(v)-want[i]) > 1e-4 {
				t.Fatalf("%s: element %d = %g, want %g", name, i, v, want[i])
			}
		}
	}
}
