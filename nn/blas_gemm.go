//go:build !openblas

package nn

import (
	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"

	gemmpkg "trench/nn/gemm"
)

// BLAS names the matrix library of this build: "trench-" and the path of
// the project's own kernel (package gemm) chosen at start, e.g.
// "trench-avx512", or "openblas" (built with -tags openblas).
var BLAS = "trench-" + gemmpkg.Path()

func init() { G.Use(gorgoniaBLAS{}) }

// gorgoniaBLAS is gonum's BLAS with the project's kernel for
// single-precision matrix products, for the gorgonia graph (the reference
// trainer).
type gorgoniaBLAS struct{ gonumblas.Implementation }

// Sgemm computes c = alpha·op(a)·op(b) + beta·c, row-major, with the
// project's kernel.
func (gorgoniaBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemmpkg.Sgemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SetBLASThreads sets how many threads one matrix product may use. The
// project's kernel runs each product on the calling goroutine, so it does
// nothing; parallelism comes from calling Forward concurrently and from
// the fast trainer's split products.
func SetBLASThreads(n int) {}

// gemm sets c (m×n) = a (m×k) · b (k×n), row-major.
func gemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gemmpkg.Sgemm(false, false, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}

// gemmAcc adds a (m×k) · b (k×n) to c (m×n), row-major.
func gemmAcc(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gemmpkg.Sgemm(false, false, m, n, k, 1, a, lda, b, ldb, 1, c, ldc)
}

// gemmT sets c (m×n) = op(a) · op(b) + beta·c, row-major, where op
// transposes a (stored k×m) if ta and b (stored n×k) if tb.
func gemmT(ta, tb bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemmpkg.Sgemm(ta, tb, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
}
