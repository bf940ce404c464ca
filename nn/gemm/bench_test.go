package gemm

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
)

// benchShapes are the peak's shape and the products the nets multiply at
// batch 32 (64 squares: 2048 columns).
var benchShapes = []struct {
	name           string
	transA, transB bool
	m, n, k        int
}{
	{"peak-1024", false, false, 1024, 1024, 1024},
	{"compact-conv-16x2048x144", false, false, 16, 2048, 144},
	{"medium-conv-64x2048x576", false, false, 64, 2048, 576},
	{"head-1x1-4x2048x64", false, false, 4, 2048, 64},
	{"value-fc-32x128x256", false, false, 32, 128, 256},
	{"dense-policy-32x2560x256", false, false, 32, 2560, 256},
	{"value-out-32x3x128", false, false, 32, 3, 128},
	{"medium-gradw-64x576x2048-tB", false, true, 64, 576, 2048},
	{"medium-gradx-576x2048x64-tA", true, false, 576, 2048, 64},
}

// comparison is another SGEMM measured beside the project's, computing
// c = op(a)·op(b).
type comparison struct {
	name  string
	sgemm func(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int)
}

// comparisons are gonum, and OpenBLAS when built with -tags openblas.
var comparisons = []comparison{{"gonum", gonumOneCore}}

// gonumOneCore is gonum's SGEMM on the calling goroutine: in tiles of
// 64×128 outputs, small enough that gonum does not split them across
// goroutines, as the default build multiplied before this package.
func gonumOneCore(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	var impl gonumblas.Implementation
	const tm, tn = 64, 128
	for i := 0; i < m; i += tm {
		ai := a[i:]
		if tA == blas.NoTrans {
			ai = a[i*lda:]
		}
		for j := 0; j < n; j += tn {
			bj := b[j:]
			if tB != blas.NoTrans {
				bj = b[j*ldb:]
			}
			impl.Sgemm(tA, tB, min(tm, m-i), min(tn, n-j), k, 1, ai, lda, bj, ldb, 0, c[i*ldc+j:], ldc)
		}
	}
}

// BenchmarkSgemm measures each shape on every path and on gonum, in
// GFLOP/s of elapsed time and, on Linux, GFLOP/s of the thread's CPU time
// (cpu-GFLOP/s), which other programs sharing the cores disturb less.
func BenchmarkSgemm(b *testing.B) {
	defer func(orig string) { _ = SetPath(orig) }(Path())
	for _, s := range benchShapes {
		ar, ac, br, bc := s.m, s.k, s.k, s.n
		if s.transA {
			ar, ac = ac, ar
		}
		if s.transB {
			br, bc = bc, br
		}
		x, y, z := make([]float32, ar*ac), make([]float32, br*bc), make([]float32, s.m*s.n)
		for i := range x {
			x[i] = float32(i%7) / 7
		}
		for i := range y {
			y[i] = float32(i%5) / 5
		}
		flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
		// start and report bracket a measurement on one locked thread.
		var cpu0 time.Duration
		start := func(b *testing.B) {
			runtime.LockOSThread()
			cpu0 = threadCPU()
		}
		report := func(b *testing.B) {
			defer runtime.UnlockOSThread()
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu := threadCPU() - cpu0; cpu0 > 0 && cpu > 0 {
				b.ReportMetric(flops*float64(b.N)/cpu.Seconds()/1e9, "cpu-GFLOP/s")
			}
		}
		for _, path := range Paths() {
			b.Run(fmt.Sprintf("%s/%s", s.name, path), func(b *testing.B) {
				if err := SetPath(path); err != nil {
					b.Fatal(err)
				}
				start(b)
				for b.Loop() {
					Sgemm(s.transA, s.transB, s.m, s.n, s.k, 1, x, ac, y, bc, 0, z, s.n)
				}
				report(b)
			})
		}
		ta, tb := blas.NoTrans, blas.NoTrans
		if s.transA {
			ta = blas.Trans
		}
		if s.transB {
			tb = blas.Trans
		}
		for _, cmp := range comparisons {
			b.Run(fmt.Sprintf("%s/%s", s.name, cmp.name), func(b *testing.B) {
				start(b)
				for b.Loop() {
					cmp.sgemm(ta, tb, s.m, s.n, s.k, x, ac, y, bc, z, s.n)
				}
				report(b)
			})
		}
	}
}

// BenchmarkKernel measures each micro-kernel alone on panels that stay in
// L1 (k = 256): the ceiling of the products above.
func BenchmarkKernel(b *testing.B) {
	const k = 256
	for _, kern := range available() {
		b.Run(kern.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			a, p, c := make([]float32, kern.mr*k), make([]float32, kern.nr*k), make([]float32, kern.mr*kern.nr)
			cpu0 := threadCPU()
			for b.Loop() {
				kern.fn(k, &a[0], &p[0], &c[0], kern.nr, kern.mr, 1, 0)
			}
			flops := 2 * float64(kern.mr*kern.nr*k) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu := threadCPU() - cpu0; cpu0 > 0 && cpu > 0 {
				b.ReportMetric(flops/cpu.Seconds()/1e9, "cpu-GFLOP/s")
			}
		})
	}
}
