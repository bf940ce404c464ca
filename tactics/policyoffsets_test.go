package tactics

import (
	"math"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// positions plays the first legal action n times from g's start (or until
// the game ends), keeping every position.
func positions(g engine.Game, n int) []engine.State {
	s := g.Start()
	var out []engine.State
	for range n {
		if s.Over() {
			break
		}
		out = append(out, s.Clone())
		acts := s.LegalActions(nil)
		s.Play(acts[len(acts)/2])
	}
	return out
}

// TestLogits checks that the offsets' exponentials are the capture
// priors, for games with and without material, and that in a game
// without material they stay within the priors' jitter of one another.
func TestLogits(t *testing.T) {
	for _, tc := range []struct {
		g        engine.Game
		material bool
	}{{trench.Game, true}, {trichess.Game, true}, {tictactoe.Game{}, false}} {
		var dst, priors []float32
		for _, s := range positions(tc.g, 30) {
			acts := s.LegalActions(nil)
			dst, priors = PolicyOffsets(s, acts, dst, priors)
			want := CapturePriors(s, acts, nil)
			if len(dst) != len(acts) {
				t.Fatalf("%s, %s: %d offsets for %d actions", tc.g.Name(), s, len(dst), len(acts))
			}
			lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
			for j, o := range dst {
				if got := math.Exp(float64(o)); math.Abs(got-float64(want[j])) > 1e-6 {
					t.Fatalf("%s, %s: e^offset of action %d is %v, want its capture prior %v", tc.g.Name(), s, acts[j], got, want[j])
				}
				lo, hi = min(lo, o), max(hi, o)
			}
			if !tc.material && hi-lo > float32(math.Log(1.5))+1e-6 {
				t.Fatalf("%s, %s: offsets spread over %v without material", tc.g.Name(), s, hi-lo)
			}
		}
	}
}

// TestRow checks a row of training offsets: each legal action's PolicyOffsets
// offset at its place under the symmetry, IllegalOffset elsewhere.
func TestRow(t *testing.T) {
	var sc PolicyScratch
	for _, s := range positions(trench.Game, 20) {
		for sym := range trench.Game.Symmetries() {
			row := make([]float32, trench.Game.ActionCount())
			PolicyOffsetRow(s, sym, row, &sc)
			acts := s.LegalActions(nil)
			want, _ := PolicyOffsets(s, acts, nil, nil)
			legal := map[int]bool{}
			for j, a := range acts {
				at := s.TransformAction(sym, a)
				legal[at] = true
				if row[at] != want[j] {
					t.Fatalf("%s, symmetry %d: offset of action %d at %d is %v, want %v", s, sym, a, at, row[at], want[j])
				}
			}
			for k, o := range row {
				if !legal[k] && o != IllegalOffset {
					t.Fatalf("%s, symmetry %d: entry %d of no legal action is %v, want %v", s, sym, k, o, float32(IllegalOffset))
				}
			}
		}
	}
}

// BenchmarkLogits computes the offsets of a middle-game Trench position,
// as training does for every sample of a batch and search for every
// position it evaluates.
func BenchmarkLogits(b *testing.B) {
	s := positions(trench.Game, 20)[19]
	acts := s.LegalActions(nil)
	var dst, priors []float32
	b.ReportAllocs()
	for b.Loop() {
		dst, priors = PolicyOffsets(s, acts, dst, priors)
	}
}
