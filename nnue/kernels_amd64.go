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
		available = append(available, vectorKernels("avx512", 32, updateAVX512, dotAVX512))
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		available = append(available, vectorKernels("avx2", 16, updateAVX2, dotAVX2))
	}
	if len(available) > 0 {
		best = available[0]
	}
}

// vectorKernels are the kernels of an instruction set whose update loop
// takes 16-bit columns in multiples of width and whose dot loop, which
// widens them to float32, values in multiples of width/2.
func vectorKernels(name string, width int, update updateLoop, dot dotLoop) *kernels {
	return &kernels{name: name,
		update: vectorUpdate(update, width), dot: vectorDot(dot, width/2),
		width: width, updateWhole: update, dotWhole: dot}
}

// vectorUpdate is an update with the vector loop fn over columns in
// multiples of width, and Go's over the rest.
func vectorUpdate(fn updateLoop, width int) func(dst, src, ft []int16, added, removed []int32) {
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
func vectorDot(fn dotLoop, width int) func(a []int16, w []float32, scale float32) float32 {
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
