package nnue

import (
	"fmt"
	"math"
	"math/rand/v2"

	"trench/engine/trench"
)

// Limits of the hidden layer's size.
const (
	MinHidden = 16
	MaxHidden = 1024
)

// EvalScale converts the net's output, a logit, to the search's
// centipoints (100 = one game point): round(y·EvalScale).
const EvalScale = 400

// MaxEval bounds the evaluation in centipoints, well inside the search's
// scores of won and lost positions.
const MaxEval = 100_000

// Net is the efficiently updatable net's weights, as float32.
type Net struct {
	// Set is the feature set the net reads; nil is Trench's.
	Set *FeatureSet
	// Hidden is H, the number of hidden units per perspective.
	Hidden int
	// FT is the feature transformer's weights, Set.Inputs rows of
	// Hidden: row f, FT[f*Hidden : (f+1)*Hidden], is feature f's.
	FT []float32
	// FTBias is the accumulators' bias, Hidden values.
	FTBias []float32
	// Out is the output weights, Set.Perspectives·Hidden: the first
	// Hidden multiply the activations of the perspective whose value
	// is computed (the side to move's), the next Hidden those of the
	// perspective after it in the order of play, and so on.
	Out []float32
	// OutBias is the output's bias.
	OutBias float32
	// PSQT is the linear path's weights, one a feature, or nil for a
	// net without it: a seat's value adds the PSQT weights of the
	// features its own perspective has active, so that what is a sum
	// over the pieces (material) needs no hidden unit to carry it.
	PSQT []float32
}

// New returns a Trench net of hidden units with small random weights
// drawn from seed: a starting point for training, and a stand-in for
// speed measurements.
func New(hidden int, seed uint64) (*Net, error) { return Trench.New(hidden, seed) }

// New returns a net of the set with hidden units and small random
// weights drawn from seed.
func (fs *FeatureSet) New(hidden int, seed uint64) (*Net, error) {
	if hidden < MinHidden || hidden > MaxHidden {
		return nil, fmt.Errorf("nnue: hidden size must be %d..%d, got %d", MinHidden, MaxHidden, hidden)
	}
	r := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	n := &Net{
		Set:    fs,
		Hidden: hidden,
		FT:     make([]float32, fs.Inputs*hidden),
		FTBias: make([]float32, hidden),
		Out:    make([]float32, fs.Perspectives*hidden),
	}
	// About MaxActive features are active: keep each accumulator's
	// spread near 0.5, across SCReLU's bend.
	ft := float32(0.5 / math.Sqrt(float64(fs.MaxActive)))
	for i := range n.FT {
		n.FT[i] = ft * float32(r.NormFloat64())
	}
	for i := range n.FTBias {
		n.FTBias[i] = 0.25 + 0.1*float32(r.NormFloat64())
	}
	out := float32(1 / math.Sqrt(float64(fs.Perspectives*hidden)))
	for i := range n.Out {
		n.Out[i] = out * float32(r.NormFloat64())
	}
	return n, nil
}

// FeatureSet is the set of features the net reads.
func (n *Net) FeatureSet() *FeatureSet { return n.set() }

// Check reports a net this build cannot evaluate: of an unknown feature
// set, with a hidden size outside MinHidden..MaxHidden, that
// CheckWeights refuses, or whose weights are too large for the
// evaluators' 16-bit accumulators.
func (n *Net) Check() error { return n.check() }

// set is the net's feature set.
func (n *Net) set() *FeatureSet {
	if n.Set == nil {
		return Trench
	}
	return n.Set
}

// checkSet reports a net that is not of set fs, or that checkSizes
// refuses (the evaluators then quantize it, which checks its scale).
func (n *Net) checkSet(fs *FeatureSet) error {
	if got := n.set(); got != fs {
		return fmt.Errorf("a %s net, not a %s one", got, fs)
	}
	return n.checkSizes()
}

