// Package train trains the efficiently updatable nets (NNUE) that
// evaluate positions for alpha-beta, in pure Go, for any of package
// nnue's feature sets.
//
// The net (the contract shared with package nnue): a feature set's
// sparse binary input features per perspective (nnue.FeatureSet), a
// first layer of H hidden units shared by all P perspectives, SCReLU
// activation a = clamp(x, 0, 1)², and an output over all perspectives'
// activations. A seat's value reads its own perspective first, then the
// following seats' in the order of play:
//
//	y = a_seat·Out[0:H] + a_next·Out[H:2H] + … + OutBias [+ Σ PSQT[f]]
//
// The bracketed term is the optional linear path: the sum of one weight
// per feature over the seat's own active features, which carries what is
// a sum over the pieces (material) without the hidden units' clamp.
//
// σ(y) predicts the seat's expected result (Trench: win 1, draw 0.5,
// loss 0; Trichess: its points over 3); the search reads y·400 as
// centipoints.
//
// A training example (a Batch's) is a position seen from the P
// perspectives, the mover's first, and one or more outputs to fit:
// output j is the value of the seat j places after the mover, reading
// the perspectives rotated by j. Trench trains the side to move's value,
// Trichess all three seats'. Training fits each output's σ(y) to
// t = λ·result + (1−λ)·σ(score/s), where result and score (the search's,
// in centipoints) are that seat's, minimising mean |σ(y) − t|^p over the
// outputs with AdamW. The accumulators are computed once per example and
// perspective and shared by its outputs. The first layer is sparse: a
// position touches only its active rows, forward and backward. A batch
// is split across threads, each accumulating its own gradient, summed
// in a fixed order: training is deterministic given the seed and the
// number of threads.
package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"trench/nnue"
)

// Batch is the examples of one step, positions of the game of one
// feature set.
type Batch interface {
	// Set is the feature set the examples are seen through.
	Set() *nnue.FeatureSet
	// Len is the number of examples.
	Len() int
	// Outputs is the number of values each example trains, 1 to
	// Set().Perspectives: output j is the value of the seat j places
	// after the side to move in the order of play.
	Outputs() int
	// Features returns example i's active features seen from
	// perspective k (0: the side to move, then the following seats in
	// the order of play), stored in dst[:0].
	Features(i, k int, dst []int32) []int32
	// Target returns what output j of example i is fitted to: the
	// game's result for its seat as an expected result in [0, 1], and
	// the search's score for that seat in centipoints.
	Target(i, j int) (result, score float64)
}

// Schedule names a learning-rate schedule.
type Schedule string

// The learning-rate schedules.
const (
	// StepSchedule multiplies the rate by DropFactor every DropEvery
	// steps (never, if DropEvery is 0).
	StepSchedule Schedule = "step"
	// CosineSchedule lowers the rate from LearningRate to
	// LearningRate·MinFactor along half a cosine over Steps steps, and
	// keeps it there after.
	CosineSchedule Schedule = "cosine"
)

// Config holds the training settings. DefaultConfig gives the defaults.
type Config struct {
	// LearningRate is AdamW's step size at the start (default 1e-3).
	LearningRate float64
	// Beta1, Beta2 and Epsilon are Adam's (defaults 0.9, 0.999, 1e-8).
	Beta1, Beta2, Epsilon float64
	// WeightDecay is AdamW's decoupled weight decay, applied to the
	// weights but not the biases: each step multiplies them by
	// 1 − rate·WeightDecay (default 0.01).
	WeightDecay float64
	// Schedule is the learning-rate schedule (default StepSchedule).
	Schedule Schedule
	// DropEvery and DropFactor set StepSchedule (defaults 0, no drops,
	// and 0.3).
	DropEvery  int
	DropFactor float64
	// Steps and MinFactor set CosineSchedule (Steps must be set; default
	// MinFactor 0.05).
	Steps     int
	MinFactor float64
	// Lambda is the weight of the game's result in the target, the rest
	// going to the search's score (default 0.3).
	Lambda float64
	// ScoreScale s turns a score in centipoints into an expected result,
	// σ(score/s) (default 400, the scale the search reads the net with).
	ScoreScale float64
	// Power p is the loss's exponent, mean |σ(y) − t|^p (default 2).
	Power float64
	// Mirror, if set, mirrors each training position with probability
	// 1/2 by the feature set's Mirror, the game's symmetry (Trench's
	// a1–h8 diagonal), if it has one (default true).
	Mirror bool
	// Threads is the number of goroutines a batch is split across
	// (default 1).
	Threads int
	// Linear gives a fresh net (New) the linear path, its weights
	// starting at 0 (default false). A trainer going on from weights
	// keeps the path they have or lack.
	Linear bool
	// LinearRate multiplies the learning rate of the linear path's
	// weights, which are not decayed (default 20): a feature's weight
	// must travel a few logits, a piece's worth, in a few hundred steps.
	LinearRate float64
}

