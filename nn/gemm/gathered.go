package gemm

import "fmt"

// PackedA is a matrix A (m×k) packed once into the panels of the kernel
// path in use when it was packed, for products that reuse it many times,
// such as a net's weights. It is read-only after PackA and safe for
// concurrent use.
type PackedA struct {
	kern   *kernel
	m, k   int
	panels []float32
}

// PackA packs a (m×k, row stride lda) for MulGathered. It panics, as a
// programming error, if a is too short for its dimensions.
func PackA(m, k int, a []float32, lda int) *PackedA {
	if m < 0 || k < 0 {
		panic(fmt.Sprintf("gemm: negative dimension m=%d k=%d", m, k))
	}
	checkMatrix("a", m, k, a, lda)
	kern := current.Load()
	p := &PackedA{kern: kern, m: m, k: k, panels: make([]float32, roundUp(m, kern.mr)*k)}
	if m > 0 && k > 0 {
		packA(kern, p.panels, false, a, lda, 0, 0, m, k, kern.mr)
	}
	return p
}

// Epilogue is what MulGathered does to each tile of C right after
// computing it, while the tile is still in cache: row i of C gains
// Bias[i] and, if Res is not nil, row i of Res (row stride LdRes); then,
// if ReLU, negative values become zero. This is a convolution's bias,
// residual connection and activation. If Pad is not nil, the finished
// C[i][j] is also stored at Pad[i·PadStride + PadRunOff[j/8] + j%8]: the
// next convolution's zero-padded input planes, written without another
// pass.
type Epilogue struct {
	Bias  []float32 // one value per row of C
	Res   []float32 // nil, or an m×n matrix added to C
	LdRes int
	ReLU  bool

	Pad       []float32
	PadStride int
	PadRunOff []int32 // one offset per 8 columns of C
}

// MulGathered sets c (m×n, row stride ldc) = A·B, where B (k×n) is
// gathered from src: B[p][j] = src[rowOff[p] + runOff[j/8] + j%8]. B's
// columns come in runs of 8 consecutive floats of src, so n must be a
// multiple of 8 and runOff has n/8 entries; rowOff has k. This reads a
// convolution's im2col matrix straight from zero-padded input planes
// without laying it out first: rowOff names an input plane and a
// neighbour's offset, runOff eight squares of a board row.
//
// MulGathered packs one panel of B at a time and never reads src outside
// the offsets it is given; then it applies ep to c. It panics, as a
// programming error, if the offsets reach outside src or the slices are
// too short.
func MulGathered(a *PackedA, n int, src []float32, rowOff, runOff []int32, c []float32, ldc int, ep Epilogue) {
	if n < 0 || n%8 != 0 {
		panic(fmt.Sprintf("gemm: gathered product of %d columns, not a multiple of 8", n))
	}
	if len(rowOff) != a.k || len(runOff) != n/8 {
		panic(fmt.Sprintf("gemm: gathered product with %d row and %d run offsets for k=%d, n=%d", len(rowOff), len(runOff), a.k, n))
	}
	checkMatrix("c", a.m, n, c, ldc)
	if len(ep.Bias) < a.m {
		panic(fmt.Sprintf("gemm: an epilogue with %d biases for %d rows", len(ep.Bias), a.m))
	}
	if ep.Res != nil {
		checkMatrix("the epilogue's residual", a.m, n, ep.Res, ep.LdRes)
	}
	if ep.Pad != nil && a.m > 0 && n > 0 {
		if len(ep.PadRunOff) != n/8 {
			panic(fmt.Sprintf("gemm: an epilogue with %d padded run offsets for %d columns", len(ep.PadRunOff), n))
		}
		lo, hi := span(ep.PadRunOff)
		if lo < 0 || ep.PadStride < 0 || (a.m-1)*ep.PadStride+hi+8 > len(ep.Pad) {
			panic(fmt.Sprintf("gemm: an epilogue's padded copy reaches [%d, %d) outside %d floats", lo, (a.m-1)*ep.PadStride+hi+8, len(ep.Pad)))
		}
	}
	if a.m == 0 || n == 0 {
		return
	}
	if a.k == 0 {
		scale(a.m, n, 0, c, ldc)
		ep.apply(a.kern, c, ldc, 0, a.m, 0, n)
		return
	}
	lo, hi := span(rowOff)
	rlo, rhi := span(runOff)
	if lo+rlo < 0 || hi+rhi+8 > len(src) {
		panic(fmt.Sprintf("gemm: gathered offsets reach [%d, %d) outside a source of %d floats", lo+rlo, hi+rhi+8, len(src)))
	}
	kern := a.kern
	mr, nr, k := kern.mr, kern.nr, a.k
	buf := getBuffers()
	defer putBuffers(buf)
	buf.b = grow(buf.b, k*nr)
	panel := buf.b[:k*nr]
	for jr := 0; jr < n; jr += nr {
		cols := min(nr, n-jr)
		packGathered(kern, panel, src, rowOff, runOff, jr, cols)
		for ir := 0; ir < a.m; ir += mr {
			rows := min(mr, a.m-ir)
			ap := &a.panels[ir*k]
			if cols == nr {
				_ = c[(ir+rows-1)*ldc+jr+nr-1] // the tile ends inside c
				kern.fn(k, ap, &panel[0], &c[ir*ldc+jr], ldc, rows, 1, 0)
			} else {
				t := buf.tile[:mr*nr]
				kern.fn(k, ap, &panel[0], &t[0], nr, rows, 1, 0)
				for i := range rows {
					copy(c[(ir+i)*ldc+jr:][:cols], t[i*nr:][:cols])
				}
			}
			ep.apply(kern, c, ldc, ir, rows, jr, cols)
		}
	}
}

