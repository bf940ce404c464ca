package trench

import "math/bits"

// Position is a Trench position: the pieces, the side to move, the scores
// and the counters. It is a small value: copying it is how a move is tried
// (copy-make).
type Position struct {
	pieces [2][numKinds]uint64
	occ    [2]uint64
	hash   uint64
	score  [2]uint8
	// material is the value of each colour's pieces on the board.
	material [2]uint8
	side     Color
	// quiet counts the plies since the last capture.
	quiet uint8
	// moveNumber starts at 1 and goes up after White moves.
	moveNumber uint16
}

// WinScore is the score that wins at once.
const WinScore = 25

// QuietLimit is the number of consecutive plies without a capture that
// ends the game.
const QuietLimit = 50

// ArmyPoints is the value of a whole army.
const ArmyPoints = 36

// StartFEN is the position string of the initial position.
const StartFEN = "4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1"

// StartPosition returns the initial position.
func StartPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("trench: the start position does not parse: " + err.Error())
	}
	return p
}

// SideToMove is the player whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// Score is the points c has captured.
func (p *Position) Score(c Color) int { return int(p.score[c]) }

// QuietPlies is the number of plies since the last capture.
func (p *Position) QuietPlies() int { return int(p.quiet) }

// MoveNumber is the full-move number, starting at 1.
func (p *Position) MoveNumber() int { return int(p.moveNumber) }

// Pieces is the bitboard of c's pieces of kind k.
func (p *Position) Pieces(c Color, k Kind) uint64 { return p.pieces[c][k] }

// Occupied is the bitboard of c's pieces.
func (p *Position) Occupied(c Color) uint64 { return p.occ[c] }

// PieceAt returns the piece on s and true, or false for an empty square.
func (p *Position) PieceAt(s Square) (Color, Kind, bool) {
	bit := uint64(1) << s
	for c := Black; c <= White; c++ {
		if p.occ[c]&bit == 0 {
			continue
		}
		for k := Kind(0); k < numKinds; k++ {
			if p.pieces[c][k]&bit != 0 {
				return c, k, true
			}
		}
	}
	return 0, 0, false
}

// Material is the value of c's pieces on the board.
func (p *Position) Material(c Color) int { return int(p.material[c]) }

// materialFromScratch counts the value of c's pieces on the board.
func (p *Position) materialFromScratch(c Color) int {
	sum := 0
	for k := Kind(0); k < numKinds; k++ {
		sum += bits.OnesCount64(p.pieces[c][k]) * k.Value()
	}
	return sum
}

// put places a piece on an empty square, keeping the hash.
func (p *Position) put(c Color, k Kind, s int) {
	p.pieces[c][k] |= 1 << s
	p.occ[c] |= 1 << s
	p.material[c] += uint8(k.Value())
	p.hash ^= zobristPiece[c][k][s]
}

// decided reports whether the game ended by score or by the quiet-ply rule
// (the third ending, no legal move, needs move generation).
func (p *Position) decided() bool {
	return p.score[Black] >= WinScore || p.score[White] >= WinScore || p.quiet >= QuietLimit
}

// Over reports whether the game has ended: a score of 25, 50 quiet plies,
// or no legal move for the side to move.
func (p *Position) Over() bool { return p.decided() || !p.hasMoves() }

// Winner returns the winner of a finished game, or false for a draw.
func (p *Position) Winner() (Color, bool) {
	switch {
	case p.score[Black] >= WinScore:
		return Black, true
	case p.score[White] >= WinScore:
		return White, true
	case p.score[Black] > p.score[White]:
		return Black, true
	case p.score[White] > p.score[Black]:
		return White, true
	}
	return 0, false
}
