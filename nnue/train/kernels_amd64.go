package train

import "golang.org/x/sys/cpu"

// The vector loops (kernels_amd64.s), each over n floats, a multiple of 8.

// addToAVX2 adds src to dst.
//
//go:noescape
func addToAVX2(dst, src *float32, n int)

// headAVX2 is Σ screlu(acc[j])·out[j].
//
//go:noescape
func headAVX2(acc, out *float32, n int) float32

// gOutAVX2 is gOutGo.
//
//go:noescape
func gOutAVX2(grad, dacc, acc, out *float32, n int, dy float32)

// vector tells whether the vector loops may run.
var vector = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// addTo adds src to dst, element by element: the hot loop of the first
// layer, forward (rows into an accumulator) and backward (an
// accumulator's gradient into rows).
func addTo(dst, src []float32) {
	src = src[:len(dst)]
	if n := len(dst) &^ 7; vector && n > 0 {
		addToAVX2(&dst[0], &src[0], n)
		dst, src = dst[n:], src[n:]
	}
	addToGo(dst, src)
}

// head is one perspective's part of the output: Σ screlu(acc[j])·out[j].
func head(acc, out []float32) float32 {
	out = out[:len(acc)]
	var s float32
	if n := len(acc) &^ 7; vector && n > 0 {
		s = headAVX2(&acc[0], &out[0], n)
		acc, out = acc[n:], out[n:]
	}
	return s + headGo(acc, out)
}

// gOut adds dy times the activations to the output weights' gradient g
// and sets dacc to the gradient of the accumulator: 2·dy·out[j]·acc[j]
// where 0 < acc[j] < 1, else 0.
func gOut(g, dacc, acc, out []float32, dy float32) {
	g, dacc, out = g[:len(acc)], dacc[:len(acc)], out[:len(acc)]
	if n := len(acc) &^ 7; vector && n > 0 {
		gOutAVX2(&g[0], &dacc[0], &acc[0], &out[0], n, dy)
		g, dacc, acc, out = g[n:], dacc[n:], acc[n:], out[n:]
	}
	gOutGo(g, dacc, acc, out, dy)
}
