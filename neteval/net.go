package neteval

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/internal/excerpt"
	"trench/nn"
)

// Net is a loaded network with where it came from.
type Net struct {
	// Weights are the checkpoint's weights.
	Weights *nn.Weights
	// Inference is the net's fast forward pass.
	Inference *nn.Inference
	// Source is the file the net was read from, or the built-in net's name.
	Source string
	// Step is the checkpoint's training step.
	Step uint64
	// Passed lists the newer checkpoints of a run directory that did not
	// load and were passed over, newest first; WarnPassed tells people.
	Passed []checkpoints.Unloadable
}

// String describes the net for people, e.g. "ckpt-000200.tnet (step 200, C32 B4 ...)".
func (n *Net) String() string {
	return fmt.Sprintf("%s (step %d, %s)", n.Source, n.Step, n.Inference.Config())
}

// WarnPassed writes a warning to w for each checkpoint in Passed, naming
// the file and why it did not load.
func (n *Net) WarnPassed(w io.Writer) {
	for _, p := range n.Passed {
		why := strings.TrimPrefix(p.Err.Error(), p.Path+": ")
		fmt.Fprintf(w, "warning: passing over %s, which does not load (%s); using %s\n", p.Path, why, n.Source)
	}
}

// ErrNoDefaultNet is wrapped by LoadNet's error when the default net is
// asked for a game that has none built in.
var ErrNoDefaultNet = errors.New("no net is built in for this game")

// LoadNet loads the net that ref names for game g, checking that it was
// made for g; every command and package that plays, searches or measures
// with a net loads it here. ref is
//
//   - "" or shipped.Ref: the net built into the binary for g (its plug-in's
//     DefaultNet); for a game without one the error wraps
//     ErrNoDefaultNet;
//   - a directory: the newest checkpoint of that run directory that
//     loads; newer ones that do not are passed over and listed in
//     Net.Passed;
//   - anything else: a checkpoint file.
//
// Errors name the reference or the file at fault.
func LoadNet(g engine.Game, ref string) (*Net, error) {
	if ref == "" || ref == shipped.Ref {
		p := games.Of(g)
		if p == nil || p.DefaultNet == nil {
			return nil, fmt.Errorf("%w: %s (train one with trench train --game %s and give its checkpoint or run directory)",
				ErrNoDefaultNet, g.Name(), g.Name())
		}
		c, err := checkpoints.Decode(p.DefaultNet.Data(), p.DefaultNet.Name)
		if err != nil {
			return nil, err
		}
		return NetFromCheckpoint(g, c)
	}
	fi, err := os.Stat(ref)
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("net %s: no such checkpoint file or run directory", excerpt.Quote(ref))
	case errors.As(err, &pathErr):
		return nil, fmt.Errorf("net %s: %w", excerpt.Quote(ref), pathErr.Err)
	case err != nil:
		return nil, fmt.Errorf("net %s: %w", excerpt.Quote(ref), err)
	case fi.IsDir():
		var net *Net
		_, passed, err := checkpoints.LoadNewest(ref, func(c *checkpoints.Checkpoint) (err error) {
			net, err = NetFromCheckpoint(g, c)
			return err
		})
		if err != nil {
			return nil, err // it names the run directory or its newest checkpoint
		}
		net.Passed = passed
		return net, nil
	}
	c, err := checkpoints.Load(ref)
	if err != nil {
		return nil, err
	}
	return NetFromCheckpoint(g, c)
}

// NetFromCheckpoint makes a net for game g from a loaded checkpoint (for
// one that did not come from a file, such as a checkpoint received over
// the network); LoadNet reads the checkpoint first.
func NetFromCheckpoint(g engine.Game, c *checkpoints.Checkpoint) (*Net, error) {
	src := c.Name()
	w, err := nn.WeightsFromCheckpoint(c, g.FeatureShape(), g.ActionCount())
	if err != nil {
		return nil, err // it names src
	}
	inf, err := nn.NewInference(w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	return &Net{Weights: w, Inference: inf, Source: src, Step: c.Step}, nil
}
