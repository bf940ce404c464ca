// Package gemm is the project's single-precision matrix product (SGEMM):
// C = alpha·op(A)·op(B) + beta·C on row-major matrices, in Go with
// micro-kernels in Go assembly for amd64 (AVX-512, AVX2 with FMA) and a
// portable pure-Go kernel for other CPUs.
//
// It follows the GotoBLAS/BLIS structure: op(B) is packed in blocks of
// kc×nc that stay in the L2 cache, op(A) in chunks of up to ma rows by kc
// once for all of B's blocks, both as panels laid out in the order the
// micro-kernel reads them and padded with zeros at the edges; the
// micro-kernel keeps an mr×nr tile of C in vector registers over a
// panel's k loop. The kernel stops at C's last row, and tiles cut by C's
// right edge go through a small buffer, so nothing outside C's m×n window
// is read or written. A product runs on the calling goroutine; callers
// split large products across goroutines. The environment variable
// TRENCH_GEMM forces a kernel path (EnvPath).
package gemm

import (
	"fmt"
	"runtime"
)

// Block sizes: a kc×nc block of packed B is 480 KiB (about half the 1 MiB
// L2 of the development machine's cores), a packed 8×kc panel of A 8 KiB
// (a quarter of their 32 KiB L1). op(A) is packed in chunks of up to ma
// rows (1.1 MiB at most), each once for all of n: a product whose m fits
// in one chunk packs each of A and B once.
const (
	kc = 256
	mc = 192 // a multiple of every kernel's mr
	nc = 480 // a multiple of every kernel's nr
	ma = 6 * mc
)

// buffers holds one product's packing space. Each slice grows to the
// largest block its products have needed, at most one full block.
type buffers struct {
	a, b, tile []float32
}

// free keeps buffers between products. Unlike a sync.Pool it is not
// emptied by garbage collections, so steady state never allocates; it
// holds enough for every goroutine that can run at once, with room to
// spare, and drops the rest.
var free = make(chan *buffers, 2*runtime.GOMAXPROCS(0)+2)

func getBuffers() *buffers {
	select {
	case buf := <-free:
		return buf
	default:
		return &buffers{tile: make([]float32, 8*32)}
	}
}

func putBuffers(buf *buffers) {
	select {
	case free <- buf:
	default:
	}
}

// grow returns s with at least n elements, reallocated if needed.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// Sgemm sets c = alpha·op(a)·op(b) + beta·c, where c is m×n with row
// stride ldc, op(a) is m×k and op(b) is k×n. If transA, a is stored k×m
// (row stride lda) and op(a) is its transpose, otherwise a is stored m×k;
// likewise b, stored n×k if transB, otherwise k×n. When beta is zero c is
// not read, so NaNs already in it do not propagate; when alpha is zero or
// k is zero, a and b are not read.
//
// Sgemm panics, as a programming error, if a dimension is negative, a row
// stride is smaller than its matrix's row length (or than 1), or a slice
// is too short for its dimensions and stride.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("gemm: negative dimension m=%d n=%d k=%d", m, n, k))
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	checkMatrix("a", ar, ac, a, lda)
	checkMatrix("b", br, bc, b, ldb)
	checkMatrix("c", m, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scale(m, n, beta, c, ldc)
		return
	}
	kern := current.Load()
	buf := getBuffers()
	defer putBuffers(buf)
	// Packed blocks are padded to whole panels.
	buf.a = grow(buf.a, roundUp(min(m, ma), kern.mr)*min(k, kc))
	buf.b = grow(buf.b, min(k, kc)*roundUp(min(n, nc), kern.nr))
	for i0 := 0; i0 < m; i0 += ma {
		mm := min(ma, m-i0)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			packA(kern, buf.a, transA, a, lda, i0, pc, mm, kb, kern.mr)
			// Later k blocks add to what the first wrote.
			bt := beta
			if pc > 0 {
				bt = 1
			}
			for jc := 0; jc < n; jc += nc {
				nb := min(nc, n-jc)
				packB(kern, buf.b, transB, b, ldb, pc, jc, kb, nb)
				for ic := 0; ic < mm; ic += mc {
					mb := min(mc, mm-ic)
					macro(kern, buf, buf.a[ic*kb:], mb, nb, kb, alpha, bt, c[(i0+ic)*ldc+jc:], ldc)
				}
			}
		}
	}
}

// macro multiplies a packed mb×kb block of A (at the start of pa) by the
// packed kb×nb block of B in buf into c, one mr×nr tile at a time: each panel of A stays in L1 while the
// panels of B stream from L2. Tiles cut by c's right edge go through a
// buffer; the kernel itself stops at its bottom edge.
func macro(kern *kernel, buf *buffers, pa []float32, mb, nb, kb int, alpha, beta float32, c []float32, ldc int) {
	mr, nr := kern.mr, kern.nr
	for ir := 0; ir < mb; ir += mr {
		ap := &pa[ir*kb]
		rows := min(mr, mb-ir)
		for jr := 0; jr < nb; jr += nr {
			bp := &buf.b[jr*kb]
			cols := min(nr, nb-jr)
			if cols == nr {
				_ = c[(ir+rows-1)*ldc+jr+nr-1] // the tile ends inside c
				kern.fn(kb, ap, bp, &c[ir*ldc+jr], ldc, rows, alpha, beta)
				continue
			}
			t := buf.tile[:mr*nr]
			kern.fn(kb, ap, bp, &t[0], nr, rows, 1, 0)
			for i := range rows {
				ci := c[(ir+i)*ldc+jr:][:cols]
				ti := t[i*nr:][:cols]
				if beta == 0 {
					for j, v := range ti {
						ci[j] = alpha * v
					}
					continue
				}
				for j, v := range ti {
					ci[j] = alpha*v + beta*ci[j]
				}
			}
		}
	}
}

// scale sets c = beta·c, or to zeros without reading it if beta is zero.
func scale(m, n int, beta float32, c []float32, ldc int) {
	for i := range m {
		ci := c[i*ldc:][:n]
		if beta == 0 {
			clear(ci)
			continue
		}
		for j := range ci {
			ci[j] *= beta
		}
	}
}

// checkMatrix panics unless s can hold a rows×cols matrix with row
// stride ld.
func checkMatrix(name string, rows, cols int, s []float32, ld int) {
	if ld < max(1, cols) {
		panic(fmt.Sprintf("gemm: %s's row stride %d is less than its %d columns", name, ld, cols))
	}
	if rows > 0 && cols > 0 && len(s) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("gemm: %s has %d elements, too few for %d×%d with row stride %d", name, len(s), rows, cols, ld))
	}
}

// roundUp is n rounded up to a multiple of m.
func roundUp(n, m int) int { return (n + m - 1) / m * m }
