package alphabeta

import (
	"math/bits"

	"trench/engine/trench"
)

// Scores are in centipoints: 100 is one point of the game's score.
const (
	// Win is the score of a won position at the root; a win found n plies
	// away scores Win-n, so that shorter wins are preferred.
	Win = 1_000_000
	// winBound separates won and lost scores from evaluations.
	winBound = Win - 10_000
)

// Evaluation weights, in centipoints.
const (
	// scoreWeight values a point already scored; materialWeight a point
	// of own material still on the board (what the opponent can still
	// take). The score decides the game, so it weighs most.
	scoreWeight    = 100
	materialWeight = 20
	// nearWinWeight rewards each point beyond nearWinFrom, where every
	// capture brings the win much closer.
	nearWinFrom   = 15
	nearWinWeight = 25
	// advanceWeight rewards each step a piece stands from its own back
	// corner, per piece kind (soldiers and sergeants lead the advance).
	// trenchWeight rewards a piece in the trench, immune from the front.
	trenchWeight = 12
	// generalExposed is the cost of the General standing in enemy
	// territory; generalGuard rewards each friendly piece next to it.
	generalExposed = 40
	generalGuard   = 4
)

var advanceWeight = [5]int{3, 3, 2, 1, 0}

// Masks of each square's neighbours.
var (
	neighbours [64]uint64
	// advance[c][s] is how far square s is from c's back corner, in
	// vertical steps (file+rank for Black, 14-file-rank for White).
	advance [2][64]int
)

func init() {
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		advance[trench.Black][s] = f + r
		advance[trench.White][s] = 14 - f - r
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				nf, nr := f+df, r+dr
				if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
					neighbours[s] |= 1 << (nr*8 + nf)
				}
			}
		}
	}
}

// Evaluate scores a position that is not over from the side to move's
// point of view, in centipoints: the score difference, the material
// left, the advance of the army, pieces in the trench and the General's
// safety.
func Evaluate(p *trench.Position) int {
	us := p.SideToMove()
	return side(p, us) - side(p, us.Other())
}

// side is one colour's share of the evaluation.
func side(p *trench.Position, c trench.Color) int {
	score := p.Score(c)
	v := scoreWeight*score + materialWeight*p.Material(c)
	if score > nearWinFrom {
		v += nearWinWeight * (score - nearWinFrom)
	}
	own := p.Occupied(c)
	v += trenchWeight * bits.OnesCount64(own&trench.TrenchSquares())
	for k := trench.Soldier; k <= trench.General; k++ {
		w := advanceWeight[k]
		if w == 0 {
			continue
		}
		for bb := p.Pieces(c, k); bb != 0; bb &= bb - 1 {
			v += w * advance[c][bits.TrailingZeros64(bb)]
		}
	}
	if g := p.Pieces(c, trench.General); g != 0 {
		s := bits.TrailingZeros64(g)
		if trench.Territory(c.Other())&g != 0 {
			v -= generalExposed
		}
		v += generalGuard * bits.OnesCount64(neighbours[s]&own)
	}
	return v
}

// terminal scores a finished game from the side to move's view, ply
// plies from the root.
func terminal(p *trench.Position, ply int) int {
	w, ok := p.Winner()
	switch {
	case !ok:
		return 0
	case w == p.SideToMove():
		return Win - ply
	}
	return -Win + ply
}

// decided reports whether the game ended by a winning score or the
// quiet-ply limit (the third ending, no legal move, shows in move
// generation).
func decided(p *trench.Position) bool {
	return p.Score(trench.Black) >= trench.WinScore || p.Score(trench.White) >= trench.WinScore ||
		p.QuietPlies() >= trench.QuietLimit
}