// DefaultConfig returns the default settings.
func DefaultConfig() Config {
	return Config{
		LearningRate: 1e-3,
		Beta1:        0.9,
		Beta2:        0.999,
		Epsilon:      1e-8,
		WeightDecay:  0.01,
		Schedule:     StepSchedule,
		DropFactor:   0.3,
		MinFactor:    0.05,
		Lambda:       0.3,
		ScoreScale:   400,
		Power:        2,
		Mirror:       true,
		Threads:      1,
		LinearRate:   20,
	}
}

// Validate reports settings that cannot train.
func (c *Config) Validate() error {
	switch {
	case !(c.LearningRate > 0):
		return fmt.Errorf("learning rate %v: want > 0", c.LearningRate)
	case !(c.Beta1 >= 0 && c.Beta1 < 1 && c.Beta2 >= 0 && c.Beta2 < 1):
		return fmt.Errorf("the Adam betas %v, %v: want each in [0, 1)", c.Beta1, c.Beta2)
	case !(c.Epsilon > 0):
		return fmt.Errorf("the Adam epsilon %v: want > 0", c.Epsilon)
	case !(c.WeightDecay >= 0):
		return fmt.Errorf("weight decay %v: want ≥ 0", c.WeightDecay)
	case c.Schedule == StepSchedule && (c.DropEvery < 0 || !(c.DropFactor > 0 && c.DropFactor <= 1)):
		return fmt.Errorf("step schedule: drop every %d steps by %v: want a step count ≥ 0 and a factor in (0, 1]", c.DropEvery, c.DropFactor)
	case c.Schedule == CosineSchedule && (c.Steps <= 0 || !(c.MinFactor >= 0 && c.MinFactor <= 1)):
		return fmt.Errorf("cosine schedule: %d steps down to %v: want steps > 0 and a factor in [0, 1]", c.Steps, c.MinFactor)
	case c.Schedule != StepSchedule && c.Schedule != CosineSchedule:
		return fmt.Errorf("schedule %q: want %q or %q", c.Schedule, StepSchedule, CosineSchedule)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("lambda %v: want a weight in [0, 1]", c.Lambda)
	case !(c.ScoreScale > 0):
		return fmt.Errorf("score scale %v: want > 0", c.ScoreScale)
	case !(c.Power >= 1 && c.Power <= 10):
		return fmt.Errorf("loss power %v: want 1..10", c.Power)
	case c.Threads < 1:
		return fmt.Errorf("threads %d: want at least 1", c.Threads)
	case !(c.LinearRate > 0):
		return fmt.Errorf("linear path's rate factor %v: want > 0", c.LinearRate)
	}
	return nil
}

// rate is the learning rate at step (counting from 0).
func (c *Config) rate(step int) float64 {
	if c.Schedule == CosineSchedule {
		f := math.Min(float64(step)/float64(c.Steps), 1)
		return c.LearningRate * (c.MinFactor + (1-c.MinFactor)*0.5*(1+math.Cos(math.Pi*f)))
	}
	if c.DropEvery == 0 {
		return c.LearningRate
	}
	return c.LearningRate * math.Pow(c.DropFactor, float64(step/c.DropEvery))
}

// Trainer trains one net. It is not safe for concurrent use.
type Trainer struct {
	cfg    Config
	set    *nnue.FeatureSet
	hidden int
	linear bool
	seed   uint64
	pcg    *rand.PCG
	rng    *rand.Rand
	steps  int

	// params, m and v hold every parameter and Adam's moments, in the
	// order FT, FTBias, Out, OutBias and PSQT (see layout); grad the
	// batch's gradient.
	params, m, v, grad []float32
	workers            []*worker
}

// layout returns where each part of the parameters starts, for set and H
// hidden units: FT at 0, then FTBias, Out, OutBias and the linear path's
// PSQT (set.Inputs of them if linear, else none), and the total.
func layout(set *nnue.FeatureSet, h int, linear bool) (ftBias, out, outBias, psqt, total int) {
	ftBias = set.Inputs * h
	out = ftBias + h
	outBias = out + set.Perspectives*h
	psqt = outBias + 1
	total = psqt
	if linear {
		total += set.Inputs
	}
	return ftBias, out, outBias, psqt, total
}

