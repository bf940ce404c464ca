package train

import (
	"math/bits"

	"trench/engine/trench"
)

// The net's input features (the contract shared with package nnue, whose
// Features this file mirrors): 700 binary features seen from a
// perspective c,
//
//	rel·320 + kind·64 + orient(c, square)   a piece: rel 0 for c's, 1 for
//	                                        the opponent's; orient(Black,
//	                                        s) = s, orient(White, s) = 63-s
//	640 + min(c's score, 24)
//	665 + min(the opponent's score, 24)
//	690 + min(quiet plies / 5, 9)
const (
	numFeatures = 700
	// maxActive bounds the active features of a perspective: 32 pieces
	// and the three counters.
	maxActive = 35

	scoreFeature      = 640
	otherScoreFeature = 665
	quietFeature      = 690
)

// features writes the active features of p seen from c into dst and
// returns how many there are, pieces first in colour, kind and square
// order.
func features(p *trench.Position, c trench.Color, dst *[maxActive]uint16) int {
	n := 0
	for rel := 0; rel < 2; rel++ {
		col := c
		if rel == 1 {
			col = c.Other()
		}
		for k := trench.Soldier; k <= trench.General; k++ {
			base := uint16(rel*320 + int(k)*64)
			for bb := p.Pieces(col, k); bb != 0; bb &= bb - 1 {
				s := uint16(bits.TrailingZeros64(bb))
				if c == trench.White {
					s = 63 - s
				}
				dst[n] = base + s
				n++
			}
		}
	}
	dst[n] = scoreFeature + uint16(min(p.Score(c), 24))
	dst[n+1] = otherScoreFeature + uint16(min(p.Score(c.Other()), 24))
	dst[n+2] = quietFeature + uint16(min(p.QuietPlies()/5, 9))
	return n + 3
}
