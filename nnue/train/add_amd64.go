package train

import "golang.org/x/sys/cpu"

// addToAVX2 adds n floats (a multiple of 8) of src to dst with AVX2
// (add_amd64.s).
//
//go:noescape
func addToAVX2(dst, src *float32, n int)

// hasAVX2 tells whether addTo may use addToAVX2.
var hasAVX2 = cpu.X86.HasAVX2

// addTo adds src to dst, element by element: the hot loop of the first
// layer, forward (rows into an accumulator) and backward (an
// accumulator's gradient into rows).
func addTo(dst, src []float32) {
	src = src[:len(dst)]
	n := len(dst) &^ 7
	if hasAVX2 && n > 0 {
		addToAVX2(&dst[0], &src[0], n)
		dst, src = dst[n:], src[n:]
	}
	addToGo(dst, src)
}