// New returns a trainer for a fresh net of set with hidden units,
// initialised from seed: first-layer weights uniform in ±0.05 and biases
// 0.5, so that with the few dozen active features of a position each
// unit starts well inside (0, 1) where SCReLU has a gradient; output
// weights uniform in ±1/√H; the linear path, if cfg.Linear, at 0.
func New(cfg Config, set *nnue.FeatureSet, hidden int, seed uint64) (*Trainer, error) {
	if hidden < 1 {
		return nil, fmt.Errorf("hidden units %d: want at least 1", hidden)
	}
	if set == nil {
		return nil, errors.New("no feature set")
	}
	w := &nnue.Net{Set: set, Hidden: hidden, FT: make([]float32, set.Inputs*hidden), FTBias: make([]float32, hidden), Out: make([]float32, set.Perspectives*hidden)}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	for i := range w.FT {
		w.FT[i] = float32(0.05 * (2*rng.Float64() - 1))
	}
	for i := range w.FTBias {
		w.FTBias[i] = 0.5
	}
	bound := 1 / math.Sqrt(float64(hidden))
	for i := range w.Out {
		w.Out[i] = float32(bound * (2*rng.Float64() - 1))
	}
	if cfg.Linear {
		w.PSQT = make([]float32, set.Inputs)
	}
	return FromNet(cfg, w, seed)
}

// FromNet returns a trainer that goes on from an existing net (its weights
// are copied), with fresh optimiser state; seed drives the shuffling and
// mirroring.
func FromNet(cfg Config, w *nnue.Net, seed uint64) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if w == nil || w.Set == nil {
		return nil, errors.New("a net of no feature set to train from")
	}
	if err := w.CheckWeights(); err != nil {
		return nil, err
	}
	h, linear := w.Hidden, w.PSQT != nil
	ftBias, out, outBias, psqt, total := layout(w.Set, h, linear)
	pcg := rand.NewPCG(seed, 0x73687566)
	t := &Trainer{
		cfg: cfg, set: w.Set, hidden: h, linear: linear, seed: seed, pcg: pcg,
		rng:    rand.New(pcg),
		params: make([]float32, total), m: make([]float32, total), v: make([]float32, total), grad: make([]float32, total),
	}
	copy(t.params, w.FT)
	copy(t.params[ftBias:], w.FTBias)
	copy(t.params[out:], w.Out)
	t.params[outBias] = w.OutBias
	copy(t.params[psqt:], w.PSQT)
	for range cfg.Threads {
		t.workers = append(t.workers, newWorker(w.Set, h, total))
	}
	return t, nil
}

// Net returns a copy of the net being trained.
func (t *Trainer) Net() *nnue.Net {
	ftBias, out, outBias, psqt, _ := layout(t.set, t.hidden, t.linear)
	p := t.params
	w := &nnue.Net{
		Set:     t.set,
		Hidden:  t.hidden,
		FT:      append([]float32(nil), p[:ftBias]...),
		FTBias:  append([]float32(nil), p[ftBias:out]...),
		Out:     append([]float32(nil), p[out:outBias]...),
		OutBias: p[outBias],
	}
	if t.linear {
		w.PSQT = append([]float32(nil), p[psqt:]...)
	}
	return w
}

// Steps is the number of steps taken.
func (t *Trainer) Steps() int { return t.steps }

// LearningRate is the rate the next step takes.
func (t *Trainer) LearningRate() float64 { return t.cfg.rate(t.steps) }

// Set is the feature set of the net trained.
func (t *Trainer) Set() *nnue.FeatureSet { return t.set }

// Hidden is the number of hidden units of the net being trained.
func (t *Trainer) Hidden() int { return t.hidden }

// Step takes one AdamW step on a batch and returns its mean loss over
// the examples' outputs before the step. Each position is mirrored with
// probability 1/2 if Config.Mirror is set and the feature set has a
// mirror, by a draw fixed by the seed, the step and its place in the
// batch. It panics if the batch is of another feature set.
func (t *Trainer) Step(b Batch) float64 {
	return t.step(examples{b: b})
}

// step takes one step on x.
func (t *Trainer) step(x examples) float64 {
	if x.len() == 0 {
		return 0
	}
	loss := t.run(x, true)
	t.adam()
	t.steps++
	return loss
}

