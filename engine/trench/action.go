package trench

import (
	"fmt"
	"strings"

	"trench/internal/excerpt"
)

// The action encoding for the network.
//
// An action is a move seen from the mover's side: its from-square, its
// direction (8) and its distance (1..5), as
//
//	action = from*40 + direction*5 + (distance-1)
//
// which gives ActionCount = 64*8*5 = 2560 indices. Black's moves are
// encoded as they are. White's are rotated 180° first (square s becomes
// 63-s and each direction its opposite), so that every player "moves up"
// from the a1 corner towards h8: the same index means the same move shape
// for either colour. Directions are numbered NE (+1,+1: forward vertical),
// SW, E, W, N, S, SE, NW (sideways), each opposite being the index xor 1.
// A legal move maps to exactly one action and back (MoveToAction,
// ActionToMove).
const (
	maxDistance = 5
	ActionCount = 64 * numDirs * maxDistance
)

// MoveToAction returns the action index of move m played by colour c. It
// returns -1 for a move that is not on one line within 5 squares.
func MoveToAction(m Move, c Color) int {
	from, to := int(m.From()), int(m.To())
	d := int(dirBetween[from][to])
	if d < 0 {
		return -1
	}
	dist := max(abs(Square(to).File()-Square(from).File()), abs(Square(to).Rank()-Square(from).Rank()))
	if dist > maxDistance {
		return -1
	}
	if c == White {
		from, d = 63-from, d^1
	}
	return from*numDirs*maxDistance + d*maxDistance + dist - 1
}

// ActionToMove returns the move of colour c that action a encodes, or
// false if the action leaves the board.
func ActionToMove(a int, c Color) (Move, bool) {
	if a < 0 || a >= ActionCount {
		return 0, false
	}
	from, d, dist := a/(numDirs*maxDistance), a/maxDistance%numDirs, a%maxDistance+1
	if c == White {
		from, d = 63-from, d^1
	}
	f := Square(from).File() + dirDelta[d][0]*dist
	r := Square(from).Rank() + dirDelta[d][1]*dist
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return 0, false
	}
	return NewMove(Square(from), SquareAt(f, r)), true
}

// mirrorAction maps an action through the file↔rank mirror. The mirror
// commutes with White's 180° rotation, so it is the same for both colours.
func mirrorAction(a int) int {
	from, d, dist := a/(numDirs*maxDistance), a/maxDistance%numDirs, a%maxDistance
	s := Square(from)
	return int(SquareAt(s.Rank(), s.File()))*numDirs*maxDistance + mirrorDir[d]*maxDistance + dist
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ParseSquare reads a square name such as "d4".
func ParseSquare(text string) (Square, error) {
	if len(text) != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8' {
		return NoSquare, fmt.Errorf("square %s: want a file a-h then a rank 1-8, e.g. d4", excerpt.Quote(text))
	}
	return SquareAt(int(text[0]-'a'), int(text[1]-'1')), nil
}

// ParseMove reads a move in notation (from-square then to-square, e.g.
// "d4e4") and checks that it is legal in p; the error says what is wrong.
func (p *Position) ParseMove(text string) (Move, error) {
	text = strings.TrimSpace(text)
	if len(text) != 4 {
		return 0, fmt.Errorf("move %s: want a from-square and a to-square, e.g. d4e4", excerpt.Quote(text))
	}
	from, err := ParseSquare(text[:2])
	if err != nil {
		return 0, fmt.Errorf("move %s: %w", excerpt.Quote(text), err)
	}
	to, err := ParseSquare(text[2:])
	if err != nil {
		return 0, fmt.Errorf("move %s: %w", excerpt.Quote(text), err)
	}
	m := NewMove(from, to)
	if p.IsLegal(m) {
		return m, nil
	}
	return 0, fmt.Errorf("move %s: illegal: %s", excerpt.Quote(text), p.whyIllegal(m))
}

// whyIllegal explains why a move is not legal in p.
func (p *Position) whyIllegal(m Move) string {
	if p.decided() {
		return "the game is over"
	}
	c, k, ok := p.PieceAt(m.From())
	switch {
	case !ok:
		return fmt.Sprintf("no piece on %s", m.From())
	case c != p.side:
		return fmt.Sprintf("the %s on %s is %s's, and %s is to move", k, m.From(), c, p.side)
	case m.From() == m.To():
		return "a move must leave its square"
	case dirBetween[m.From()][m.To()] < 0:
		return fmt.Sprintf("%s is not on a straight line from %s", m.To(), m.From())
	}
	d := int(dirBetween[m.From()][m.To()])
	allowed := false
	for _, pd := range pieceDirs[c][k] {
		allowed = allowed || pd == d
	}
	if !allowed {
		return fmt.Sprintf("a %s does not move in that direction", k)
	}
	if reach[k][d][m.From()]&(1<<m.To()) == 0 {
		return fmt.Sprintf("a %s moves at most %d squares", k, k.Value())
	}
	return "the way is blocked, or the trench rules forbid the capture"
}
