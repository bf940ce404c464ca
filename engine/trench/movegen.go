package trench

import "math/bits"

// Move is a move from one square to another on a straight line. What it
// captures follows from the position: every enemy piece on its route up to
// and including the destination (more than one only for a full-reach move
// out of the trench).
type Move uint16

// NewMove returns the move between two squares.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// From is the square the piece leaves.
func (m Move) From() Square { return Square(m & 63) }

// To is the square the piece stops on.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// String is the move's notation, from-square then to-square, e.g. "d4e4".
func (m Move) String() string { return m.From().String() + m.To().String() }

// MaxMoves bounds the number of legal moves of any position.
const MaxMoves = 256

// targets returns the squares a piece of colour c and kind k on square
// from may stop on when moving in direction d. All trench rules apply.
func (p *Position) targets(c Color, k Kind, from, d int) uint64 {
	route := reach[k][d][from]
	if route == 0 {
		return 0
	}
	occ := p.occ[Black] | p.occ[White]
	if trenchMask&(1<<from) != 0 {
		if d >= dirSE || backDirs[c]&(1<<d) != 0 {
			// Along the trench (no enfilade) or back into its own
			// territory (blindsided): no capture, stopped by any piece.
			if blk := route & occ; blk != 0 {
				route &^= beyond(d, nearest(blk, d))
			}
			return route
		}
		// Full reach into enemy territory: stopped only by a friend.
		if blk := route & p.occ[c]; blk != 0 {
			route &^= beyond(d, nearest(blk, d))
		}
		return route
	}
	blk := route & occ
	if blk == 0 {
		return route
	}
	b := nearest(blk, d)
	route &^= beyond(d, b)
	bit := uint64(1) << b
	if p.occ[c.Other()]&bit != 0 && (trenchMask&bit == 0 || territoryMask[c.Other()]&(1<<from) != 0) {
		// An enemy outside the trench, or one in the trench attacked
		// from behind (from its own territory).
		route |= bit
	}
	return route
}

// captureTargets returns the squares of targets(c, k, from, d) where the
// move takes at least one enemy piece.
func (p *Position) captureTargets(c Color, k Kind, from, d int) uint64 {
	route := reach[k][d][from]
	enemy := p.occ[c.Other()]
	if route&enemy == 0 {
		return 0
	}
	if trenchMask&(1<<from) != 0 {
		if d >= dirSE || backDirs[c]&(1<<d) != 0 {
			return 0
		}
		// Full reach: every stop at or past the first enemy on the
		// route, up to the first friend.
		if blk := route & p.occ[c]; blk != 0 {
			route &^= beyond(d, nearest(blk, d))
		}
		if e := route & enemy; e != 0 {
			return route & beyond(d, nearest(e, d))
		}
		return 0
	}
	blk := route & (p.occ[c] | enemy)
	if blk == 0 {
		return 0
	}
	b := nearest(blk, d)
	bit := uint64(1) << b
	if enemy&bit != 0 && (trenchMask&bit == 0 || territoryMask[c.Other()]&(1<<from) != 0) {
		return bit
	}
	return 0
}

// CaptureValue is the points of the enemy pieces a legal move m takes.
func (p *Position) CaptureValue(m Move) int {
	captured := p.Captured(m)
	if captured == 0 {
		return 0
	}
	enemy := p.side.Other()
	sum := 0
	for k := Kind(0); k < numKinds; k++ {
		sum += bits.OnesCount64(p.pieces[enemy][k]&captured) * k.Value()
	}
	return sum
}

// GenerateMoves appends the legal moves to dst[:0] and returns it. A
// finished game has none.
func (p *Position) GenerateMoves(dst []Move) []Move {
	dst = dst[:0]
	if p.decided() {
		return dst
	}
	c := p.side
	for k := Kind(0); k < numKinds; k++ {
		for bb := p.pieces[c][k]; bb != 0; bb &= bb - 1 {
			from := bits.TrailingZeros64(bb)
			for _, d := range pieceDirs[c][k] {
				for t := p.targets(c, k, from, d); t != 0; t &= t - 1 {
					dst = append(dst, NewMove(Square(from), Square(bits.TrailingZeros64(t))))
				}
			}
		}
	}
	return dst
}

// GenerateCaptures appends the legal moves that take at least one enemy
// piece to dst[:0] and returns it: GenerateMoves's captures, in its
// order. A finished game has none.
func (p *Position) GenerateCaptures(dst []Move) []Move {
	dst = dst[:0]
	if p.decided() {
		return dst
	}
	c := p.side
	enemy := p.occ[c.Other()]
	for k := Kind(0); k < numKinds; k++ {
		for bb := p.pieces[c][k]; bb != 0; bb &= bb - 1 {
			from := bits.TrailingZeros64(bb)
			if pieceReach[c][k][from]&enemy == 0 {
				continue
			}
			for _, d := range pieceDirs[c][k] {
				if reach[k][d][from]&enemy == 0 {
					continue
				}
				for t := p.captureTargets(c, k, from, d); t != 0; t &= t - 1 {
					dst = append(dst, NewMove(Square(from), Square(bits.TrailingZeros64(t))))
				}
			}
		}
	}
	return dst
}

