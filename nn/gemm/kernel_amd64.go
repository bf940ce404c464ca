package gemm

import "golang.org/x/sys/cpu"

//go:generate go run gen_amd64.go

// kernelAVX512 is the 8×32 micro-kernel on ZMM registers (kernel_amd64.s).
//
//go:noescape
func kernelAVX512(k int, a, b, c *float32, ldc, rows int, alpha, beta float32)

// kernelAVX2 is the 4×24 micro-kernel on YMM registers with FMA
// (kernel_amd64.s).
//
//go:noescape
func kernelAVX2(k int, a, b, c *float32, ldc, rows int, alpha, beta float32)

// packBAVX512 copies k rows of 32 floats, ldb apart in src, to dst
// (kernel_amd64.s).
//
//go:noescape
func packBAVX512(dst, src *float32, ldb, k int)

// packBAVX2 copies k rows of 24 floats, ldb apart in src, to dst
// (kernel_amd64.s).
//
//go:noescape
func packBAVX2(dst, src *float32, ldb, k int)

// transpose8 interleaves 8 rows of src, ld floats apart, over 8·blocks
// columns: column p's values go to dst[p·r : p·r+8] (kernel_amd64.s, AVX).
//
//go:noescape
func transpose8(dst, src *float32, ld, r, blocks int)

// transpose4 packs 4 rows of src, ld floats apart, over 8·blocks columns
// into a panel 4 wide: column p's values go to dst[4p : 4p+4]
// (kernel_amd64.s, AVX).
//
//go:noescape
func transpose4(dst, src *float32, ld, blocks int)

// packBRowsAVX2 packs panels whole panels of 24 columns, k rows of src
// ld floats apart, into dst one after another, row by row
// (kernel_amd64.s).
//
//go:noescape
func packBRowsAVX2(dst, src *float32, ld, k, panels int)

// packARowsAVX2 packs panels whole panels of 4 columns of src, k rows
// ld floats apart, into dst one after another, row by row: the panels of
// A of the avx2 kernel from an A stored k×m (kernel_amd64.s).
//
//go:noescape
func packARowsAVX2(dst, src *float32, ld, k, panels int)

// packRuns packs k rows of a gathered panel: row p's runs·8 floats are
// the runs of 8 at src + rowOff[p] + runOff[q] for q < runs, written from
// dst + p·dstStride floats (kernel_amd64.s, AVX).
//
//go:noescape
func packRuns(dst, src *float32, rowOff *int32, k int, runOff *int32, runs, dstStride int)

// packRunsAVX512 and packRunsAVX2 are packRuns for a whole panel of
// their kernel: nr/8 runs, each row's written contiguously
// (kernel_amd64.s).
//
//go:noescape
func packRunsAVX512(dst, src *float32, rowOff *int32, k int, runOff *int32)

//go:noescape
func packRunsAVX2(dst, src *float32, rowOff *int32, k int, runOff *int32)

// epilogueAVX512 and epilogueAVX2 finish the first rows rows of a tile of
// their kernel in place: row i gains bias[i] and, if res is not nil, the
// row of res at i·ldres; then, if relu is not zero, negative values
// become zero. If pad is not nil, row i's run q of 8 floats is also
// stored at pad + i·padStride + padRunOff[q] (kernel_amd64.s).
//
//go:noescape
func epilogueAVX512(c *float32, ldc, rows int, bias, res *float32, ldres, relu int, pad *float32, padStride int, padRunOff *int32)

//go:noescape
func epilogueAVX2(c *float32, ldc, rows int, bias, res *float32, ldres, relu int, pad *float32, padStride int, padRunOff *int32)

var kernels = func() []kernel {
	var ks []kernel
	if cpu.X86.HasAVX512F {
		ks = append(ks, kernel{name: "avx512", mr: 8, nr: 32, fn: kernelAVX512, packB: packBAVX512, transpose8: transpose8, packRuns: packRuns,
			packRunsFull: packRunsAVX512, epilogue: epilogueAVX512})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, kernel{name: "avx2", mr: 4, nr: 24, fn: kernelAVX2, packB: packBAVX2, packBRows: packBRowsAVX2, packARows: packARowsAVX2,
			transpose8: transpose8, transpose4: transpose4, packRuns: packRuns,
			packRunsFull: packRunsAVX2, epilogue: epilogueAVX2})
	}
	return append(ks, genericKernel)
}()

// available lists the kernels this CPU can run, fastest first.
func available() []kernel { return kernels }
