package trench

import "math/bits"

// Zobrist keys. The hash covers the pieces, the side to move and both
// scores; not the quiet-ply count or the move number, so that positions
// reached by different routes share a hash.
var (
	zobristPiece       [2][numKinds][64]uint64
	zobristScore       [2][ArmyPoints + 1]uint64
	zobristBlackToMove uint64
)

func init() {
	// splitmix64 from a fixed seed: the same keys in every build.
	state := uint64(0x7472656e63680001)
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
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
