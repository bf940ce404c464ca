package bench

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
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
// project's. A peer whose runtime is missing is skipped with the reason,
// and the whole test in -short mode (the race detector's run in CI): it
// starts node and python3, seconds each.
func TestRunPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the peers' runtimes")
	}
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

// TestPeerRatio checks the ratio of a row and onnxruntime's time less its
// overhead: best rounds, CPU time when both sides have it, else elapsed.
func TestPeerRatio(t *testing.T) {
	tests := []struct {
		name                string
		project, other      Timing
		ratio, lessOverhead float64
	}{
		{"cpu", Timing{Wall: []float64{4, 3}, CPU: []float64{2, 1}}, Timing{Wall: []float64{9, 8}, CPU: []float64{3, 5}}, 3, 2.5},
		{"no cpu", Timing{Wall: []float64{4, 2}, CPU: []float64{0, 0}}, Timing{Wall: []float64{6, 8}, CPU: []float64{3, 3}}, 3, 2.75},
	}
	overhead := Timing{Wall: []float64{0.5, 1}, CPU: []float64{0.5, 0.7}}
	for _, tc := range tests {
		l := PeerLine{Project: tc.project, Other: tc.other}
		if got := l.Ratio(); got != tc.ratio {
			t.Errorf("%s: ratio %v, want %v", tc.name, got, tc.ratio)
		}
		if got := l.lessOverhead(overhead); got != tc.lessOverhead {
			t.Errorf("%s: less overhead %v, want %v", tc.name, got, tc.lessOverhead)
		}
	}
}

func TestErrorLine(t *testing.T) {
	tests := []struct{ out, want string }{
		{"node:internal/modules/cjs/loader:1210\n  throw err;\nError: Cannot find module 'x'\n", "Error: Cannot find module 'x'"},
		{"no such thing\nmore\n", "no such thing"},
		{"", "exit status 1"},
	}
	for _, tc := range tests {
		if got := errorLine([]byte(tc.out), errors.New("exit status 1")); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestParsePeers(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []string
		err  string
	}{
		{"onnxruntime", []string{"onnxruntime"}, ""},
		{"pytorch,onnxruntime,pytorch", []string{"pytorch", "onnxruntime"}, ""},
		{"onnxruntime,tensorflow", nil, `unknown peer "tensorflow"`},
		{"", nil, `unknown peer ""`},
	} {
		got, err := ParsePeers(tc.list)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePeers(%q) = %v, %v; want an error with %q", tc.list, got, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParsePeers(%q) = %v, %v; want %v", tc.list, got, err, tc.want)
		}
	}
}
