package trench

import (
	"math/bits"

	"trench/engine"
)

// Zobrist keys. The hash covers the pieces, the side to move and both
// scores; not the quiet-ply count or the move number, so that positions
// reached by different routes share a hash.
var (
	zobristPiece       [2][numKinds][64]uint64
	zobristScore       [2][ArmyPoints + 1]uint64
	zobristBlackToMove uint64
)

func init() {
	next := engine.NewKeys(0x7472656e63680001).Next
	for c := range zobristPiece {
		for k := range zobristPiece[c] {
			for s := range zobristPiece[c][k] {
				zobristPiece[c][k][s] = next()
			}
		}
	}
	for c := range zobristScore {
		for s := range zobristScore[c] {
			zobristScore[c][s] = next()
		}
	}
	zobristBlackToMove = next()
	for i := range quietKeys {
		quietKeys[i] = next()
	}
}

// computeHash computes the Zobrist hash from scratch.
func (p *Position) computeHash() uint64 {
	var h uint64
	for c := range p.pieces {
		for k := range p.pieces[c] {
			for bb := p.pieces[c][k]; bb != 0; bb &= bb - 1 {
				h ^= zobristPiece[c][k][bits.TrailingZeros64(bb)]
			}
		}
		h ^= zobristScore[c][p.score[c]]
	}
	if p.side == Black {
		h ^= zobristBlackToMove
	}
	return h
}

// Hash is the position's Zobrist hash.
func (p *Position) Hash() uint64 { return p.hash }
