package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"trench/engine/trench"
)

// TestFeaturesOfMirroredPositions checks that the features of a mirrored
// position are the mirrored features (MirrorFeature) of the position.
func TestFeaturesOfMirroredPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var moves []trench.Move
	var f, g []int32
	checked := 0
	for game := 0; game < 10; game++ {
		p := trench.StartPosition()
		for !p.Over() {
			m := p.Mirror()
			for _, c := range []trench.Color{trench.Black, trench.White} {
				f = Features(&p, c, f)
				g = Features(&m, c, g)
				if len(f) != len(g) {
					t.Fatalf("%s: %d features, mirrored %d", p.FEN(), len(f), len(g))
				}
				want := make([]int32, len(f))
				for i, x := range f {
					want[i] = MirrorFeature(x)
				}
				slices.Sort(want)
				got := slices.Clone(g)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s from %s: mirrored features %v, want %v", p.FEN(), c, got, want)
				}
				for _, x := range got {
					if x >= Inputs {
						t.Fatalf("feature %d out of range", x)
					}
				}
				checked++
			}
			moves = p.GenerateMoves(moves)
			p.Play(moves[r.IntN(len(moves))])
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d positions", checked)
	}
}
