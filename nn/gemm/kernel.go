package gemm

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
)

// kernel is one micro-kernel: it multiplies a packed mr×k panel of A by a
// packed k×nr panel of B and writes the first rows (1 to mr) rows of the
// mr×nr tile at c (row stride ldc) as alpha·AB + beta·c, reading c only
// when beta is not zero. k ≥ 1.
//
// packB copies k rows of nr floats, ldb apart in src, to dst: one full
// panel of B (edge panels are packed in Go). transpose8, if not nil,
// interleaves 8 rows of src, ld floats apart, over 8·blocks columns,
// column p's values going to dst[p·r : p·r+8]. packRuns, if not nil
// (then nr is a multiple of 8), packs a panel gathered from runs of 8
// floats (MulGathered), and packRunsFull a whole panel of nr/8 runs.
// epilogue, if not nil, finishes a whole tile of nr columns in place
// (Epilogue). packBRows, if not nil, packs several whole panels of B at
// once, walking src row by row, and packARows likewise panels of A from
// an A stored k×m; transpose4, if not nil (then mr is 4),
// packs 4 rows that lie along k into a panel 4 wide.
type kernel struct {
	name         string
	mr, nr       int
	fn           func(k int, a, b, c *float32, ldc, rows int, alpha, beta float32)
	packB        func(dst, src *float32, ldb, k int)
	packBRows    func(dst, src *float32, ldb, k, panels int)
	packARows    func(dst, src *float32, lda, k, panels int)
	transpose8   func(dst, src *float32, ld, r, blocks int)
	transpose4   func(dst, src *float32, ld, blocks int)
	packRuns     func(dst, src *float32, rowOff *int32, k int, runOff *int32, runs, dstStride int)
	packRunsFull func(dst, src *float32, rowOff *int32, k int, runOff *int32)
	epilogue     func(c *float32, ldc, rows int, bias, res *float32, ldres, relu int, pad *float32, padStride int, padRunOff *int32)
}

// EnvPath is the environment variable that forces a kernel path at start:
// "avx512", "avx2" or "generic". Unset or empty picks the fastest path the
// CPU supports.
const EnvPath = "TRENCH_GEMM"

var (
	current atomic.Pointer[kernel]
	envErr  error
)

func init() {
	current.Store(&available()[0])
	if v := os.Getenv(EnvPath); v != "" {
		if err := SetPath(v); err != nil {
			envErr = fmt.Errorf("%s=%q: %w", EnvPath, v, err)
		}
	}
}

// EnvError reports a value of TRENCH_GEMM that names no path this CPU can
// run; the fastest path is used instead. Commands check it at start.
func EnvError() error { return envErr }

// Paths lists the kernel paths this CPU can run, fastest first.
func Paths() []string {
	var names []string
	for _, k := range available() {
		names = append(names, k.name)
	}
	return names
}

// Path names the kernel path in use: "avx512", "avx2" or "generic".
func Path() string { return current.Load().name }

// SetPath makes Sgemm use the named kernel path from now on. It returns
// an error, and changes nothing, if this CPU cannot run that path. It is
// meant for tests and measurements; calls already running finish on the
// path they started with.
func SetPath(name string) error {
	for _, k := range available() {
		if k.name == name {
			current.Store(&k)
			return nil
		}
	}
	return fmt.Errorf("no gemm kernel %q on this CPU (it has %s)", name, strings.Join(Paths(), ", "))
}
