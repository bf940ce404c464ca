package nnue

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// updateAVX2 and updateAVX512 are update's vector loop over the first
// h columns rounded down to 16 and 32 (kernels_amd64.s).
//
//go:noescape
func updateAVX2(dst, src, ft *int16, h int, added *int32, nAdded int, removed *int32, nRemoved int)

//go:noescape
func updateAVX512(dst, src, ft *int16, h int, added *int32, nAdded int, removed *int32, nRemoved int)

// dotAVX2 and dotAVX512 are dot's vector loop over the first n values
// rounded down to 8 and 16 (kernels_amd64.s).
//
//go:noescape
func dotAVX2(a *int16, w *float32, n int, scale float32) float32

//go:noescape
func dotAVX512(a *int16, w *float32, n int, scale float32) float32

func init() {
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		available = append(available, &kernels{name: "avx512",
			update: vectorUpdate(updateAVX512, 32), dot: vectorDot(dotAVX512, 16),
			width: 32, updateWhole: updateAVX512, dotWhole: dotAVX512})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		available = append(available, &kernels{name: "avx2",
			update: vectorUpdate(updateAVX2, 16), dot: vectorDot(dotAVX2, 8),
			width: 16, updateWhole: updateAVX2, dotWhole: dotAVX2})
	}
	if len(available) > 0 {
		best = available[0]
	}
}

// vectorUpdate is an update with the vector loop fn over columns in
// multiples of width, and Go's over the rest.
func vectorUpdate(fn func(dst, src, ft *int16, h int, added *int32, nAdded int, removed *int32, nRemoved int), width int) func(dst, src, ft []int16, added, removed []int32) {
	return func(dst, src, ft []int16, added, removed []int32) {
		// The features are below Inputs and ft holds Inputs rows of h
		// (NewEvaluator checked the net).
		h := len(dst)
		src = src[:h]
		v := h &^ (width - 1)
		if v > 0 {
			fn(unsafe.SliceData(dst), unsafe.SliceData(src), unsafe.SliceData(ft), h,
				unsafe.SliceData(added), len(added), unsafe.SliceData(removed), len(removed))
		}
		if v == h {
			return
		}
		updateColumns(dst, src, ft, v, added, removed)
	}
}

// vectorDot is a dot with the vector loop fn over values in multiples
// of width, and Go's over the rest.
func vectorDot(fn func(a *int16, w *float32, n int, scale float32) float32, width int) func(a []int16, w []float32, scale float32) float32 {
	return func(a []int16, w []float32, scale float32) float32 {
		w = w[:len(a)]
		v := len(a) &^ (width - 1)
		var s float32
		if v > 0 {
			s = fn(unsafe.SliceData(a), unsafe.SliceData(w), v, scale)
		}
		if v < len(a) {
			s += dotGeneric(a[v:], w[v:], scale)
		}
		return s
	}
}
