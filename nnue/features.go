package nnue

import (
	"math/bits"

	"trench/engine/trench"
)

// Inputs is the number of Trench's features (Features).
const Inputs = 700

// The feature blocks: the pieces (2 owners × 5 kinds × 64 squares), each
// player's score and the quiet-ply bucket.
const (
	ownScoreBase  = 640
	oppScoreBase  = 665
	quietBase     = 690
	maxScore      = 24
	quietBucket   = 5
	maxQuietIndex = 9
	// MaxActive bounds the active features of one perspective: 32
	// pieces, two scores and the quiet bucket.
	MaxActive = 35
)

// orient is square s as perspective c sees it: unchanged for Black,
// turned 180° (s -> 63-s) for White. Turning the board with the colours
// swapped maps the start position to itself, so both players see their
// own army from the same corner.
func orient(c trench.Color, s int) int {
	if c == trench.White {
		return 63 - s
	}
	return s
}

// pieceFeature is the feature of a piece of colour pc and kind k on
// square s, seen from perspective c.
func pieceFeature(c, pc trench.Color, k trench.Kind, s int) int32 {
	rel := 0
	if pc != c {
		rel = 1
	}
	return int32(rel*320 + int(k)*64 + orient(c, s))
}

// whiteView is piece feature f of Black's perspective as White's
// perspective sees it: the owner's rel flipped (320 is 5·64) and the
// square turned (63−s is s^63).
func whiteView(f int32) int32 {
	return (f+320)%640 ^ 63
}

// scoreFeatures are the features of scores own and opp (0..24 after
// clamping) from the perspective whose score is own.
func scoreFeatures(own, opp int) (int32, int32) {
	return int32(ownScoreBase + min(own, maxScore)), int32(oppScoreBase + min(opp, maxScore))
}

// quietFeature is the feature of a quiet-ply count.
func quietFeature(quiet int) int32 {
	return int32(quietBase + min(quiet/quietBucket, maxQuietIndex))
}

// Features appends to dst[:0] the active features of p seen from
// perspective c, in ascending order, and returns it:
//
//   - a piece: rel*320 + kind*64 + orient(c, square), where rel is 0 for
//     c's pieces and 1 for the opponent's, kind is trench.Kind (Soldier 0
//     to General 4), and orient(Black, s) = s, orient(White, s) = 63-s;
//   - 640 + c's score and 665 + the opponent's score, each clamped to 24;
//   - 690 + min(quiet plies / 5, 9).
func Features(p *trench.Position, c trench.Color, dst []int32) []int32 {
	dst = dst[:0]
	for _, pc := range [2]trench.Color{c, c.Other()} {
		for k := trench.Soldier; k <= trench.General; k++ {
			bb := p.Pieces(pc, k)
			if c == trench.Black {
				for ; bb != 0; bb &= bb - 1 {
					dst = append(dst, pieceFeature(c, pc, k, bits.TrailingZeros64(bb)))
				}
				continue
			}
			for ; bb != 0; bb &^= 1 << (63 - bits.LeadingZeros64(bb)) {
				dst = append(dst, pieceFeature(c, pc, k, 63-bits.LeadingZeros64(bb)))
			}
		}
	}
	own, opp := scoreFeatures(p.Score(c), p.Score(c.Other()))
	return append(dst, own, opp, quietFeature(p.QuietPlies()))
}

// mirrored maps each feature through the file↔rank mirror
// (trench.Position.Mirror); the counters map to themselves.
var mirrored [Inputs]int32

func init() {
	for f := range mirrored {
		x := int32(f)
		if x < ownScoreBase {
			s := x % 64
			x = x - s + (s&7)*8 + s>>3
		}
		mirrored[f] = x
	}
}

// MirrorFeature is feature f of a position as seen in the position
// mirrored across the a1–h8 diagonal: the same piece on the mirrored
// square, the counters unchanged. Both orientations map the diagonal to
// itself, so the mirror is the same from either perspective.
func MirrorFeature(f int32) int32 { return mirrored[f] }
