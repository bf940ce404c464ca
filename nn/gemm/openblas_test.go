//go:build openblas

package gemm

import "gonum.org/v1/netlib/blas/netlib"

// With -tags openblas the benchmarks also measure OpenBLAS (cgo), for a
// side-by-side ratio; link it with
//
//	CGO_LDFLAGS=-lopenblas OPENBLAS_NUM_THREADS=1 go test -tags openblas -bench . ./nn/gemm
func init() { comparisons = append(comparisons, comparison{"openblas", netlib.Implementation{}}) }
