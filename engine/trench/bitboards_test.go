package trench

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// parts returns the arguments of FromBitboards that rebuild p.
func parts(p *Position) ([2][numKinds]uint64, Color, int, int, int, int) {
	var pieces [2][numKinds]uint64
	for c := Black; c <= White; c++ {
		for k := Kind(0); k < numKinds; k++ {
			pieces[c][k] = p.Pieces(c, k)
		}
	}
	return pieces, p.SideToMove(), p.Score(Black), p.Score(White), p.QuietPlies(), p.MoveNumber()
}

func TestFromBitboardsRebuildsGames(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var moves []Move
	for game := 0; game < 20; game++ {
		p := StartPosition()
		for !p.Over() {
			q, err := FromBitboards(parts(&p))
			if err != nil {
				t.Fatalf("FromBitboards(%s): %v", p.FEN(), err)
			}
			if q != p {
				t.Fatalf("FromBitboards rebuilt %s as %s", p.FEN(), q.FEN())
			}
			moves = p.GenerateMoves(moves)
			p.Play(moves[r.IntN(len(moves))])
		}
	}
}

func TestFromBitboardsErrors(t *testing.T) {
	start := StartPosition()
	pieces, _, _, _, _, _ := parts(&start)
	twice := pieces
	twice[White][Soldier] |= 1 // a1 holds Black's General
	many := pieces
	many[Black][General] |= 1 << 20
	tests := []struct {
		pieces                      [2][numKinds]uint64
		side                        Color
		black, white, quiet, number int
		want                        string
	}{
		{pieces, 2, 0, 0, 0, 1, "side to move 2"},
		{twice, Black, 0, 0, 0, 1, "square a1 holds two pieces"},
		{many, Black, 0, 0, 0, 1, "black has 2 generals, more than 1"},
		{pieces, Black, -1, 0, 0, 1, "Black's score -1 is outside 0..36"},
		{pieces, Black, 0, 37, 0, 1, "White's score 37 is outside 0..36"},
		{pieces, Black, 0, 0, 51, 1, "quiet plies 51 is outside 0..50"},
		{pieces, Black, 0, 0, 0, 0, "move number 0 is outside"},
		{pieces, Black, 0, 0, 0, 1 << 16, "move number 65536 is outside"},
		{pieces, Black, 1, 0, 0, 1, "Black's score 1 is more than the 0 points of white pieces"},
	}
	for _, tc := range tests {
		_, err := FromBitboards(tc.pieces, tc.side, tc.black, tc.white, tc.quiet, tc.number)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FromBitboards(…, %d, %d, %d, %d, %d) = %v, want an error containing %q", tc.side, tc.black, tc.white, tc.quiet, tc.number, err, tc.want)
		}
	}
}
