package trench

import (
	"math/bits"

	"trench/engine"
)

// The feature planes of a position, seen from the side to move (White's
// view rotated 180°, as in the action encoding), each 8×8 in square-index
// order:
//
//	0-4   the mover's soldiers, sergeants, captains, colonels, general
//	5-9   the opponent's, in the same order
//	10    the trench
//	11    the mover's own territory
//	12    the opponent's territory
//	13    the mover's score / 36
//	14    the opponent's score / 36
//	15    the points the mover still needs to win, (25 - score) / 25
//	16    the same for the opponent
//	17    plies since the last capture / 50
//	18    ones (lets convolutions see the board's edge)
const NumPlanes = 19

// FeatureShape is the shape of the encoded features.
var FeatureShape = engine.Shape{Planes: NumPlanes, Height: 8, Width: 8}

// EncodeFeatures writes the position's NumPlanes×64 features into dst.
func (p *Position) EncodeFeatures(dst []float32) {
	dst = dst[:NumPlanes*64]
	clear(dst)
	me, opp := p.side, p.side.Other()
	plane := func(i int, bb uint64) {
		out := dst[i*64 : i*64+64]
		for ; bb != 0; bb &= bb - 1 {
			s := bits.TrailingZeros64(bb)
			if me == White {
				s = 63 - s
			}
			out[s] = 1
		}
	}
	for k := Kind(0); k < numKinds; k++ {
		plane(int(k), p.pieces[me][k])
		plane(5+int(k), p.pieces[opp][k])
	}
	plane(10, trenchMask)
	plane(11, territoryMask[me])
	plane(12, territoryMask[opp])
	fill := func(i int, v float32) {
		for j := i * 64; j < i*64+64; j++ {
			dst[j] = v
		}
	}
	fill(13, float32(p.score[me])/ArmyPoints)
	fill(14, float32(p.score[opp])/ArmyPoints)
	fill(15, float32(max(WinScore-int(p.score[me]), 0))/WinScore)
	fill(16, float32(max(WinScore-int(p.score[opp]), 0))/WinScore)
	fill(17, float32(p.quiet)/QuietLimit)
	fill(18, 1)
}
