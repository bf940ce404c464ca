package nnue

import (
	"fmt"
	"math"
)

// maxScale bounds the scale of the quantized feature transformer: a
// weight is kept to 1/maxScale at best.
const maxScale = 4096

// quantized is the part of a net the evaluators read, the feature
// transformer in 16-bit integers: a weight w is round(w·scale), so that
// accumulators are exact sums, half the float32's memory, and the same
// whether refreshed or updated in any order. The output weights are
// float32 divided by scale², so that the output of quantized
// accumulators a is Σ clamp(a, 0, scale)²·out, and laid out once for
// each perspective as the mover: out[m] holds, for the accumulators of
// a ply in their order (perspective 0, 1, …), the weights that mover m's
// value gives them, so that one dot product over the ply's accumulators
// is the value.
type quantized struct {
	// scale is the power of two the weights are multiplied by, the
	// largest up to maxScale under which no accumulator of at most
	// MaxActive features overflows.
	scale float32
	ft    []int16
	bias  []int16
	out   [maxPerspectives][]float32
}

// scale is the scale of n's quantized form, or an error if its weights
// are too large for 16-bit accumulators even at scale 1. It assumes n's
// sizes checked.
func (n *Net) scale() (float64, error) {
	fs := n.set()
	bound := accumulatorBound(n.FT, n.FTBias, n.Hidden, fs.MaxActive)
	// Rounding moves each of the bias and at most MaxActive rows by at
	// most a half.
	slack := float64(fs.MaxActive+1) / 2
	scale := float64(maxScale)
	for scale >= 1 && bound*scale+slack > math.MaxInt16 {
		scale /= 2
	}
	if scale < 1 {
		return 0, fmt.Errorf("%s net: accumulators reach %.0f, beyond 16-bit integers", fs.Game, bound)
	}
	return scale, nil
}

// quantize returns n's quantized form, or scale's error. It assumes n's
// sizes checked.
func quantize(n *Net) (*quantized, error) {
	scale, err := n.scale()
	if err != nil {
		return nil, err
	}
	h := n.Hidden
	q := &quantized{
		scale: float32(scale),
		ft:    make([]int16, len(n.FT)),
		bias:  make([]int16, h),
	}
	for i, w := range n.FT {
		q.ft[i] = int16(math.Round(float64(w) * scale))
	}
	for i, w := range n.FTBias {
		q.bias[i] = int16(math.Round(float64(w) * scale))
	}
	// Mover m's value reads perspective c's accumulator with the
	// output's block (c − m) mod perspectives (Net.Out).
	persp := n.set().Perspectives
	for m := range persp {
		q.out[m] = make([]float32, persp*h)
		for c := range persp {
			i := (c - m + persp) % persp
			for j, w := range n.Out[i*h : (i+1)*h] {
				q.out[m][c*h+j] = float32(float64(w) / (scale * scale))
			}
		}
	}
	return q, nil
}

// accumulatorBound is the largest |bias[j]| plus the sum of the k
// largest |ft[f·h+j]| over the features f, over the columns j: a bound on
// any accumulator of at most k features.
func accumulatorBound(ft, bias []float32, h, k int) float64 {
	// Each column keeps its k largest magnitudes in a min-heap; one pass
	// over the rows in memory order.
	heaps := make([]float32, h*k)
	for f := 0; f+h <= len(ft); f += h {
		for j, w := range ft[f : f+h] {
			x := float32(math.Abs(float64(w)))
			hp := heaps[j*k : (j+1)*k]
			if x > hp[0] {
				hp[0] = x
				siftDown(hp)
			}
		}
	}
	var bound float64
	for j, b := range bias {
		s := math.Abs(float64(b))
		for _, x := range heaps[j*k : (j+1)*k] {
			s += float64(x)
		}
		bound = max(bound, s)
	}
	return bound
}

// siftDown restores the min-heap hp after its root changed.
func siftDown(hp []float32) {
	i := 0
	for {
		l := 2*i + 1
		if l >= len(hp) {
			return
		}
		if r := l + 1; r < len(hp) && hp[r] < hp[l] {
			l = r
		}
		if hp[i] <= hp[l] {
			return
		}
		hp[i], hp[l] = hp[l], hp[i]
		i = l
	}
}
