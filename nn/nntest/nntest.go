// Package nntest makes the tiny nets that tests search, evaluate and
// load: weights of the tiny preset drawn from a fixed seed, as an
// inference, a checkpoint or a checkpoint file. Every helper fails the
// test on an error.
package nntest

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"trench/checkpoints"
	"trench/engine"
	"trench/nn"
)

// Tiny returns the tiny preset for game g's features and actions, with
// a dense policy head and one seat's outcome (nn.Preset).
func Tiny(t testing.TB, g engine.Game) nn.Config {
	t.Helper()
	c, err := nn.Preset("tiny", g.FeatureShape(), g.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TinyFor returns the tiny preset as g lays out its actions
// (nn.PresetFor), with a seat for each of g's players.
func TinyFor(t testing.TB, g engine.Game) nn.Config {
	t.Helper()
	c, err := nn.PresetFor("tiny", g)
	if err != nil {
		t.Fatal(err)
	}
	c.Seats = g.Players()
	return c
}

// Weights draws weights of config c from the generator seeded with seed1
// and seed2 (rand.NewPCG).
func Weights(t testing.TB, c nn.Config, seed1, seed2 uint64) *nn.Weights {
	t.Helper()
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(seed1, seed2)))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Inference returns the fast forward pass of Weights(t, c, seed1, seed2).
func Inference(t testing.TB, c nn.Config, seed1, seed2 uint64) *nn.Inference {
	t.Helper()
	inf, err := nn.NewInference(Weights(t, c, seed1, seed2))
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// Checkpoint returns w as a checkpoint named path (not written).
func Checkpoint(t testing.TB, w *nn.Weights, path string) *checkpoints.Checkpoint {
	t.Helper()
	ck, err := w.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	ck.Path = path
	return ck
}

// File writes w as a checkpoint file called name in dir and returns its
// path.
func File(t testing.TB, w *nn.Weights, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := Checkpoint(t, w, path).Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// SaveToRun writes a net of config c as the checkpoint of step step of
// the run directory run, as trench train saves one (with the optimizer's
// state), its weights drawn from seeds step and 3, and returns its path.
func SaveToRun(t testing.TB, c nn.Config, run string, step uint64) string {
	t.Helper()
	tr, err := nn.NewTrainer(Weights(t, c, step, 3), nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	ck, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	ck.Step = step
	path, err := checkpoints.SaveToRun(run, ck)
	if err != nil {
		t.Fatal(err)
	}
	return path
}
