package trichess

// Move is a move: its from-square, its to-square and, for a liberation, the
// piece chosen. Castling is the king's move of two files (the rook follows).
type Move uint32

// NewMove returns the move from→to with no liberation.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<7 }

// NewLiberation returns the move from→to that frees a piece of kind k.
func NewLiberation(from, to Square, k Kind) Move { return NewMove(from, to) | Move(k+1)<<14 }

// From is the move's from-square.
func (m Move) From() Square { return Square(m & 127) }

// To is the move's to-square.
func (m Move) To() Square { return Square(m >> 7 & 127) }

// Liberation returns the kind freed by the move, and false if it frees
// none.
func (m Move) Liberation() (Kind, bool) {
	l := m >> 14 & 7
	return Kind(l - 1), l != 0
}

// String is the move's notation, e.g. "We2We4" or "Bd2Bd1=Q".
func (m Move) String() string {
	s := m.From().String() + m.To().String()
	if k, ok := m.Liberation(); ok {
		s += "=" + string(k.Letter())
	}
	return s
}

// MaxMoves bounds the number of moves of a position (for buffers; the
// generators append, so it is not a hard limit).
const MaxMoves = 256

// castleClear[s] clears the castling rights lost when a move leaves or
// reaches s.
var castleClear [NumSquares]uint8

func init() {
	for s := range castleClear {
		castleClear[s] = 0xff
	}
	for c := White; c < numColors; c++ {
		castleClear[home(c, 4)] &^= castleBit(c, false) | castleBit(c, true)
		castleClear[home(c, 7)] &^= castleBit(c, false)
		castleClear[home(c, 0)] &^= castleBit(c, true)
	}
}

// genPseudo appends the pseudo-legal moves of the side to move: every
// move by the pieces' geometry, liberations, and castling. With reference
// set, castling follows the reference board's simplified rule (king and
// rook on their home squares, the squares between empty, no attack test);
// otherwise it needs the right and squares not attacked.
func (p *Position) genPseudo(dst []Move, reference bool) []Move {
	me := p.side
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 && pc.color() == me {
			dst = p.genPiece(dst, s, pc.kind())
		}
	}
	return p.genCastling(dst, reference)
}

// genPiece appends the moves of the mover's piece of kind k on s, castling
// aside.
func (p *Position) genPiece(dst []Move, s Square, k Kind) []Move {
	switch k {
	case Pawn:
		dst = p.genPawn(dst, s)
	case Knight:
		dst = p.genLeaps(dst, s, knightTo[s])
	case King:
		dst = p.genLeaps(dst, s, kingTo[s])
	case Bishop, Rook, Queen:
		var seen [2]uint64
		orth, diag := sliderRays(k, s)
		dst = p.genRays(dst, s, orth, &seen)
		dst = p.genRays(dst, s, diag, &seen)
	}
	return dst
}

// sliderRays are the rays a slider of kind k moves along from s: a
// rook's along files and ranks (orth), a bishop's along diagonals (diag),
// a queen's both, rook's first; nil for a kind that does not slide.
func sliderRays(k Kind, s Square) (orth, diag [][]Square) {
	switch k {
	case Rook:
		return rookRays[s], nil
	case Bishop:
		return nil, bishopRays[s]
	case Queen:
		return rookRays[s], bishopRays[s]
	}
	return nil, nil
}

func (p *Position) genLeaps(dst []Move, s Square, to []Square) []Move {
	for _, t := range to {
		if pc := p.board[t]; pc == 0 || pc.color() != p.side {
			dst = append(dst, NewMove(s, t))
		}
	}
	return dst
}

// genRays appends the slides along rays; seen drops a square reached by two
// rays (a diagonal forking around the centre, or a queen's two lines).
func (p *Position) genRays(dst []Move, s Square, rays [][]Square, seen *[2]uint64) []Move {
	for _, ray := range rays {
		for _, t := range ray {
			pc := p.board[t]
			if pc != 0 && pc.color() == p.side {
				break
			}
			if bit := uint64(1) << (t & 63); seen[t>>6]&bit == 0 {
				seen[t>>6] |= bit
				dst = append(dst, NewMove(s, t))
			}
			if pc != 0 {
				break
			}
		}
	}
	return dst
}

func (p *Position) genPawn(dst []Move, s Square) []Move {
	me := p.side
	if t := pawnPush[me][s]; t >= 0 && p.board[t] == 0 {
		dst = p.addPawnMove(dst, s, t)
		if t2 := pawnDouble[me][s]; t2 >= 0 && p.board[t2] == 0 {
			dst = append(dst, NewMove(s, t2))
		}
	}
	for _, t := range pawnCapTo[me][s] {
		if pc := p.board[t]; pc != 0 && pc.color() != me {
			dst = p.addPawnMove(dst, s, t)
		}
	}
	return dst
}

