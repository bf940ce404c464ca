package bot

import (
	"errors"
	"fmt"
	"os"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trench"
	"trench/excerpt"
	"trench/nn"
)

// DefaultNet is the reference that names the net embedded in the binary.
const DefaultNet = "default"

// Net is a loaded network with where it came from.
type Net struct {
	// Inference is the net's fast forward pass.
	Inference *nn.Inference
	// Source is the file the net was read from, or "embedded default net".
	Source string
	// Step is the checkpoint's training step.
	Step uint64
}

// String describes the net for people, e.g. "ckpt-000200.tnet (step 200, C32 B4 ...)".
func (n *Net) String() string {
	return fmt.Sprintf("%s (step %d, %s)", n.Source, n.Step, n.Inference.Config())
}

// ErrNoDefaultNet is wrapped by LoadNet's error when the default net is
// asked for a game that has none built in (only Trench has one).
var ErrNoDefaultNet = errors.New("no net is built in for this game")

// LoadNet loads the net that ref names for game g:
//
//   - "" or "default": the net embedded in the binary (package shipped),
//     which plays Trench only; for other games the error wraps
//     ErrNoDefaultNet;
//   - a directory: the newest checkpoint of that run directory that
//     loads (newer damaged ones are passed over);
//   - anything else: a checkpoint file.
func LoadNet(g engine.Game, ref string) (*Net, error) {
	var (
		c   *checkpoints.Checkpoint
		err error
	)
	switch {
	case ref == "" || ref == DefaultNet:
		if g.Name() != trench.Game.Name() {
			return nil, fmt.Errorf("%w: %s (train one with trench train --game %s and give its checkpoint or run directory)",
				ErrNoDefaultNet, g.Name(), g.Name())
		}
		c, err = checkpoints.Decode(shipped.Default(), shipped.Name)
	default:
		path := ref
		if fi, statErr := os.Stat(ref); statErr == nil && fi.IsDir() {
			c, _, err = checkpoints.LoadNewest(ref, func(c *checkpoints.Checkpoint) error {
				_, err := nn.WeightsFromCheckpoint(c, g.FeatureShape(), g.ActionCount())
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("net %s: %w", excerpt.Quote(ref), err)
			}
			break
		} else if statErr != nil {
			if errors.Is(statErr, os.ErrNotExist) {
				return nil, fmt.Errorf("net %s: no such checkpoint file or run directory", excerpt.Quote(ref))
			}
			return nil, fmt.Errorf("net %s: %w", excerpt.Quote(ref), statErr)
		}
		c, err = checkpoints.Load(path)
	}
	if err != nil {
		return nil, err
	}
	return NetFromCheckpoint(g, c)
}

// NetFromCheckpoint makes a net for game g from a loaded checkpoint.
func NetFromCheckpoint(g engine.Game, c *checkpoints.Checkpoint) (*Net, error) {
	src := c.Path
	if src == "" {
		src = shipped.Name
	}
	w, err := nn.WeightsFromCheckpoint(c, g.FeatureShape(), g.ActionCount())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	inf, err := nn.NewInference(w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	return &Net{Inference: inf, Source: src, Step: c.Step}, nil
}
