package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gathered is one MulGathered call's operands: A, a source and its
// offsets, and c inside a larger array of sentinels.
type gathered struct {
	m, n, k        int
	a, src         []float32
	rowOff, runOff []int32
	c              []float32
	ldc, cOff      int
	ep             Epilogue
}

// newGathered draws a product whose offsets reach from src's first
// float to its last.
func newGathered(rng *rand.Rand, m, n, k int) *gathered {
	g := &gathered{m: m, n: n, k: k, ldc: n + 3, cOff: 2}
	g.a = randSlice(rng, m*k)
	size := 40 + rng.IntN(300)
	g.src = randSlice(rng, size)
	g.rowOff = make([]int32, k)
	for p := range g.rowOff {
		g.rowOff[p] = int32(rng.IntN(size/2 - 8))
	}
	g.runOff = make([]int32, n/8)
	for q := range g.runOff {
		g.runOff[q] = int32(rng.IntN(size / 2))
	}
	// The extremes: one gather starts at src[0], one ends at its last float.
	if k > 0 && n > 0 {
		g.rowOff[0], g.runOff[0] = 0, 0
		g.rowOff[k-1] = int32(size/2 - 8)
		g.runOff[len(g.runOff)-1] = int32(size - size/2)
	}
	g.c = make([]float32, g.cOff+(m+1)*g.ldc)
	for i := range g.c {
		g.c[i] = sentinel
	}
	// Every other product has a residual, every third no ReLU.
	g.ep = Epilogue{Bias: randSlice(rng, m), ReLU: rng.IntN(3) != 0}
	if rng.IntN(2) == 0 {
		g.ep.LdRes = n + 5
		g.ep.Res = randSlice(rng, max(m, 1)*g.ep.LdRes)
	}
	// Every other product also writes a padded copy: runs of 8 with gaps
	// of 3 between them, the rest sentinels.
	if rng.IntN(2) == 0 {
		g.ep.PadStride = n/8*11 + 5
		g.ep.Pad = make([]float32, max(m, 1)*g.ep.PadStride)
		for i := range g.ep.Pad {
			g.ep.Pad[i] = sentinel
		}
		g.ep.PadRunOff = make([]int32, n/8)
		for q := range g.ep.PadRunOff {
			g.ep.PadRunOff[q] = int32(11*q + 2)
		}
	}
	return g
}

// check runs MulGathered and compares c with a float64 triple loop over
// the gathered B, and every sentinel with its value.
func (g *gathered) check(t *testing.T) {
	t.Helper()
	MulGathered(PackA(g.m, g.k, g.a, g.k), g.n, g.src, g.rowOff, g.runOff, g.c[g.cOff:], g.ldc, g.ep)
	for idx, v := range g.c {
		r, col := (idx-g.cOff)/g.ldc, (idx-g.cOff)%g.ldc
		if idx < g.cOff || r >= g.m || col >= g.n {
			if v != sentinel {
				t.Fatalf("m=%d n=%d k=%d: element %d outside c's window changed to %g", g.m, g.n, g.k, idx, v)
			}
			continue
		}
		var s, abs float64
		for p := range g.k {
			x := float64(g.a[r*g.k+p]) * float64(g.src[int(g.rowOff[p])+int(g.runOff[col/8])+col%8])
			s += x
			abs += math.Abs(x)
		}
		s += float64(g.ep.Bias[r])
		if g.ep.Res != nil {
			s += float64(g.ep.Res[r*g.ep.LdRes+col])
		}
		if g.ep.ReLU {
			s = max(s, 0)
		}
		if tol := 1e-5*abs + 1e-5; math.Abs(float64(v)-s) > tol {
			t.Fatalf("m=%d n=%d k=%d: c[%d][%d] = %g, want %g (±%g)", g.m, g.n, g.k, r, col, v, s, tol)
		}
	}
	// The padded copy holds C's rows in its runs and nothing elsewhere.
	for idx, v := range g.ep.Pad {
		r, off := idx/g.ep.PadStride, idx%g.ep.PadStride
		q := (off - 2) / 11
		if off < 2 || q >= g.n/8 || (off-2)%11 >= 8 || r >= g.m {
			if v != sentinel {
				t.Fatalf("m=%d n=%d k=%d: padded element %d outside the runs changed to %g", g.m, g.n, g.k, idx, v)
			}
			continue
		}
		if want := g.c[g.cOff+r*g.ldc+8*q+(off-2)%11]; v != want {
			t.Fatalf("m=%d n=%d k=%d: padded copy of c[%d][%d] = %g, want %g", g.m, g.n, g.k, r, 8*q+(off-2)%11, v, want)
		}
	}
}

// TestMulGathered covers, on every kernel path, every m from 1 to 20 and
// every n from 8 to 136 (whole panels and cut ones), k drawn at random
// up to a few hundred (a net's 3×3 convolutions have k = 9·channels).
func TestMulGathered(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for m := 1; m <= 20; m++ {
			for n := 8; n <= 136; n += 8 {
				newGathered(rng, m, n, 1+rng.IntN(300)).check(t)
			}
		}
		// k of 1, and a product with no rows of A.
		newGathered(rng, 5, 16, 1).check(t)
		newGathered(rng, 0, 16, 9).check(t)
	})
}

