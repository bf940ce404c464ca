package trench

import (
	"fmt"
	"math/bits"
)

// FromBitboards builds a position from its parts: pieces[c][k] is the
// bitboard of colour c's pieces of kind k (Soldier to General), then the
// side to move, each colour's score, the plies since the last capture and
// the move number. It checks what ParseFEN checks (no square held twice,
// no more pieces of a kind than an army has, counters in range, no score
// above the points missing from the other army) and says what is wrong.
func FromBitboards(pieces [2][numKinds]uint64, side Color, blackScore, whiteScore, quiet, moveNumber int) (Position, error) {
	var p Position
	if side > White {
		return p, fmt.Errorf("side to move %d: want %d (Black) or %d (White)", side, Black, White)
	}
	var all uint64
	for c := Black; c <= White; c++ {
		for k := Kind(0); k < numKinds; k++ {
			bb := pieces[c][k]
			if bb&all != 0 {
				return Position{}, fmt.Errorf("square %s holds two pieces", Square(bits.TrailingZeros64(bb&all)))
			}
			if n := bits.OnesCount64(bb); n > armyCount[k] {
				return Position{}, fmt.Errorf("%s has %d %ss, more than %d", c, n, k, armyCount[k])
			}
			all |= bb
			for ; bb != 0; bb &= bb - 1 {
				p.put(c, k, bits.TrailingZeros64(bb))
			}
		}
	}
	nums := [4]int{blackScore, whiteScore, quiet, moveNumber}
	names := [4]string{"Black's score", "White's score", "quiet plies", "move number"}
	limits := [4][2]int{{0, ArmyPoints}, {0, ArmyPoints}, {0, QuietLimit}, {1, 1<<16 - 1}}
	for i, n := range nums {
		if n < limits[i][0] || n > limits[i][1] {
			return Position{}, fmt.Errorf("%s %d is outside %d..%d", names[i], n, limits[i][0], limits[i][1])
		}
	}
	for c := Black; c <= White; c++ {
		if lost := ArmyPoints - p.Material(c.Other()); nums[c] > lost {
			return Position{}, fmt.Errorf("%s %d is more than the %d points of %s pieces missing from the board", names[c], nums[c], lost, c.Other())
		}
	}
	p.side = side
	p.score[Black], p.score[White] = uint8(blackScore), uint8(whiteScore)
	p.quiet, p.moveNumber = uint8(quiet), uint16(moveNumber)
	p.hash = p.computeHash()
	return p, nil
}
