package trichess

// piece is a square's content: 0 for empty, else 1 + colour*6 + kind.
type piece uint8

func makePiece(c Color, k Kind) piece { return piece(1 + int(c)*numKinds + int(k)) }

// pieceColors and pieceKinds hold each piece's colour and kind, so that
// the hot attack test reads them instead of dividing.
var pieceColors, pieceKinds = func() (cs [1 + numColors*numKinds]Color, ks [1 + numColors*numKinds]Kind) {
	for p := 1; p < len(cs); p++ {
		cs[p], ks[p] = Color((p-1)/numKinds), Kind((p-1)%numKinds)
	}
	return
}()

// color and kind are a non-empty piece's colour and kind.
func (p piece) color() Color { return pieceColors[p] }
func (p piece) kind() Kind   { return pieceKinds[p] }

// Position is a Trichess position: the pieces, the side to move, the
// castling rights and the counters. It is a small value: copying it is how
// a move is tried (copy-make). It does not know the earlier positions, so
// repetition is judged by State.
type Position struct {
	board    [NumSquares]piece
	king     [numColors]Square
	material [numColors]uint8
	count    [numColors][numKinds]uint8
	// castling holds bit 2c for c's king-side right and 2c+1 for its
	// queen-side right.
	castling uint8
	side     Color
	// quiet counts the plies since the last capture or pawn move.
	quiet uint8
	// moveNumber starts at 1 and goes up after Black moves.
	moveNumber uint16
	hash       uint64
}

// QuietLimit is the number of plies without a capture or a pawn move that
// ends the game (as a pat).
const QuietLimit = 150

// StartFEN is the position string of the initial position.
const StartFEN = "wRwNwBwQwKwBwNwR/wPwPwPwPwPwPwPwP/8/8|rRrNrBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w KQ,KQ,KQ 0 1"

// StartPosition returns the initial position.
func StartPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("trichess: the start position does not parse: " + err.Error())
	}
	return p
}

// SideToMove is the player whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// QuietPlies is the number of plies since the last capture or pawn move.
func (p *Position) QuietPlies() int { return int(p.quiet) }

// MoveNumber is the round number, starting at 1.
func (p *Position) MoveNumber() int { return int(p.moveNumber) }

// Ply is the number of plies since the start implied by the move number
// and the side to move.
func (p *Position) Ply() int { return 3*(int(p.moveNumber)-1) + int(p.side) }

// Material is the value of c's pieces on the board.
func (p *Position) Material(c Color) int { return int(p.material[c]) }

// King is c's king square, or NoSquare if it has none.
func (p *Position) King(c Color) Square { return p.king[c] }

// PieceAt returns the piece on s and true, or false for an empty square.
func (p *Position) PieceAt(s Square) (Color, Kind, bool) {
	pc := p.board[s]
	if pc == 0 {
		return 0, 0, false
	}
	return pc.color(), pc.kind(), true
}

// CanCastle reports whether c keeps its king-side (queen false) or
// queen-side right to castle.
func (p *Position) CanCastle(c Color, queen bool) bool {
	return p.castling&castleBit(c, queen) != 0
}

func castleBit(c Color, queen bool) uint8 {
	b := uint8(1) << (2 * c)
	if queen {
		b <<= 1
	}
	return b
}

// captured returns how many pieces of kind k c has off the board: the
// pieces a liberation can bring back.
func (p *Position) captured(c Color, k Kind) int {
	return armyCount[k] - int(p.count[c][k])
}

// put places a piece on an empty square, keeping the hash and counts.
func (p *Position) put(c Color, k Kind, s Square) {
	p.board[s] = makePiece(c, k)
	p.count[c][k]++
	p.material[c] += uint8(k.Value())
	p.hash ^= zobristPiece[c][k][s]
	if k == King {
		p.king[c] = s
	}
}

// remove empties an occupied square, keeping the hash and counts.
func (p *Position) remove(s Square) {
	pc := p.board[s]
	c, k := pc.color(), pc.kind()
	p.board[s] = 0
	p.count[c][k]--
	p.material[c] -= uint8(k.Value())
	p.hash ^= zobristPiece[c][k][s]
	if k == King && p.king[c] == s {
		p.king[c] = NoSquare
	}
}

// attacked reports whether a piece of a colour in the set by (bit c for
// colour c) could capture on s, by geometry alone (as in chess: pins, the
// shield and non-aggression do not stop a piece from giving check).
func (p *Position) attacked(s Square, by uint8) bool {
	if s < 0 {
		return false
	}
	for c := White; c < numColors; c++ {
		if by&(1<<c) == 0 {
			continue
		}
		pawn := makePiece(c, Pawn)
		for _, f := range pawnCapFrom[c][s] {
			if p.board[f] == pawn {
				return true
			}
		}
	}
	for _, f := range knightFrom[s] {
		if pc := p.board[f]; pc != 0 && pc.kind() == Knight && by&(1<<pc.color()) != 0 {
			return true
		}
	}
	for _, f := range kingFrom[s] {
		if pc := p.board[f]; pc != 0 && pc.kind() == King && by&(1<<pc.color()) != 0 {
			return true
		}
	}
	// Rays are reversible (checked by a test), so a slider reaches s
	// exactly when a ray from s reaches it first.
	for _, ray := range rookRays[s] {
		for _, t := range ray {
			if pc := p.board[t]; pc != 0 {
				if k := pc.kind(); (k == Rook || k == Queen) && by&(1<<pc.color()) != 0 {
					return true
				}
				break
			}
		}
	}
	for _, ray := range bishopRays[s] {
		for _, t := range ray {
			if pc := p.board[t]; pc != 0 {
				if k := pc.kind(); (k == Bishop || k == Queen) && by&(1<<pc.color()) != 0 {
					return true
				}
				break
			}
		}
	}
	return false
}

// InCheck reports whether c's king is attacked by either opponent.
func (p *Position) InCheck(c Color) bool {
	return p.attacked(p.king[c], 1<<c.Next()|1<<c.Prev())
}

// checkedBy reports whether c's king is attacked by x's pieces.
func (p *Position) checkedBy(c, x Color) bool { return p.attacked(p.king[c], 1<<x) }