// check reports a net that checkSizes refuses or that cannot be
// quantized (scale).
func (n *Net) check() error {
	if err := n.checkSizes(); err != nil {
		return err
	}
	_, err := n.scale()
	return err
}

// checkSizes reports a net whose feature set is not this build's, whose
// hidden size is outside MinHidden..MaxHidden, or that CheckWeights
// refuses.
func (n *Net) checkSizes() error {
	h, fs := n.Hidden, n.set()
	if featureSet(fs.ID) != fs {
		return fmt.Errorf("feature set %s is not one of this build's", fs)
	}
	if h < MinHidden || h > MaxHidden {
		return fmt.Errorf("hidden size %d is not in %d..%d", h, MinHidden, MaxHidden)
	}
	return n.CheckWeights()
}

// CheckWeights reports a net whose weight counts disagree with its
// feature set and hidden size, or whose weights are not all finite. It
// takes any hidden size from 1, as the trainer does (so that tests can
// train tiny nets); the evaluators also want MinHidden..MaxHidden.
func (n *Net) CheckWeights() error {
	h, fs := n.Hidden, n.set()
	if h < 1 {
		return fmt.Errorf("hidden size %d, want at least 1", h)
	}
	psqt := 0
	if n.PSQT != nil {
		psqt = fs.Inputs
	}
	for _, t := range []struct {
		name string
		w    []float32
		want int
	}{{"FT", n.FT, fs.Inputs * h}, {"FTBias", n.FTBias, h}, {"Out", n.Out, fs.Perspectives * h}, {"OutBias", []float32{n.OutBias}, 1}, {"PSQT", n.PSQT, psqt}} {
		if len(t.w) != t.want {
			return fmt.Errorf("%s net: %s has %d weights, want %d for hidden size %d", fs.Game, t.name, len(t.w), t.want, h)
		}
		for i, v := range t.w {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s[%d] is %v, not a finite number", t.name, i, v)
			}
		}
	}
	return nil
}

// screlu is the activation: clamp(x, 0, 1)².
func screlu(x float32) float32 {
	x = min(max(x, 0), 1)
	return x * x
}

// Evaluate computes the output of n, a Trench net, for p from scratch:
// a logit, σ(y) the side to move's predicted chance of winning. It is
// the reference that Evaluator's incremental computation is tested
// against.
func (n *Net) Evaluate(p *trench.Position) float32 {
	var feats [MaxActive]int32
	us := p.SideToMove()
	y := n.OutBias
	for i, c := range [2]trench.Color{us, us.Other()} {
		fs := Features(p, c, feats[:0])
		if i == 0 {
			y += n.linear(fs)
		}
		acc := n.sum(fs)
		w := n.Out[i*n.Hidden : (i+1)*n.Hidden]
		for j, a := range acc {
			y += screlu(a) * w[j]
		}
	}
	return y
}

// linear is the linear path's part of a value: the sum of the PSQT
// weights of feats, in their order (0 for a net without it).
func (n *Net) linear(feats []int32) float32 {
	var y float32
	if n.PSQT != nil {
		for _, f := range feats {
			y += n.PSQT[f]
		}
	}
	return y
}

// sum is the bias plus the FT rows of feats, summed in their order.
func (n *Net) sum(feats []int32) []float32 {
	acc := append([]float32(nil), n.FTBias...)
	for _, f := range feats {
		row := n.FT[int(f)*n.Hidden : (int(f)+1)*n.Hidden]
		for j, w := range row {
			acc[j] += w
		}
	}
	return acc
}

// Centipoints converts the net's output to the search's evaluation:
// round(y·EvalScale) within ±MaxEval.
func Centipoints(y float32) int {
	v := float64(y) * EvalScale
	switch {
	case v != v:
		return 0
	case v > MaxEval:
		return MaxEval
	case v < -MaxEval:
		return -MaxEval
	}
	return int(math.Round(v))
}