// addPawnMove appends a pawn's move to t, as one liberation per kind its
// owner has captured when t is an opponent's rank 1.
func (p *Position) addPawnMove(dst []Move, s, t Square) []Move {
	me := p.side
	if t.Rank() != 0 || t.Section() == me {
		return append(dst, NewMove(s, t))
	}
	freed := false
	for k := Pawn; k < King; k++ {
		if p.captured(me, k) > 0 {
			dst = append(dst, NewLiberation(s, t, k))
			freed = true
		}
	}
	if !freed {
		dst = append(dst, NewMove(s, t))
	}
	return dst
}

func (p *Position) genCastling(dst []Move, reference bool) []Move {
	me := p.side
	e1 := home(me, 4)
	if p.board[e1] != makePiece(me, King) {
		return dst
	}
	rook := makePiece(me, Rook)
	opp := uint8(1)<<me.Next() | uint8(1)<<me.Prev()
	for _, queen := range []bool{false, true} {
		rookFile, kingTo, lo, hi := 7, 6, 5, 6 // the squares between, lo..hi
		if queen {
			rookFile, kingTo, lo, hi = 0, 2, 1, 3
		}
		if p.board[home(me, rookFile)] != rook || (!reference && !p.CanCastle(me, queen)) {
			continue
		}
		empty := true
		for f := lo; f <= hi; f++ {
			empty = empty && p.board[home(me, f)] == 0
		}
		if !empty {
			continue
		}
		if !reference {
			// The king must not stand in, pass through or land in check.
			pass := home(me, (4+kingTo)/2)
			if p.attacked(e1, opp) || p.attacked(pass, opp) || p.attacked(home(me, kingTo), opp) {
				continue
			}
		}
		dst = append(dst, NewMove(e1, home(me, kingTo)))
	}
	return dst
}

// isCastling reports whether m, a move of a king, is castling.
func isCastling(m Move, c Color) bool {
	f, t := m.From(), m.To()
	return f == home(c, 4) && (t == home(c, 6) || t == home(c, 2))
}

// Play plays m, a pseudo-legal move of the side to move, in place.
func (p *Position) Play(m Move) {
	from, to := m.From(), m.To()
	pc := p.board[from]
	me, k := pc.color(), pc.kind()
	p.hash ^= zobristCastle[p.castling]
	p.quiet++
	if p.board[to] != 0 {
		p.remove(to)
		p.quiet = 0
	}
	p.remove(from)
	switch {
	case k == Pawn:
		p.quiet = 0
		if lib, ok := m.Liberation(); ok {
			k = lib
		}
	case k == King && isCastling(m, me):
		rf, rt := home(me, 7), home(me, 5)
		if to == home(me, 2) {
			rf, rt = home(me, 0), home(me, 3)
		}
		p.remove(rf)
		p.put(me, Rook, rt)
	}
	p.put(me, k, to)
	p.castling &= castleClear[from] & castleClear[to]
	p.hash ^= zobristCastle[p.castling]
	p.hash ^= zobristSide[p.side]
	p.side = p.side.Next()
	p.hash ^= zobristSide[p.side]
	if p.side == White {
		p.moveNumber++
	}
}

// protected reports whether victim is protected from capture in its own
// section by attacker under the non-aggression rule: it has at least 3
// points less on the board.
func (p *Position) protected(victim, attacker Color) bool {
	return int(p.material[victim])+3 <= int(p.material[attacker])
}

// refused reports whether non-aggression forbids m: a capture of a piece of
// a protected player standing in that player's own section, unless after
// it (child) the mover's pieces check that player's king.
func (p *Position) refused(m Move, child *Position) bool {
	pc := p.board[m.To()]
	if pc == 0 {
		return false
	}
	victim := pc.color()
	return m.To().Section() == victim && p.protected(victim, p.side) && !child.checkedBy(victim, p.side)
}

// exposure is what the moves of one position share for judging their
// legality: whether the mover's king is in check, and whether the
// previous player's king is checked by the next player's pieces. When a
// king is not, a move that is not the mover's king's can check it only by
// leaving a square on one of its lines (the moved piece can only block,
// and a capture only removes an attacker), so playLegal tests that king
// only after such moves.
type exposure struct {
	inCheck, shieldChecked bool
}

// anyExposure makes playLegal test both kings after every move.
var anyExposure = exposure{inCheck: true, shieldChecked: true}

// exposure judges p's exposure.
func (p *Position) exposure() exposure {
	me := p.side
	return exposure{inCheck: p.InCheck(me), shieldChecked: p.checkedBy(me.Prev(), me.Next())}
}

// onLine reports whether t is on a rook or bishop ray from s (false when
// s is NoSquare).
func onLine(s, t Square) bool {
	return s >= 0 && lines[s][t>>6]&(1<<(t&63)) != 0
}

// playLegal writes p after the pseudo-legal move m into child and reports
// whether m is legal: the mover's king is not left in check, the previous
// player's king is not put in check by the next player's pieces (the
// shield), and non-aggression does not refuse it. x is p's exposure, or
// anyExposure.
func (p *Position) playLegal(m Move, child *Position, x exposure) bool {
	*child = *p
	child.Play(m)
	me := p.side
	from := m.From()
	// A king's move may castle, which moves a rook too.
	kingMove := p.board[from].kind() == King
	if (x.inCheck || kingMove || onLine(p.king[me], from)) && child.InCheck(me) {
		return false
	}
	prev := me.Prev()
	if (x.shieldChecked || kingMove || onLine(p.king[prev], from)) && child.checkedBy(prev, me.Next()) {
		return false
	}
	return !p.refused(m, child)
}