// Epoch shuffles b's examples and takes a step on each batch of
// batchSize of them (the last may be smaller), returning the mean of the
// batches' losses.
func (t *Trainer) Epoch(b Batch, batchSize int) float64 {
	if batchSize < 1 {
		batchSize = b.Len()
	}
	order := t.rng.Perm(b.Len())
	sum, n := 0.0, 0
	for start := 0; start < len(order); start += batchSize {
		sum += t.step(examples{b: b, idx: order[start:min(start+batchSize, len(order))]})
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// ValidationLoss is the mean loss over b's examples' outputs, as they
// are (never mirrored), without training.
func (t *Trainer) ValidationLoss(b Batch) float64 {
	x := examples{b: b}
	if x.len() == 0 {
		return 0
	}
	return t.run(x, false)
}

// examples are the examples of a step: b's examples idx[0], idx[1], …,
// or all of b's in order if idx is nil.
type examples struct {
	b   Batch
	idx []int
}

// len is the number of examples.
func (x examples) len() int {
	if x.idx != nil {
		return len(x.idx)
	}
	return x.b.Len()
}

// at is the index in b of the step's example i.
func (x examples) at(i int) int {
	if x.idx != nil {
		return x.idx[i]
	}
	return i
}

// run computes the mean loss over the examples' outputs across the
// workers and, if train is set, the gradient into t.grad.
func (t *Trainer) run(x examples, train bool) float64 {
	if set := x.b.Set(); set != t.set {
		panic(fmt.Sprintf("train: a batch of %v for a net of %v", set, t.set))
	}
	outs := x.b.Outputs()
	if outs < 1 || outs > t.set.Perspectives {
		panic(fmt.Sprintf("train: a batch of %d outputs for a net of %d perspectives", outs, t.set.Perspectives))
	}
	n := x.len()
	nw := min(len(t.workers), n)
	var wg sync.WaitGroup
	scale := float32(1 / float64(n*outs))
	for i, w := range t.workers[:nw] {
		lo, hi := i*n/nw, (i+1)*n/nw
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(t, x, lo, hi, train, scale)
		}()
	}
	wg.Wait()
	loss := 0.0
	for _, w := range t.workers[:nw] {
		loss += w.loss
	}
	if train {
		copy(t.grad, t.workers[0].grad)
		for _, w := range t.workers[1:nw] {
			g := t.grad[:len(w.grad)]
			for j, x := range w.grad {
				g[j] += x
			}
		}
	}
	return loss / float64(n*outs)
}

// adam applies one AdamW step with t.grad.
func (t *Trainer) adam() {
	c := &t.cfg
	lr := c.rate(t.steps)
	n := float64(t.steps + 1)
	// Bias corrections folded into the step size.
	step := float32(lr * math.Sqrt(1-math.Pow(c.Beta2, n)) / (1 - math.Pow(c.Beta1, n)))
	eps := float32(c.Epsilon * math.Sqrt(1-math.Pow(c.Beta2, n)))
	b1, b2 := float32(c.Beta1), float32(c.Beta2)
	ftBias, out, outBias, psqt, _ := layout(t.set, t.hidden, t.linear)
	decay := float32(1 - lr*c.WeightDecay)
	p, m, v, g := t.params, t.m[:len(t.params)], t.v[:len(t.params)], t.grad[:len(t.params)]
	// The linear path's weights, from psqt on, take a larger step.
	linearStep := step * float32(c.LinearRate)
	for i := range p {
		gi := g[i]
		mi := b1*m[i] + (1-b1)*gi
		vi := b2*v[i] + (1-b2)*gi*gi
		m[i], v[i] = mi, vi
		x, s := p[i], step
		if i < ftBias || i >= out && i < outBias {
			x *= decay
		} else if i >= psqt {
			s = linearStep
		}
		p[i] = x - s*mi/(float32(math.Sqrt(float64(vi)))+eps)
	}
}

// sigmoid is the logistic function.
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// target is the training target of a result and a score:
// λ·result + (1−λ)·σ(score/s).
func (c *Config) target(result, score float64) float64 {
	return c.Lambda*result + (1-c.Lambda)*sigmoid(score/c.ScoreScale)
}

// mirrored reports whether the sample at index i of step's batch is
// mirrored: a hash of the seed, the step and i.
func mirrored(seed uint64, step, i int) bool {
	x := seed ^ uint64(step)*0x9e3779b97f4a7c15 ^ uint64(i)*0xd1b54a32d192ed03
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x&1 != 0
}
