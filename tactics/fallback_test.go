package tactics

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
)

func TestFallbackValues(t *testing.T) {
	// White without its queen: behind by 9 points, each other player
	// ahead by 4.5.
	fen := strings.Replace(trichess.StartFEN, "wRwNwBwQwKwBwNwR", "wRwNwB1wKwBwNwR", 1)
	s, err := trichess.Game.ParseState(fen)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]mcts.Evaluation, 2)
	if err := (Fallback{}).Evaluate([]engine.State{s, trichess.Game.Start()}, out); err != nil {
		t.Fatal(err)
	}
	want := []float32{float32(math.Tanh(-9.0 / MaterialScale)), float32(math.Tanh(4.5 / MaterialScale)), float32(math.Tanh(4.5 / MaterialScale))}
	for p, v := range out[0].Values {
		if math.Abs(float64(v-want[p])) > 1e-6 {
			t.Errorf("player %d's value %v, want %v", p, v, want[p])
		}
	}
	for p, v := range out[1].Values {
		if v != 0 {
			t.Errorf("start: player %d's value %v, want 0", p, v)
		}
	}
	n := len(s.LegalActions(nil))
	var sum float32
	for _, pr := range out[0].Policy {
		sum += pr
	}
	if len(out[0].Policy) != n || math.Abs(float64(sum-1)) > 1e-5 {
		t.Errorf("%d priors summing to %v for %d moves", len(out[0].Policy), sum, n)
	}
	// Captures come first: in a random game's first position with a
	// capture, every capture's prior is above every other move's.
	rng := rand.New(rand.NewPCG(11, 12))
	cur := trichess.Game.Start().(*trichess.State)
	for ply := 0; ; ply++ {
		if ply == 500 || cur.Over() {
			t.Fatal("no capture in a random game")
		}
		var caps, quiet []int
		acts := cur.LegalActions(nil)
		for i, a := range acts {
			m, _ := cur.ActionToMove(a)
			if _, _, took := cur.PieceAt(m.To()); took {
				caps = append(caps, i)
			} else {
				quiet = append(quiet, i)
			}
		}
		if len(caps) == 0 {
			cur.Play(acts[rng.IntN(len(acts))])
			continue
		}
		ev := make([]mcts.Evaluation, 1)
		if err := (Fallback{}).Evaluate([]engine.State{cur}, ev); err != nil {
			t.Fatal(err)
		}
		for _, c := range caps {
			for _, q := range quiet {
				if ev[0].Policy[c] <= ev[0].Policy[q] {
					t.Errorf("capture %s's prior %v is not above %s's %v", cur.ActionString(acts[c]), ev[0].Policy[c], cur.ActionString(acts[q]), ev[0].Policy[q])
				}
			}
		}
		break
	}
	// Games without material get zero values.
	tr := make([]mcts.Evaluation, 1)
	if err := (Fallback{}).Evaluate([]engine.State{trench.Game.Start()}, tr); err != nil {
		t.Fatal(err)
	}
	if len(tr[0].Values) != 2 || tr[0].Values[0] != 0 || tr[0].Values[1] != 0 {
		t.Errorf("Trench values %v, want zeros", tr[0].Values)
	}
}
