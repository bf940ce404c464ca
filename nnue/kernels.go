package nnue

// kernels are the vector loops of an evaluator, in one instruction set,
// over the quantized feature transformer (quantized).
type kernels struct {
	name string
	// update sets dst to src plus the FT rows of added minus those of
	// removed, in 16-bit integers that wrap: the sum is exact whenever
	// the result is in range, whatever the order.
	update func(dst, src, ft []int16, added, removed []int32)
	// dot is the sum of clamp(a[j], 0, scale)²·w[j].
	dot func(a []int16, w []float32, scale float32) float32
	// width, where not 0, is the vector loops' width: updateWhole and
	// dotWhole are update and dot called straight, without the Go
	// wrapper's tail, on lengths that are multiples of it.
	width       int
	updateWhole updateLoop
	dotWhole    dotLoop
}

// updateLoop is an update's vector loop over the first h columns (a
// multiple of its width), and dotLoop a dot's over the first n values.
type (
	updateLoop func(dst, src, ft *int16, h int, added *int32, nAdded int, removed *int32, nRemoved int)
	dotLoop    func(a *int16, w *float32, n int, scale float32) float32
)

// refresh sets acc to bias plus the FT rows of feats.
func (k *kernels) refresh(acc, bias, ft []int16, feats []int32) {
	k.update(acc, bias, ft, feats, nil)
}

// generic is the pure-Go path, the one every CPU has.
var generic = &kernels{name: "generic", update: updateGeneric, dot: dotGeneric}

// available are the vector paths this CPU can run, fastest first
// (kernels_amd64.go lists them), and best the fastest path.
var (
	available []*kernels
	best      = generic
)

func updateGeneric(dst, src, ft []int16, added, removed []int32) {
	updateColumns(dst, src, ft, 0, added, removed)
}

// updateColumns is updateGeneric on columns from..len(dst)-1 alone, the
// rest of dst untouched: the tail a vector loop leaves.
func updateColumns(dst, src, ft []int16, from int, added, removed []int32) {
	h := len(dst)
	copy(dst[from:], src[from:h])
	for _, f := range added {
		row := ft[int(f)*h+from : int(f)*h+h]
		for j, w := range row {
			dst[from+j] += w
		}
	}
	for _, f := range removed {
		row := ft[int(f)*h+from : int(f)*h+h]
		for j, w := range row {
			dst[from+j] -= w
		}
	}
}

func dotGeneric(a []int16, w []float32, scale float32) float32 {
	w = w[:len(a)]
	var s float32
	for j, x := range a {
		v := min(max(float32(x), 0), scale)
		s += v * v * w[j]
	}
	return s
}