// TestMulGatheredKZero checks that an empty k sets c to its bias.
func TestMulGatheredKZero(t *testing.T) {
	c := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	MulGathered(PackA(1, 0, nil, 1), 8, nil, nil, []int32{0}, c, 8, Epilogue{Bias: []float32{-0.5}})
	for j, v := range c {
		if v != -0.5 {
			t.Fatalf("c[%d] = %g, want the bias -0.5", j, v)
		}
	}
}

// TestMulGatheredMatchesSgemm checks the gathered product of a 3×3
// convolution read from zero-padded planes against Sgemm on the same
// im2col matrix laid out in full, on every kernel path.
func TestMulGatheredMatchesSgemm(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		const in, out, h, w, n = 5, 11, 6, 8, 3
		pw, ph := w+2, h+2
		stride := n * ph * pw
		pad := make([]float32, in*stride)
		for ci := range in {
			for i := range n {
				for y := range h {
					for x := range w {
						pad[ci*stride+i*ph*pw+(y+1)*pw+x+1] = rng.Float32()*2 - 1
					}
				}
			}
		}
		k, cols := in*9, n*h*w
		rowOff := make([]int32, k)
		b := make([]float32, k*cols)
		for ci := range in {
			for tap := range 9 {
				rowOff[ci*9+tap] = int32(ci*stride + tap/3*pw + tap%3)
			}
		}
		runOff := make([]int32, cols/8)
		for q := range runOff {
			j := 8 * q
			i, s := j/(h*w), j%(h*w)
			runOff[q] = int32(i*ph*pw + s/w*pw + s%w)
		}
		for p := range k {
			for j := range cols {
				b[p*cols+j] = pad[int(rowOff[p])+int(runOff[j/8])+j%8]
			}
		}
		a := randSlice(rng, out*k)
		want, got := make([]float32, out*cols), make([]float32, out*cols)
		Sgemm(false, false, out, cols, k, 1, a, k, b, cols, 0, want, cols)
		MulGathered(PackA(out, k, a, k), cols, pad, rowOff, runOff, got, cols, Epilogue{Bias: make([]float32, out)})
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-4 {
				t.Fatalf("element %d: gathered %g, Sgemm %g", i, got[i], want[i])
			}
		}
	})
}

// TestMulGatheredMisuse checks that programming errors panic with a
// message instead of reading outside the source.
func TestMulGatheredMisuse(t *testing.T) {
	a := PackA(2, 3, make([]float32, 6), 3)
	src, c := make([]float32, 64), make([]float32, 20)
	ep := Epilogue{Bias: make([]float32, 2)}
	checkPanics(t, []misuse{
		{"n not a multiple of 8", func() { MulGathered(a, 12, src, []int32{0, 0, 0}, []int32{0}, c, 12, ep) }},
		{"too few row offsets", func() { MulGathered(a, 8, src, []int32{0, 0}, []int32{0}, c, 8, ep) }},
		{"too few run offsets", func() { MulGathered(a, 16, src, []int32{0, 0, 0}, []int32{0}, c, 16, ep) }},
		{"offset past the end", func() { MulGathered(a, 8, src, []int32{0, 0, 50}, []int32{7}, c, 8, ep) }},
		{"negative offset", func() { MulGathered(a, 8, src, []int32{0, -1, 0}, []int32{0}, c, 8, ep) }},
		{"c too short", func() { MulGathered(a, 16, src, []int32{0, 0, 0}, []int32{0, 8}, c, 16, ep) }},
		{"a too short", func() { PackA(3, 4, make([]float32, 11), 4) }},
		{"too few padded run offsets", func() {
			MulGathered(a, 8, src, []int32{0, 0, 0}, []int32{0}, c, 8, Epilogue{Bias: ep.Bias, Pad: make([]float32, 64), PadStride: 8})
		}},
		{"padded copy past the end", func() {
			MulGathered(a, 8, src, []int32{0, 0, 0}, []int32{0}, c, 8, Epilogue{Bias: ep.Bias, Pad: make([]float32, 20), PadStride: 8, PadRunOff: []int32{5}})
		}},
		{"too few biases", func() { MulGathered(a, 8, src, []int32{0, 0, 0}, []int32{0}, c, 8, Epilogue{Bias: []float32{1}}) }},
		{"residual too short", func() {
			MulGathered(a, 8, src, []int32{0, 0, 0}, []int32{0}, c, 8, Epilogue{Bias: ep.Bias, Res: make([]float32, 15), LdRes: 8})
		}},
	})
}

// TestMulGatheredNoAllocs checks that steady-state products do not
// allocate.
func TestMulGatheredNoAllocs(t *testing.T) {
	g := newGathered(rand.New(rand.NewPCG(1, 2)), 16, 64, 144)
	a := PackA(g.m, g.k, g.a, g.k)
	allocs := testing.AllocsPerRun(100, func() {
		MulGathered(a, g.n, g.src, g.rowOff, g.runOff, g.c[g.cOff:], g.ldc, g.ep)
	})
	if allocs != 0 {
		t.Errorf("%v allocations a product", allocs)
	}
}