// HasMoves reports whether the side to move has a legal move: false
// exactly when GenerateMoves returns none.
func (p *Position) HasMoves() bool { return !p.decided() && p.hasMoves() }

// CountMoves returns the number of legal moves without listing them.
//
// It slides all pieces of a kind at once, one step at a time. In one
// direction no two moves share a destination (a square is reached only by
// the nearest piece behind it on its line), so the moves in a direction
// are the bits of the union of every piece's stops.
func (p *Position) CountMoves() int {
	if p.decided() {
		return 0
	}
	c, e := p.side, p.side.Other()
	empty := ^(p.occ[c] | p.occ[e])
	// Pieces outside the trench take what blocks them if it is an enemy
	// outside the trench, or, from the enemy's territory, in it too.
	preyFromHome := p.occ[e] &^ trenchMask
	preyFromAway := p.occ[e]
	var stops [numDirs]uint64
	for k := Kind(0); k < numKinds; k++ {
		pcs := p.pieces[c][k]
		if pcs == 0 {
			continue
		}
		home := pcs &^ trenchMask &^ territoryMask[e]
		away := pcs & territoryMask[e]
		for _, d := range pieceDirs[c][k] {
			h, a := home, away
			for range k.Value() {
				h, a = step(h, d), step(a, d)
				stops[d] |= h&(empty|preyFromHome) | a&(empty|preyFromAway)
				h, a = h&empty, a&empty
				if h|a == 0 {
					break
				}
			}
		}
		for bb := pcs & trenchMask; bb != 0; bb &= bb - 1 {
			from := bits.TrailingZeros64(bb)
			for _, d := range pieceDirs[c][k] {
				stops[d] |= p.targets(c, k, from, d)
			}
		}
	}
	n := 0
	for _, s := range stops {
		n += bits.OnesCount64(s)
	}
	return n
}

// hasMoves reports whether the side to move has a legal move, ignoring the
// score and quiet-ply endings.
func (p *Position) hasMoves() bool {
	c := p.side
	// Every kind steps to an empty orthogonal neighbour from outside the
	// trench: the common case needs four shifts.
	free := p.occ[c] &^ trenchMask
	empty := ^(p.occ[c] | p.occ[c.Other()])
	if (step(free, dirE)|step(free, dirW)|step(free, dirN)|step(free, dirS))&empty != 0 {
		return true
	}
	for k := Kind(0); k < numKinds; k++ {
		for bb := p.pieces[c][k]; bb != 0; bb &= bb - 1 {
			from := bits.TrailingZeros64(bb)
			for _, d := range pieceDirs[c][k] {
				if p.targets(c, k, from, d) != 0 {
					return true
				}
			}
		}
	}
	return false
}

// IsLegal reports whether m is a legal move in p.
func (p *Position) IsLegal(m Move) bool {
	if p.decided() {
		return false
	}
	from, to := int(m.From()), int(m.To())
	c, k, ok := p.PieceAt(Square(from))
	if !ok || c != p.side {
		return false
	}
	d := int(dirBetween[from][to])
	if d < 0 {
		return false
	}
	allowed := false
	for _, pd := range pieceDirs[c][k] {
		allowed = allowed || pd == d
	}
	return allowed && p.targets(c, k, from, d)&(1<<to) != 0
}

// Captured returns the enemy pieces a legal move m takes: those on its
// route, destination included.
func (p *Position) Captured(m Move) uint64 {
	from, to := int(m.From()), int(m.To())
	d := dirBetween[from][to]
	if d < 0 {
		return 0
	}
	return ray[d][from] &^ ray[d][to] & p.occ[p.side.Other()]
}

// Play makes a legal move m in place: the piece moves, every captured piece
// is removed and scored, the counters advance.
func (p *Position) Play(m Move) {
	from, to := int(m.From()), int(m.To())
	c, enemy := p.side, p.side.Other()
	if captured := p.Captured(m); captured != 0 {
		gained := 0
		for k := Kind(0); k < numKinds; k++ {
			for bb := p.pieces[enemy][k] & captured; bb != 0; bb &= bb - 1 {
				s := bits.TrailingZeros64(bb)
				p.hash ^= zobristPiece[enemy][k][s]
				gained += k.Value()
			}
			p.pieces[enemy][k] &^= captured
		}
		p.occ[enemy] &^= captured
		p.material[enemy] -= uint8(gained)
		p.hash ^= zobristScore[c][p.score[c]]
		p.score[c] += uint8(gained)
		p.hash ^= zobristScore[c][p.score[c]]
		p.quiet = 0
	} else {
		p.quiet++
	}
	fromTo := uint64(1)<<from | uint64(1)<<to
	for k := Kind(0); k < numKinds; k++ {
		if p.pieces[c][k]&(1<<from) != 0 {
			p.pieces[c][k] ^= fromTo
			p.hash ^= zobristPiece[c][k][from] ^ zobristPiece[c][k][to]
			break
		}
	}
	p.occ[c] ^= fromTo
	if c == White {
		p.moveNumber++
	}
	p.side = enemy
	p.hash ^= zobristBlackToMove
}
