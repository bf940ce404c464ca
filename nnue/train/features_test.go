package train

import (
	"math/rand/v2"
	"slices"
	"testing"

	"trench/engine/trench"
)

func TestFeaturesOfTheStart(t *testing.T) {
	p := trench.StartPosition()
	var f [maxActive]uint16
	for _, c := range []trench.Color{trench.Black, trench.White} {
		n := features(&p, c, &f)
		if n != maxActive {
			t.Fatalf("%s: %d features at the start, want %d", c, n, maxActive)
		}
		// The start is symmetric under the 180° turn: both sides see
		// their own General on a1 and the other's on h8.
		want := []uint16{4*64 + 0, 320 + 4*64 + 63, 640, 665, 690}
		for _, w := range want {
			if !slices.Contains(f[:n], w) {
				t.Errorf("%s: features %v lack %d", c, f[:n], w)
			}
		}
	}
	q, _ := trench.ParseFEN("8/8/8/8/8/8/8/G6p w 3 30 49 40")
	n := features(&q, trench.White, &f)
	// White's soldier on h1 is 63-7 = 56 from White's side; Black's
	// General on a1 is 63; White's score 30 clamps to 24.
	want := []uint16{0*64 + 56, 320 + 4*64 + 63, 640 + 24, 665 + 3, 690 + 9}
	if !slices.Equal(f[:n], want) {
		t.Errorf("features of %s for White = %v, want %v", q.FEN(), f[:n], want)
	}
}

// TestFeaturesOfMirroredPositions checks that the features of a mirrored
// position are the mirrored features (mirrorTable) of the position.
func TestFeaturesOfMirroredPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var moves []trench.Move
	var f, g [maxActive]uint16
	checked := 0
	for game := 0; game < 10; game++ {
		p := trench.StartPosition()
		for !p.Over() {
			m := p.Mirror()
			for _, c := range []trench.Color{trench.Black, trench.White} {
				n := features(&p, c, &f)
				if k := features(&m, c, &g); k != n {
					t.Fatalf("%s: %d features, mirrored %d", p.FEN(), n, k)
				}
				want := make([]uint16, n)
				for i, x := range f[:n] {
					want[i] = mirrorTable[x]
				}
				slices.Sort(want)
				got := slices.Clone(g[:n])
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s from %s: mirrored features %v, want %v", p.FEN(), c, got, want)
				}
				for _, x := range got {
					if x >= numFeatures {
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
