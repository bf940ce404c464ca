package trichess

import (
	"strings"
	"testing"

	"trench/engine/trichess"
)

// rotate turns a position string one seat on: White's army becomes
// Red's in Red's section, Red's Black's, Black's White's, and the turn
// and castling rights follow. The geometry is the same under rotation.
func rotate(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Split(fen, " ")
	sec := strings.Split(f[0], "|")
	cas := strings.Split(f[2], ",")
	if len(f) != 5 || len(sec) != 3 || len(cas) != 3 {
		t.Fatalf("cannot rotate %q", fen)
	}
	letters := strings.NewReplacer("w", "r", "r", "b", "b", "w")
	board := letters.Replace(strings.Join([]string{sec[2], sec[0], sec[1]}, "|"))
	return strings.Join([]string{board, letters.Replace(f[1]), strings.Join([]string{cas[2], cas[0], cas[1]}, ","), f[3], f[4]}, " ")
}

// TestEvaluateRotation checks that the evaluation gives each army the
// same value whichever seat it sits in, over the positions of random
// games, and that Paranoid and MaxN agree on their rotations. (BRS+
// does not quite: its opponent who does not search plays the first of
// its equally ordered moves, in the order of the squares.)
func TestEvaluateRotation(t *testing.T) {
	positions := append(randomPositions(t, 150, 2), mustParse(t, BenchPositions[1]))
	for i, p := range positions {
		q := mustParse(t, rotate(t, p.FEN()))
		v, w := Evaluate(&p), Evaluate(&q)
		for c := trichess.White; c <= trichess.Black; c++ {
			if v[c] != w[c.Next()] {
				t.Fatalf("%s: %v; rotated, %v", p.FEN(), v, w)
			}
		}
		if i%15 != 0 {
			continue
		}
		for _, a := range []Algorithm{Paranoid, MaxN} {
			r, _ := newSearcher(t, a).Search(t.Context(), p, Limits{Depth: 2})
			s, _ := newSearcher(t, a).Search(t.Context(), q, Limits{Depth: 2})
			if r.Score != s.Score {
				t.Errorf("%v, %s: score %d, rotated %d", a, p.FEN(), r.Score, s.Score)
			}
		}
	}
}

// TestEvaluate checks the evaluation's parts: equal at the start, the
// leads summing to zero, and material counted at the rules' points.
func TestEvaluate(t *testing.T) {
	p := trichess.StartPosition()
	v := Evaluate(&p)
	if v[0] != v[1] || v[1] != v[2] || v.Leads() != (Values{}) {
		t.Errorf("start: %v, leads %v", v, v.Leads())
	}
	// White has a rook more than each of the others' kings alone.
	q := mustParse(t, "3wR3wK/8/8/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10")
	l := Evaluate(&q).Leads()
	if l[0] < 500 || l[0]+l[1]+l[2] != 0 {
		t.Errorf("a rook up: leads %v", l)
	}
}
