package bench

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"trench/engine/trench"
	"trench/nn"
)

// TestRunPeers compares a tiny Trench net with each peer whose runtime is
// installed, at small batches and for a few milliseconds a figure, and
// checks the report: every row measured on both sides in every round,
// onnxruntime's overhead measured, PyTorch's losses agreeing with the
// project's. A peer whose runtime is missing is skipped with the reason.
func TestRunPeers(t *testing.T) {
	c, err := nn.Preset("tiny", trench.Game.FeatureShape(), trench.Game.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	// Both bases, so that the offsets reach PyTorch's losses too.
	c.ValueBase, c.PolicyBase = nn.ValueBaseMaterial, nn.PolicyBaseCapture
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// Nonzero heads and statistics, so that no layer is left out unseen.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tensor := range w.Tensors {
		for i := range tensor.Data {
			switch {
			case strings.HasSuffix(tensor.Name, "/bn/var"), strings.HasSuffix(tensor.Name, "/bn/scale"):
				tensor.Data[i] = 0.5 + rng.Float32()
			default:
				tensor.Data[i] = float32(rng.NormFloat64()) * 0.2
			}
		}
	}
	for _, peer := range Peers {
		t.Run(peer, func(t *testing.T) {
			var missing *MissingError
			if _, _, err := FindPeers(context.Background(), []string{peer}); errors.As(err, &missing) {
				t.Skipf("%v", err)
			}
			var seen []PeerLine
			r, err := RunPeers(context.Background(), PeerOptions{Game: trench.Game, Weights: w, NetName: "tiny",
				Duration: 5 * time.Millisecond, Batches: []int{1, 4}, TrainBatches: []int{8}, Peers: []string{peer},
				Progress: func(l PeerLine) { seen = append(seen, l) }})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", r)
			want := []string{"training step, batch 8"}
			if peer == PeerONNXRuntime {
				want = []string{"forward pass, batch 1", "forward pass, batch 4"}
				if r.Overhead == nil || len(r.Overhead.Wall) != PeerRounds || !(r.Overhead.Wall[0] > 0) {
					t.Errorf("overhead %+v", r.Overhead)
				}
			} else if !(r.LossDiff <= lossTolerance) {
				t.Errorf("loss difference %v", r.LossDiff)
			}
			if r.Versions[peer] == "" {
				t.Errorf("no version of %s: %v", peer, r.Versions)
			}
			if len(r.Lines) != len(want) || len(seen) != len(want) {
				t.Fatalf("%d lines (%d reported), want %d: %+v", len(r.Lines), len(seen), len(want), r.Lines)
			}
			for i, l := range r.Lines {
				if l.Name != want[i] || l.Peer != peer || len(l.Project.Wall) != PeerRounds || len(l.Other.Wall) != PeerRounds || !(l.Ratio() > 0) {
					t.Errorf("line %d: %+v, want %q measured on both sides", i, l, want[i])
				}
			}
		})
	}
}
