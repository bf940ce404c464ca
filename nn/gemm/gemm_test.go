package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// sentinel fills every element of c's backing array outside the m×n window.
const sentinel = float32(-12345.5)

// product is one Sgemm call's arguments, with its operands laid out in
// larger arrays so that row strides exceed row lengths and c is surrounded
// by sentinels.
type product struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	a, b, c        []float32
	lda, ldb, ldc  int
	cOff           int // c's window starts at c[cOff:]
}

// newProduct draws random operands; pad adds that many columns to each
// row stride.
func newProduct(rng *rand.Rand, transA, transB bool, m, n, k, pad int, alpha, beta float32) *product {
	p := &product{transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	p.lda, p.ldb, p.ldc = max(ac, 1)+pad, max(bc, 1)+pad, max(n, 1)+pad
	p.a = randSlice(rng, ar*p.lda)
	p.b = randSlice(rng, br*p.ldb)
	p.cOff = 3
	// A whole row of sentinels follows c's last row.
	p.c = make([]float32, p.cOff+(m+1)*p.ldc+5)
	for i := range p.c {
		p.c[i] = sentinel
	}
	for i := range m {
		for j := range n {
			p.c[p.cOff+i*p.ldc+j] = rng.Float32()*2 - 1
		}
	}
	return p
}

func randSlice(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = rng.Float32()*2 - 1
	}
	return s
}

func (p *product) at(s []float32, ld int, trans bool, i, j int) float32 {
	if trans {
		return s[j*ld+i]
	}
	return s[i*ld+j]
}

// check runs Sgemm on p and compares every element of c with a float64
// triple loop, and every sentinel with its value.
func (p *product) check(t *testing.T) {
	t.Helper()
	want := make([]float64, p.m*p.n)
	bound := make([]float64, p.m*p.n)
	for i := range p.m {
		for j := range p.n {
			var s, abs float64
			for q := range p.k {
				x := float64(p.at(p.a, p.lda, p.transA, i, q)) * float64(p.at(p.b, p.ldb, p.transB, q, j))
				s += x
				abs += math.Abs(x)
			}
			w := float64(p.alpha) * s
			bound[i*p.n+j] = math.Abs(float64(p.alpha)) * abs
			if p.beta != 0 {
				cv := float64(p.c[p.cOff+i*p.ldc+j])
				w += float64(p.beta) * cv
				bound[i*p.n+j] += math.Abs(float64(p.beta) * cv)
			}
			want[i*p.n+j] = w
		}
	}
	Sgemm(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c[p.cOff:], p.ldc)
	for idx, v := range p.c {
		r, col := (idx-p.cOff)/p.ldc, (idx-p.cOff)%p.ldc
		if idx < p.cOff || r >= p.m || col >= p.n {
			if v != sentinel {
				t.Fatalf("%v: element %d outside c's window changed to %g", p, idx, v)
			}
			continue
		}
		w, tol := want[r*p.n+col], 1e-5*bound[r*p.n+col]+1e-6
		if math.Abs(float64(v)-w) > tol {
			t.Fatalf("%v: c[%d][%d] = %g, want %g (±%g)", p, r, col, v, w, tol)
		}
	}
}

func (p *product) String() string {
	return fmt.Sprintf("transA=%v transB=%v m=%d n=%d k=%d alpha=%g beta=%g lda=%d ldb=%d ldc=%d",
		p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.beta, p.lda, p.ldb, p.ldc)
}

// eachPath runs f once on every kernel path this CPU has, in a subtest
// named by the path, and logs which path ran, so that a test log says
// which kernels were checked.
func eachPath(t *testing.T, f func(t *testing.T)) {
	defer func(orig string) { _ = SetPath(orig) }(Path())
	for _, name := range Paths() {
		t.Run(name, func(t *testing.T) {
			if err := SetPath(name); err != nil {
				t.Fatal(err)
			}
			kern := current.Load()
			t.Logf("kernel path %s (%d×%d tiles) of this CPU's %s", Path(), kern.mr, kern.nr, strings.Join(Paths(), ", "))
			f(t)
		})
	}
}

var (
	alphas = []float32{1, -0.75}
	betas  = []float32{0, 1, 0.5}
)