// IsFat reports whether the last move was an échec et fat: the player who
// moved last checks both other kings with its own pieces. The game ends
// there.
func (p *Position) IsFat() bool {
	last := p.side.Prev()
	return p.checkedBy(p.side, last) && p.checkedBy(p.side.Next(), last)
}

// decided reports whether the game ended without needing move generation:
// an échec et fat, or QuietLimit plies without a capture or a pawn move.
func (p *Position) decided() bool { return p.quiet >= QuietLimit || p.IsFat() }

// GenerateMoves appends the legal moves of the side to move to dst: none
// once the game has ended by échec et fat or the 150-ply rule.
func (p *Position) GenerateMoves(dst []Move) []Move {
	if p.decided() {
		return dst
	}
	return p.legalMoves(dst)
}

// legalMoves appends the legal moves, ignoring whether the game is over.
func (p *Position) legalMoves(dst []Move) []Move {
	var buf [MaxMoves]Move
	var child Position
	x := p.exposure()
	for _, m := range p.genPseudo(buf[:0], false) {
		if p.playLegal(m, &child, x) {
			dst = append(dst, m)
		}
	}
	return dst
}

// genCaptures appends the pseudo-legal moves that take a piece, in
// genPseudo's order: pushes and castling never do.
func (p *Position) genCaptures(dst []Move) []Move {
	me := p.side
	for s := Square(0); s < NumSquares; s++ {
		pc := p.board[s]
		if pc == 0 || pc.color() != me {
			continue
		}
		switch pc.kind() {
		case Pawn:
			for _, t := range pawnCapTo[me][s] {
				if pc := p.board[t]; pc != 0 && pc.color() != me {
					dst = p.addPawnMove(dst, s, t)
				}
			}
		case Knight:
			dst = p.genLeapCaptures(dst, s, knightTo[s])
		case King:
			dst = p.genLeapCaptures(dst, s, kingTo[s])
		case Bishop, Rook, Queen:
			var seen [2]uint64
			orth, diag := sliderRays(pc.kind(), s)
			dst = p.genRayCaptures(dst, s, orth, &seen)
			dst = p.genRayCaptures(dst, s, diag, &seen)
		}
	}
	return dst
}

// genLeapCaptures appends the leaps of genLeaps that take a piece.
func (p *Position) genLeapCaptures(dst []Move, s Square, to []Square) []Move {
	for _, t := range to {
		if pc := p.board[t]; pc != 0 && pc.color() != p.side {
			dst = append(dst, NewMove(s, t))
		}
	}
	return dst
}

// genRayCaptures appends the slides of genRays that take a piece: each
// ray's first piece, if it is an opponent's and no earlier ray stopped on
// its square (only those squares need marking in seen).
func (p *Position) genRayCaptures(dst []Move, s Square, rays [][]Square, seen *[2]uint64) []Move {
	for _, ray := range rays {
		for _, t := range ray {
			pc := p.board[t]
			if pc == 0 {
				continue
			}
			if pc.color() != p.side {
				if bit := uint64(1) << (t & 63); seen[t>>6]&bit == 0 {
					seen[t>>6] |= bit
					dst = append(dst, NewMove(s, t))
				}
			}
			break
		}
	}
	return dst
}

// legalCaptures appends the legal moves that take a piece.
func (p *Position) legalCaptures(dst []Move) []Move {
	var buf [MaxMoves]Move
	var child Position
	moves := p.genCaptures(buf[:0])
	x := anyExposure
	if len(moves) > 2 {
		x = p.exposure()
	}
	for _, m := range moves {
		if p.playLegal(m, &child, x) {
			dst = append(dst, m)
		}
	}
	return dst
}

// hasLegalMove reports whether the side to move has a legal move.
// It tries one piece's moves at a time and stops at the first legal one.
func (p *Position) hasLegalMove() bool {
	var buf [MaxMoves]Move
	var child Position
	me := p.side
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 && pc.color() == me {
			for _, m := range p.genPiece(buf[:0], s, pc.kind()) {
				if p.playLegal(m, &child, anyExposure) {
					return true
				}
			}
		}
	}
	for _, m := range p.genCastling(buf[:0], false) {
		if p.playLegal(m, &child, anyExposure) {
			return true
		}
	}
	return false
}

// PseudoLegalMoves appends the moves of the side to move by the reference
// board's rules: geometry, captures and liberations, castling whenever king
// and rook stand on their home squares with the squares between empty; no
// check, shield or non-aggression filtering.
func (p *Position) PseudoLegalMoves(dst []Move) []Move { return p.genPseudo(dst, true) }

// IsLegal reports whether m is a legal move in p.
func (p *Position) IsLegal(m Move) bool {
	var buf [MaxMoves]Move
	for _, l := range p.GenerateMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}
