package trichess

// Zobrist keys: one per piece on each square, one per side to move, one per
// set of castling rights. The counters are left out, so that positions
// repeat by their hash.
var (
	zobristPiece  [numColors][numKinds][NumSquares]uint64
	zobristSide   [numColors]uint64
	zobristCastle [64]uint64
)

func init() {
	x := uint64(0x7472696368657373) // "trichess"
	next := func() uint64 {
		// splitmix64
		x += 0x9e3779b97f4a7c15
		z := x
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
