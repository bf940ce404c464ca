//go:build openblas

package nn

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
import "C"

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"
	G "gorgonia.org/gorgonia"
)

// BLAS names the matrix library of this build: "openblas" here, the
// project's own kernel (e.g. "trench-avx512") in the default build.
const BLAS = "openblas"

func init() {
	G.Use(netlib.Implementation{})
	blas32.Use(netlib.Implementation{})
	SetBLASThreads(1)
}

// SetBLASThreads sets how many threads one OpenBLAS matrix product may
// use. It starts at 1, which suits several goroutines calling Forward at
// once; training a large batch alone benefits from more.
func SetBLASThreads(n int) { C.openblas_set_num_threads(C.int(max(n, 1))) }

var impl netlib.Implementation

// gemm sets c (m×n) = a (m×k) · b (k×n), row-major.
func gemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	impl.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}

// gemmAcc adds a (m×k) · b (k×n) to c (m×n), row-major.
func gemmAcc(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	impl.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, 1, c, ldc)
}

// gemmT sets c (m×n) = op(a) · op(b) + beta·c, row-major, where op
// transposes a (stored k×m) if ta and b (stored n×k) if tb.
func gemmT(ta, tb bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	opA, opB := blas.NoTrans, blas.NoTrans
	if ta {
		opA = blas.Trans
	}
	if tb {
		opB = blas.Trans
	}
	impl.Sgemm(opA, opB, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
}
