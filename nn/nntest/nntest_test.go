package nntest

import (
	"testing"

	"trench/checkpoints"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// TestNets checks that the same seeds give the same net, that TinyFor
// gives a seat to each player, and that a file reads back as the net.
func TestNets(t *testing.T) {
	a, b := Weights(t, Tiny(t, trench.Game), 1, 2), Weights(t, Tiny(t, trench.Game), 1, 2)
	ca, cb := Checkpoint(t, a, "a"), Checkpoint(t, b, "a")
	if len(ca.Tensors) == 0 || len(ca.Tensors) != len(cb.Tensors) {
		t.Fatalf("%d and %d tensors", len(ca.Tensors), len(cb.Tensors))
	}
	for k, x := range ca.Tensors {
		y := cb.Tensors[k]
		for i := range x.Data {
			if x.Data[i] != y.Data[i] {
				t.Fatalf("tensor %s differs at %d for the same seeds", x.Name, i)
			}
		}
	}
	if c := TinyFor(t, trichess.Game); c.Seats != 3 {
		t.Errorf("Trichess's tiny net has %d seats, want 3", c.Seats)
	}
	path := File(t, a, t.TempDir(), "tiny.tnet")
	ck, err := checkpoints.Load(path)
	if err != nil || ck.Path != path {
		t.Fatalf("Load(%s): %v", path, err)
	}
	if inf := Inference(t, Tiny(t, trench.Game), 1, 2); inf == nil {
		t.Error("no inference")
	}
	run := t.TempDir()
	saved := SaveToRun(t, Tiny(t, trench.Game), run, 7)
	if ck, err := checkpoints.Load(saved); err != nil || ck.Step != 7 || len(ck.Optimizer) == 0 {
		t.Errorf("SaveToRun: %v", err)
	}
}