// apply finishes rows ir..ir+rows, columns jr..jr+cols of c, with the
// kernel's vector code for a whole tile and in Go otherwise.
func (ep *Epilogue) apply(kern *kernel, c []float32, ldc, ir, rows, jr, cols int) {
	relu := 0
	if ep.ReLU {
		relu = 1
	}
	if kern.epilogue != nil && cols == kern.nr && rows <= kern.mr {
		var res, pad *float32
		var padRunOff *int32
		if ep.Res != nil {
			res = &ep.Res[ir*ep.LdRes+jr]
		}
		if ep.Pad != nil {
			pad, padRunOff = &ep.Pad[ir*ep.PadStride], &ep.PadRunOff[jr/8]
		}
		kern.epilogue(&c[ir*ldc+jr], ldc, rows, &ep.Bias[ir], res, ep.LdRes, relu, pad, ep.PadStride, padRunOff)
		return
	}
	for i := ir; i < ir+rows; i++ {
		row := c[i*ldc+jr:][:cols]
		var r []float32
		if ep.Res != nil {
			r = ep.Res[i*ep.LdRes+jr:][:cols]
		}
		for j, v := range row {
			v += ep.Bias[i]
			if r != nil {
				v += r[j]
			}
			if ep.ReLU {
				v = max(v, 0)
			}
			row[j] = v
			if ep.Pad != nil {
				col := jr + j
				ep.Pad[i*ep.PadStride+int(ep.PadRunOff[col/8])+col%8] = v
			}
		}
	}
}

// span returns the least and greatest of offs (not empty).
func span(offs []int32) (lo, hi int) {
	lo, hi = int(offs[0]), int(offs[0])
	for _, o := range offs[1:] {
		lo, hi = min(lo, int(o)), max(hi, int(o))
	}
	return lo, hi
}

// packGathered packs columns jr..jr+cols of the gathered B into dst, one
// panel of kern.nr columns per row of B, zeros past cols.
func packGathered(kern *kernel, dst, src []float32, rowOff, runOff []int32, jr, cols int) {
	nr := kern.nr
	if kern.packRuns != nil {
		// nr is a multiple of 8, and so are jr and cols.
		if cols == nr {
			kern.packRunsFull(&dst[0], &src[0], &rowOff[0], len(rowOff), &runOff[jr/8])
			return
		}
		clear(dst)
		kern.packRuns(&dst[0], &src[0], &rowOff[0], len(rowOff), &runOff[jr/8], cols/8, nr)
		return
	}
	for p, ro := range rowOff {
		d := dst[p*nr : p*nr+nr]
		for j := range d {
			if j >= cols {
				d[j] = 0
				continue
			}
			col := jr + j
			d[j] = src[int(ro)+int(runOff[col/8])+col%8]
		}
	}
}
