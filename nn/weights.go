package nn

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"trench/checkpoints"
	"trench/engine"
)

// Weights are a net's parameters and batch-norm running statistics, in
// plain slices named as in a checkpoint ("stem/conv", "block0/1/bn/mean",
// "policy/fc/w", ...). Convolution kernels are (out, in, k, k), dense
// kernels (in, out), everything else a vector.
type Weights struct {
	Config  Config
	Tensors []checkpoints.Tensor
}

// NewWeights returns freshly initialized weights: He-normal kernels, zero
// biases, unit batch-norm scales, and running statistics of mean 0 and
// variance 1. A net with a value base starts with zero WDL and score
// layers, and one with a policy base with a zero policy output layer, so
// that those outputs are exactly their offsets.
func NewWeights(c Config, rng *rand.Rand) (*Weights, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	w := &Weights{Config: c}
	for _, s := range c.specs() {
		t := checkpoints.Tensor{Name: s.name, Shape: slices.Clone(s.shape), Data: make([]float32, s.size())}
		switch s.kind {
		case kindConv, kindDense:
			if c.ValueBase != ValueBaseNone && (s.name == "value/fc2/w" || s.name == "score/fc/w") {
				break
			}
			if c.PolicyBase != PolicyBaseNone && (s.name == "policy/out/conv" || s.name == "policy/fc/w") {
				break
			}
			fanIn := s.size() / s.shape[0]
			if s.kind == kindDense {
				fanIn = s.shape[0]
			}
			std := math.Sqrt(2 / float64(fanIn))
			for i := range t.Data {
				t.Data[i] = float32(rng.NormFloat64() * std)
			}
		case kindBNScale, kindBNVar:
			for i := range t.Data {
				t.Data[i] = 1
			}
		}
		w.Tensors = append(w.Tensors, t)
	}
	return w, nil
}

// Get returns the tensor of that name, or nil.
func (w *Weights) Get(name string) []float32 {
	if t := checkpoints.Find(w.Tensors, name); t != nil {
		return t.Data
	}
	return nil
}

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	out := &Weights{Config: w.Config, Tensors: make([]checkpoints.Tensor, len(w.Tensors))}
	for i, t := range w.Tensors {
		out.Tensors[i] = checkpoints.Tensor{Name: t.Name, Shape: slices.Clone(t.Shape), Data: slices.Clone(t.Data)}
	}
	return out
}

// check verifies that w holds exactly the tensors its config needs.
// where names the source in errors.
func (w *Weights) check(where string) error {
	if err := w.Config.Validate(); err != nil {
		return fmt.Errorf("%s: %w: %v", where, checkpoints.ErrShape, err)
	}
	specs := w.Config.specs()
	if len(specs) != len(w.Tensors) {
		return fmt.Errorf("%s: %w: config %v needs %d tensors, found %d", where, checkpoints.ErrShape, w.Config, len(specs), len(w.Tensors))
	}
	for i, s := range specs {
		t := w.Tensors[i]
		if t.Name != s.name {
			return fmt.Errorf("%s: %w: tensor %d is %q, config %v wants %q", where, checkpoints.ErrShape, i, t.Name, w.Config, s.name)
		}
		if !slices.Equal(t.Shape, s.shape) || len(t.Data) != s.size() {
			return fmt.Errorf("%s: %w: tensor %q has shape %v, config %v wants %v", where, checkpoints.ErrShape, t.Name, t.Shape, w.Config, s.shape)
		}
	}
	return nil
}

// Checkpoint returns a checkpoint holding a copy of w and the config; the
// caller fills in the metadata.
func (w *Weights) Checkpoint() (*checkpoints.Checkpoint, error) {
	if err := w.check("weights"); err != nil {
		return nil, err
	}
	cfg, err := json.Marshal(w.Config)
	if err != nil {
		return nil, err
	}
	return &checkpoints.Checkpoint{Config: cfg, Tensors: w.Clone().Tensors}, nil
}

// WeightsFromCheckpoint extracts the weights of c, checking them against
// the checkpoint's own config and against the input shape and action
// count the caller expects (a zero shape or action count skips that
// check). Mismatches wrap checkpoints.ErrShape. Errors begin with the
// checkpoint's name (checkpoints.Checkpoint.Name).
func WeightsFromCheckpoint(c *checkpoints.Checkpoint, shape engine.Shape, actions int) (*Weights, error) {
	w, where := &Weights{}, c.Name()
	if err := json.Unmarshal(c.Config, &w.Config); err != nil {
		return nil, fmt.Errorf("%s: config: %w: %v", where, checkpoints.ErrCorrupt, err)
	}
	if shape != (engine.Shape{}) && shape != w.Config.Shape {
		return nil, fmt.Errorf("%s: %w: the net reads %d×%d×%d features, the game has %d×%d×%d", where, checkpoints.ErrShape,
			w.Config.Shape.Planes, w.Config.Shape.Height, w.Config.Shape.Width, shape.Planes, shape.Height, shape.Width)
	}
	if actions != 0 && actions != w.Config.Actions {
		return nil, fmt.Errorf("%s: %w: the net has %d actions, the game %d", where, checkpoints.ErrShape, w.Config.Actions, actions)
	}
	w.Tensors = c.Tensors
	if err := w.check(where); err != nil {
		return nil, err
	}
	if err := w.checkFinite(where); err != nil {
		return nil, err
	}
	return w.Clone(), nil
}

// checkFinite verifies that every value of w is finite and every
// batch-norm variance at least 0; a damaged or diverged net fails, naming
// the tensor, with an error wrapping checkpoints.ErrCorrupt. where names
// the source in errors.
func (w *Weights) checkFinite(where string) error {
	for i, s := range w.Config.specs() {
		if err := finite(w.Tensors[i], s.kind == kindBNVar); err != nil {
			return fmt.Errorf("%s: %w: %v", where, checkpoints.ErrCorrupt, err)
		}
	}
	return nil
}

// finite checks that t holds only finite values, and no negative one
// when it is a variance.
func finite(t checkpoints.Tensor, variance bool) error {
	for j, v := range t.Data {
		switch f := float64(v); {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return fmt.Errorf("tensor %q holds %v at index %d", t.Name, v, j)
		case variance && v < 0:
			return fmt.Errorf("tensor %q holds the negative variance %v at index %d", t.Name, v, j)
		}
	}
	return nil
}

// LoadWeights reads the weights of the checkpoint file at path; see
// WeightsFromCheckpoint for the checks.
func LoadWeights(path string, shape engine.Shape, actions int) (*Weights, *checkpoints.Checkpoint, error) {
	c, err := checkpoints.Load(path)
	if err != nil {
		return nil, nil, err
	}
	w, err := WeightsFromCheckpoint(c, shape, actions)
	if err != nil {
		return nil, nil, err
	}
	return w, c, nil
}
