package nnue

// kernels are the vector loops of an Evaluator, in one instruction set.
type kernels struct {
	name string
	// update sets dst to src plus the FT rows of added minus those of
	// removed.
	update func(dst, src, ft []float32, added, removed []int32)
	// dot is the sum of screlu(a[j])·w[j].
	dot func(a, w []float32) float32
}

// refresh sets acc to bias plus the FT rows of feats.
func (k *kernels) refresh(acc, bias, ft []float32, feats []int32) {
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

func updateGeneric(dst, src, ft []float32, added, removed []int32) {
	h := len(dst)
	copy(dst, src[:h])
	for _, f := range added {
		row := ft[int(f)*h : int(f)*h+h]
		for j, w := range row {
			dst[j] += w
		}
	}
	for _, f := range removed {
		row := ft[int(f)*h : int(f)*h+h]
		for j, w := range row {
			dst[j] -= w
		}
	}
}

func dotGeneric(a, w []float32) float32 {
	w = w[:len(a)]
	var s float32
	for j, x := range a {
		s += screlu(x) * w[j]
	}
	return s
}