// TestSgemmEverySize covers every size from 1 to 70 in each dimension, the
// other two drawn at random, in all four transpose forms.
func TestSgemmEverySize(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for d := 1; d <= 70; d++ {
			for dim := range 3 {
				for form := range 4 {
					s := [3]int{rng.IntN(70) + 1, rng.IntN(70) + 1, rng.IntN(70) + 1}
					s[dim] = d
					alpha, beta := alphas[rng.IntN(len(alphas))], betas[rng.IntN(len(betas))]
					newProduct(rng, form&1 != 0, form&2 != 0, s[0], s[1], s[2], rng.IntN(3), alpha, beta).check(t)
				}
			}
		}
	})
}

// TestSgemmCube covers every shape up to 12 in each dimension.
func TestSgemmCube(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		for m := 1; m <= 12; m++ {
			for n := 1; n <= 12; n++ {
				for k := 1; k <= 12; k++ {
					form := rng.IntN(4)
					newProduct(rng, form&1 != 0, form&2 != 0, m, n, k, rng.IntN(2),
						alphas[rng.IntN(len(alphas))], betas[rng.IntN(len(betas))]).check(t)
				}
			}
		}
	})
}

// TestSgemmLarge covers shapes that cross the block sizes kc, mc and nc,
// and the project's own.
func TestSgemmLarge(t *testing.T) {
	shapes := [][3]int{
		{16, 2048, 144}, {64, 1024, 576}, {2, 2048, 64}, {256, 64, 1024},
		{193, 481, 257}, {300, 100, 600}, {1, 1000, 600}, {600, 1, 700}, {97, 963, 513},
		{1250, 29, 300}, // more rows than one chunk of packed A (ma)
	}
	if testing.Short() {
		shapes = shapes[:5]
	}
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for _, s := range shapes {
			for form := range 4 {
				newProduct(rng, form&1 != 0, form&2 != 0, s[0], s[1], s[2], 1+rng.IntN(4), 1, betas[form%3]).check(t)
			}
		}
	})
}

// TestSgemmSpecialValues checks that a NaN or an infinity in a or b
// reaches c, and that beta = 0 ignores NaNs already in c.
func TestSgemmSpecialValues(t *testing.T) {
	const m, n, k = 19, 37, 23
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	eachPath(t, func(t *testing.T) {
		for _, tc := range []struct {
			name        string
			beta        float32
			set         func(p *product)
			row, col    int // a c element that must be NaN or infinite; -1: none
			wantNaN     bool
			wantFinites bool // every element of c must be finite
		}{
			{"NaN in a", 0, func(p *product) { p.a[5*p.lda+7] = nan }, 5, 3, true, false},
			{"NaN in b", 1, func(p *product) { p.b[7*p.ldb+30] = nan }, 11, 30, true, false},
			{"Inf in a", 0, func(p *product) {
				for q := range k {
					p.a[2*p.lda+q] = inf
				}
				for j := range n {
					for q := range k {
						p.b[q*p.ldb+j] = 1
					}
				}
			}, 2, 9, false, false},
			{"NaN in c, beta 0", 0, func(p *product) {
				for i := range m {
					for j := range n {
						p.c[p.cOff+i*p.ldc+j] = nan
					}
				}
			}, -1, -1, false, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := newProduct(rand.New(rand.NewPCG(7, 8)), false, false, m, n, k, 2, 1, tc.beta)
				tc.set(p)
				Sgemm(false, false, m, n, k, 1, p.a, p.lda, p.b, p.ldb, tc.beta, p.c[p.cOff:], p.ldc)
				for i := range m {
					for j := range n {
						v := float64(p.c[p.cOff+i*p.ldc+j])
						if tc.wantFinites && (math.IsNaN(v) || math.IsInf(v, 0)) {
							t.Fatalf("c[%d][%d] = %g, want finite", i, j, v)
						}
					}
				}
				if tc.row >= 0 {
					v := float64(p.c[p.cOff+tc.row*p.ldc+tc.col])
					if tc.wantNaN && !math.IsNaN(v) || !tc.wantNaN && !math.IsInf(v, 1) {
						t.Fatalf("c[%d][%d] = %g", tc.row, tc.col, v)
					}
				}
			})
		}
	})
}

