//go:build openblas

package gemm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
)

// With -tags openblas the benchmarks also measure OpenBLAS (cgo), for a
// side-by-side ratio; link it with
//
//	CGO_LDFLAGS=-lopenblas OPENBLAS_NUM_THREADS=1 go test -tags openblas -bench . ./nn/gemm
func init() {
	comparisons = append(comparisons, comparison{"openblas",
		func(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
			netlib.Implementation{}.Sgemm(tA, tB, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
		}})
}
