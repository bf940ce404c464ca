package gemm

import "unsafe"

// genericKernel is the portable pure-Go micro-kernel, for CPUs without the
// vector extensions of the assembly kernels.
var genericKernel = kernel{name: "generic", mr: 4, nr: 4, fn: kernelGeneric, packB: packBGeneric}

// packBGeneric copies k rows of 4 floats, ldb apart in src, to dst.
func packBGeneric(dst, src *float32, ldb, k int) {
	d := unsafe.Slice(dst, 4*k)
	s := unsafe.Slice(src, (k-1)*ldb+4)
	for p := range k {
		copy(d[4*p:4*p+4:4*p+4], s[p*ldb:p*ldb+4:p*ldb+4])
	}
}

// kernelGeneric computes a 4×4 tile with sixteen scalar accumulators.
func kernelGeneric(k int, a, b, c *float32, ldc, rows int, alpha, beta float32) {
	ap := unsafe.Slice(a, 4*k)
	bp := unsafe.Slice(b, 4*k)
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 float32
	for p := 0; p < k; p++ {
		av := ap[4*p : 4*p+4 : 4*p+4]
		bv := bp[4*p : 4*p+4 : 4*p+4]
		a0, a1, a2, a3 := av[0], av[1], av[2], av[3]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	cs := unsafe.Slice(c, (rows-1)*ldc+4)
	store := func(r []float32, v0, v1, v2, v3 float32) {
		r = r[:4:4]
		if beta == 0 {
			r[0], r[1], r[2], r[3] = alpha*v0, alpha*v1, alpha*v2, alpha*v3
			return
		}
		r[0] = alpha*v0 + beta*r[0]
		r[1] = alpha*v1 + beta*r[1]
		r[2] = alpha*v2 + beta*r[2]
		r[3] = alpha*v3 + beta*r[3]
	}
	store(cs[0:], c00, c01, c02, c03)
	if rows > 1 {
		store(cs[ldc:], c10, c11, c12, c13)
	}
	if rows > 2 {
		store(cs[2*ldc:], c20, c21, c22, c23)
	}
	if rows > 3 {
		store(cs[3*ldc:], c30, c31, c32, c33)
	}
}
