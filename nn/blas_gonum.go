//go:build !openblas

package nn

import (
	"gonum.org/v1/gonum/blas"
)

// BLAS names the matrix library of this build: "gonum" (pure Go) or
// "openblas" (built with -tags openblas).
const BLAS = "gonum"

// SetBLASThreads sets how many threads one matrix product may use. The
// pure-Go build runs each product on the calling goroutine, so it does
// nothing; parallelism comes from calling Forward concurrently.
func SetBLASThreads(n int) {}

// gemm sets c (m×n) = a (m×k) · b (k×n), row-major.
func gemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gemmTiles(m, n, k, a, lda, b, ldb, c, ldc, 0)
}

// gemmAcc adds a (m×k) · b (k×n) to c (m×n), row-major.
func gemmAcc(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gemmTiles(m, n, k, a, lda, b, ldb, c, ldc, 1)
}

// gemmT sets c (m×n) = op(a) · op(b) + beta·c, row-major, where op
// transposes a (stored k×m) if ta and b (stored n×k) if tb.
func gemmT(ta, tb bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	const tm, tn = 64, 128
	opA, opB := blas.NoTrans, blas.NoTrans
	if ta {
		opA = blas.Trans
	}
	if tb {
		opB = blas.Trans
	}
	for i := 0; i < m; i += tm {
		mi := min(tm, m-i)
		var ai []float32
		if ta {
			ai = a[i:]
		} else {
			ai = a[i*lda:]
		}
		for j := 0; j < n; j += tn {
			nj := min(tn, n-j)
			var bj []float32
			if tb {
				bj = b[j*ldb:]
			} else {
				bj = b[j:]
			}
			gonumImpl.Sgemm(opA, opB, mi, nj, k, 1, ai, lda, bj, ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}

// gemmTiles splits the product into tiles of 64×128 outputs, small enough
// that gonum computes each on the calling goroutine: gonum's parallel path
// allocates and would compete with concurrent callers for the cores.
func gemmTiles(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, beta float32) {
	const tm, tn = 64, 128
	for i := 0; i < m; i += tm {
		mi := min(tm, m-i)
		for j := 0; j < n; j += tn {
			nj := min(tn, n-j)
			gonumImpl.Sgemm(blas.NoTrans, blas.NoTrans, mi, nj, k, 1,
				a[i*lda:], lda, b[j:], ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}
