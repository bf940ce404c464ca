package bench

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/nn"
	"trench/nn/nntest"
)

func tinyWeights(t *testing.T, g engine.Game) *nn.Weights {
	return nntest.Weights(t, nntest.Tiny(t, g), 1, 2)
}

// TestRun measures every figure briefly and checks the report: each line
// in order, each value measured, the search shares consistent, and the
// tactical aids' and alphabeta's figures only for Trench.
func TestRun(t *testing.T) {
	common := []string{"SGEMM peak, one core (1024", "fast pass, batch 1,", "fast pass, batch 4,",
		"gorgonia graph inference", "training, batch 256 (gorgonia)", "training, batch 256 (fast)", "search, uniform evaluator",
		"search with the net,", "search with the net: time outside the net",
		"one-tree search with the net, 1 thread", "one-tree search with the net, 2 threads", "self-play"}
	if runtime.GOMAXPROCS(0) > 1 {
		common = slices.Insert(common, slices.Index(common, "search, uniform evaluator"), "training, batch 256 (fast, every core)")
	}
	for i, other := range otherSGEMMs() {
		common = slices.Insert(common, 1+i, "SGEMM peak, one core, "+other.name)
	}
	tests := []struct {
		game engine.Game
		want []string
	}{
		{tictactoe.Game{}, common},
		{trench.Game, append(slices.Insert(slices.Clone(common), slices.Index(common, "one-tree search with the net, 1 thread"),
			"capture search at a leaf", "search with the net and tactical aids"), "alphabeta",
			"alphabeta search, hand evaluation", "alphabeta search, nnue net H=128", "nnue update and evaluation, H=128",
			"alphabeta search, nnue net H=256", "nnue update and evaluation, H=256",
			"tree leaf, the built-in NNUE's value at the leaf", "tree leaf, the built-in NNUE's value after quiescence")},
	}
	for _, tc := range tests {
		t.Run(tc.game.Name(), func(t *testing.T) {
			var seen []Line
			r, err := Run(context.Background(), Options{Game: tc.game, Weights: tinyWeights(t, tc.game), NetName: "tiny",
				Duration: 10 * time.Millisecond, Batches: []int{1, 4}, Progress: func(l Line) { seen = append(seen, l) }})
			if err != nil {
				t.Fatal(err)
			}
			if r.Game != tc.game.Name() || r.Net != "tiny" || r.BLAS != nn.BLAS || !(r.MFLOP > 0) || r.Threads < 1 {
				t.Errorf("header %+v", r)
			}
			if len(r.Lines) != len(tc.want) || len(seen) != len(r.Lines) {
				t.Fatalf("%d lines (%d reported as measured), want %d: %+v", len(r.Lines), len(seen), len(tc.want), r.Lines)
			}
			for i, l := range r.Lines {
				if !strings.HasPrefix(l.Name, tc.want[i]) || !(l.Value > 0) || l.Unit == "" || seen[i] != l {
					t.Errorf("line %d: %+v, want %q with a positive value", i, l, tc.want[i])
				}
			}
			if two := r.Lines[slices.Index(tc.want, "one-tree search with the net, 2 threads")]; !strings.Contains(two.Note, "× one thread") {
				t.Errorf("two threads' line does not compare them with one: %+v", two)
			}
			if share := r.Lines[slices.Index(tc.want, "search with the net: time outside the net")]; share.Unit != "%" || share.Value > 100 {
				t.Errorf("share outside the net: %+v", share)
			}
		})
	}
}

// TestRunBasedNet measures a net with the material value base and the
// capture policy base, as trained nets are: its training steps need the
// bases' offsets, which the gorgonia and fast trainers both check.
func TestRunBasedNet(t *testing.T) {
	c, err := nn.Preset("tiny", trench.Game.FeatureShape(), trench.Game.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	c.ValueBase, c.PolicyBase = nn.ValueBaseMaterial, nn.PolicyBaseCapture
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Game: trench.Game, Weights: w, NetName: "based",
		Duration: time.Millisecond, Batches: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"training, batch 256 (gorgonia)", "training, batch 256 (fast)"}
	if runtime.GOMAXPROCS(0) > 1 {
		names = append(names, "training, batch 256 (fast, every core)")
	}
	for _, name := range names {
		i := slices.IndexFunc(r.Lines, func(l Line) bool { return strings.HasPrefix(l.Name, name) })
		if i < 0 || !(r.Lines[i].Value > 0) {
			t.Errorf("%q: missing or not measured in %+v", name, r.Lines)
		}
	}
}

func TestRunErrors(t *testing.T) {
	w := tinyWeights(t, tictactoe.Game{})
	if _, err := Run(context.Background(), Options{Game: tictactoe.Game{}, Weights: w}); err == nil || !strings.Contains(err.Error(), "duration") {
		t.Errorf("no duration: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Options{Game: tictactoe.Game{}, Weights: w, Duration: time.Second}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v, want context.Canceled", err)
	}
	other := tinyWeights(t, trench.Game)
	if _, err := Run(context.Background(), Options{Game: tictactoe.Game{}, Weights: other, Duration: time.Millisecond}); err == nil {
		t.Error("a Trench net for tic-tac-toe: no error")
	}
}
