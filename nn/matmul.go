package nn

import gonumblas "gonum.org/v1/gonum/blas/gonum"

// gonumImpl is gonum's pure-Go BLAS, for the fast trainer's vector
// additions (axpy).
var gonumImpl gonumblas.Implementation

// MatMul sets c (m×n) = a (m×k) · b (k×n), row-major, with the BLAS of this
// build, as the fast pass calls it. It exists to measure the BLAS's peak
// next to the fast pass ("trench bench").
func MatMul(m, n, k int, a, b, c []float32) {
	gemm(m, n, k, a, k, b, n, c, n)
}
