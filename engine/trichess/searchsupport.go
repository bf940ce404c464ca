package trichess

// What a classical search of Trichess needs beyond the rules: the legal
// captures alone, and cheap measures of activity and king shelter for a
// hand-written evaluation.

// GenerateCaptures appends the legal moves of the side to move that take
// a piece to dst: none once the game has ended by échec et fat or the
// 150-ply rule.
func (p *Position) GenerateCaptures(dst []Move) []Move {
	if p.decided() {
		return dst
	}
	return p.legalCaptures(dst)
}

// IsCapture reports whether m, a move of the side to move, takes a
// piece.
func (p *Position) IsCapture(m Move) bool { return p.board[m.To()] != 0 }

// Mobility returns, for each player, how many squares its knights,
// bishops, rooks and queens reach by their geometry: empty squares and
// those of another player's pieces, ignoring check, the shield and
// non-aggression (a square two rays of a piece reach counts twice).
func (p *Position) Mobility() [numColors]int {
	var n [numColors]int
	for s := Square(0); s < NumSquares; s++ {
		pc := p.board[s]
		if pc == 0 {
			continue
		}
		c := pc.color()
		switch pc.kind() {
		case Knight:
			for _, t := range knightTo[s] {
				if q := p.board[t]; q == 0 || q.color() != c {
					n[c]++
				}
			}
		case Bishop:
			n[c] += p.rayReach(c, bishopRays[s])
		case Rook:
			n[c] += p.rayReach(c, rookRays[s])
		case Queen:
			n[c] += p.rayReach(c, rookRays[s]) + p.rayReach(c, bishopRays[s])
		}
	}
	return n
}

// rayReach counts the squares a slider of c reaches along rays.
func (p *Position) rayReach(c Color, rays [][]Square) int {
	n := 0
	for _, ray := range rays {
		for _, t := range ray {
			q := p.board[t]
			if q == 0 {
				n++
				continue
			}
			if q.color() != c {
				n++
			}
			break
		}
	}
	return n
}

// KingShelter is the number of c's pieces on the squares next to its
// king (0 when it has none).
func (p *Position) KingShelter(c Color) int {
	k := p.king[c]
	if k < 0 {
		return 0
	}
	n := 0
	for _, t := range kingTo[k] {
		if q := p.board[t]; q != 0 && q.color() == c {
			n++
		}
	}
	return n
}
