package nn

import (
	"runtime"
	"sync"
)

// matmuls runs the fast trainer's matrix products: on the calling
// goroutine, or split into as many parts as it uses threads, the calling
// goroutine computing one part and long-lived helper goroutines the rest.
// The helpers stop when the owner becomes unreachable (stopWith).
type matmuls struct {
	// threads is how many goroutines it has, the caller's included;
	// parts, at most threads, how many a product is split over.
	threads, parts int
	jobs           chan gemmJob
	wg             sync.WaitGroup
}

// gemmJob is one part of a split product, as gemmT's arguments.
type gemmJob struct {
	ta, tb  bool
	m, n, k int
	a       []float32
	lda     int
	b       []float32
	ldb     int
	beta    float32
	c       []float32
	ldc     int
	wg      *sync.WaitGroup
}

func (j *gemmJob) run() {
	gemmT(j.ta, j.tb, j.m, j.n, j.k, j.a, j.lda, j.b, j.ldb, j.beta, j.c, j.ldc)
}

// minSplit is the least work, in multiply-adds, worth splitting.
const minSplit = 1 << 18

func newMatmuls(threads int) *matmuls {
	mm := &matmuls{threads: max(threads, 1)}
	mm.parts = mm.threads
	if mm.threads > 1 {
		mm.jobs = make(chan gemmJob, mm.threads)
		for range mm.threads - 1 {
			go func(jobs <-chan gemmJob) {
				for j := range jobs {
					j.run()
					j.wg.Done()
				}
			}(mm.jobs)
		}
	}
	return mm
}

// use splits later products over n of the goroutines, at least one and
// at most all.
func (mm *matmuls) use(n int) { mm.parts = min(max(n, 1), mm.threads) }

// stopWith stops the helpers once owner, which must not be reachable
// from mm, becomes unreachable.
func stopWith[T any](owner *T, mm *matmuls) {
	if mm.jobs != nil {
		runtime.AddCleanup(owner, func(jobs chan gemmJob) { close(jobs) }, mm.jobs)
	}
}

// gemm is gemmT, split along the longer output dimension when there is
// enough work.
func (mm *matmuls) gemm(ta, tb bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	parts := mm.parts
	if parts == 1 || m*n*k < minSplit || max(m, n) < 2*parts {
		gemmT(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc)
		return
	}
	splitN := n >= m
	size := n
	if !splitN {
		size = m
	}
	chunk := (size + parts - 1) / parts
	if chunk > 64 {
		chunk = (chunk + 63) &^ 63
	}
	var first gemmJob
	for p, lo := 0, 0; lo < size; p, lo = p+1, lo+chunk {
		hi := min(size, lo+chunk)
		j := gemmJob{ta: ta, tb: tb, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, beta: beta, ldc: ldc, wg: &mm.wg}
		if splitN {
			j.n = hi - lo
			j.c = c[lo:]
			if tb {
				j.b = b[lo*ldb:]
			} else {
				j.b = b[lo:]
			}
		} else {
			j.m = hi - lo
			j.c = c[lo*ldc:]
			if ta {
				j.a = a[lo:]
			} else {
				j.a = a[lo*lda:]
			}
		}
		if p == 0 {
			first = j
			continue
		}
		mm.wg.Add(1)
		mm.jobs <- j
	}
	first.run()
	mm.wg.Wait()
}
