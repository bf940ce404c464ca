package trichess

import "trench/engine"

// Zobrist keys: one per piece on each square, one per side to move, one per
// set of castling rights. The counters are left out, so that positions
// repeat by their hash.
var (
	zobristPiece  [numColors][numKinds][NumSquares]uint64
	zobristSide   [numColors]uint64
	zobristCastle [64]uint64
)

func init() {
	next := engine.NewKeys(0x7472696368657373 /* "trichess" */).Next
	for c := range zobristPiece {
		for k := range zobristPiece[c] {
			for s := range zobristPiece[c][k] {
				zobristPiece[c][k][s] = next()
			}
		}
	}
	for c := range zobristSide {
		zobristSide[c] = next()
	}
	for i := 1; i < len(zobristCastle); i++ {
		zobristCastle[i] = next()
	}
	for i := range quietKeys {
		quietKeys[i] = next()
	}
}

// Hash is the position's Zobrist hash: pieces, side to move and castling
// rights.
func (p *Position) Hash() uint64 { return p.hash }

// computeHash computes the hash from scratch.
func (p *Position) computeHash() uint64 {
	h := zobristSide[p.side] ^ zobristCastle[p.castling]
	for s, pc := range p.board {
		if pc != 0 {
			h ^= zobristPiece[pc.color()][pc.kind()][s]
		}
	}
	return h
}