// TestSgemmDegenerate covers k = 0 and alpha = 0 (c = beta·c, a and b
// not read) and empty outputs.
func TestSgemmDegenerate(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name        string
		m, n, k     int
		alpha, beta float32
		a, b        []float32
		want        []float32
	}{
		{"k=0 beta=0", 2, 2, 0, 1, 0, nil, nil, []float32{0, 0, 0, 0}},
		{"k=0 beta=2", 2, 2, 0, 1, 2, nil, nil, []float32{2, 4, 6, 8}},
		{"alpha=0 ignores NaN", 2, 2, 1, 0, 1, []float32{nan, nan}, []float32{nan, nan}, []float32{1, 2, 3, 4}},
		{"m=0", 0, 2, 3, 1, 0, nil, make([]float32, 6), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := []float32{1, 2, 3, 4}[:tc.m*tc.n]
			lda := max(tc.k, 1)
			Sgemm(false, false, tc.m, tc.n, tc.k, tc.alpha, tc.a, lda, tc.b, max(tc.n, 1), tc.beta, c, max(tc.n, 1))
			for i := range tc.want {
				if c[i] != tc.want[i] {
					t.Fatalf("c = %v, want %v", c, tc.want)
				}
			}
		})
	}
}

// TestSgemmMisuse checks that programming errors panic with a message.
func TestSgemmMisuse(t *testing.T) {
	s := make([]float32, 100)
	checkPanics(t, []misuse{
		{"negative m", func() { Sgemm(false, false, -1, 2, 2, 1, s, 2, s, 2, 0, s, 2) }},
		{"lda too small", func() { Sgemm(false, false, 2, 2, 3, 1, s, 2, s, 2, 0, s, 2) }},
		{"transposed lda too small", func() { Sgemm(true, false, 5, 2, 3, 1, s, 3, s, 2, 0, s, 2) }},
		{"a too short", func() { Sgemm(false, false, 20, 2, 6, 1, s, 6, s, 2, 0, s, 2) }},
		{"b too short", func() { Sgemm(false, true, 2, 30, 4, 1, s, 4, s, 4, 0, s, 30) }},
		{"c too short", func() { Sgemm(false, false, 11, 10, 1, 1, s, 1, s, 10, 0, s, 10) }},
	})
}

// misuse is a call that a programming error makes panic.
type misuse struct {
	name string
	call func()
}

// checkPanics checks that each call panics with a message.
func checkPanics(t *testing.T, cases []misuse) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil {
					t.Fatal("no panic")
				} else if msg, ok := r.(string); !ok || len(msg) < 10 {
					t.Fatalf("panic %v, want a message", r)
				}
			}()
			tc.call()
		})
	}
}

// TestSetPath checks that unknown paths are refused and leave the
// current one in place, and logs the paths this CPU has.
func TestSetPath(t *testing.T) {
	t.Logf("kernel paths on this CPU: %s; default %s", strings.Join(Paths(), ", "), Path())
	before := Path()
	if err := SetPath("sse9"); err == nil {
		t.Fatal("SetPath(sse9) succeeded")
	}
	if Path() != before {
		t.Fatalf("path changed to %s", Path())
	}
	if Paths()[len(Paths())-1] != "generic" {
		t.Fatalf("Paths() = %v, want generic last", Paths())
	}
}

// TestSgemmNoAllocs checks that steady state reuses its packing buffers.
func TestSgemmNoAllocs(t *testing.T) {
	const m, n, k = 64, 512, 300
	a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	allocs := testing.AllocsPerRun(20, func() { Sgemm(false, true, m, n, k, 1, a, k, b, k, 0, c, n) })
	if allocs > 0 {
		t.Fatalf("%v allocations per product", allocs)
	}
}

// FuzzSgemm checks random shapes, forms, strides and scalars against the
// triple loop on every path.
func FuzzSgemm(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint8(1), uint8(0), uint8(0), uint64(1))
	f.Add(uint8(16), uint8(70), uint8(33), uint8(3), uint8(2), uint64(2))
	f.Add(uint8(65), uint8(9), uint8(200), uint8(1), uint8(1), uint64(3))
	f.Fuzz(func(t *testing.T, m, n, k, form, pad uint8, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 9))
		defer func(orig string) { _ = SetPath(orig) }(Path())
		for _, name := range Paths() {
			if err := SetPath(name); err != nil {
				t.Fatal(err)
			}
			p := newProduct(rng, form&1 != 0, form&2 != 0, int(m%100), int(n%100), int(k%100), int(pad%5),
				alphas[int(form>>2)%len(alphas)], betas[int(form>>3)%len(betas)])
			p.check(t)
		}
	})
}
