package tictactoe

import (
	"fmt"
	"math/bits"
	"strings"

	"trench/internal/excerpt"
)

// String is the board's rows from the top, separated by "/", with "x",
// "o" or "." per square, then a space and the mover ("x" or "o"): the start
// is ".../.../... x".
func (s *State) String() string {
	var b strings.Builder
	for i := range 9 {
		if i > 0 && i%3 == 0 {
			b.WriteByte('/')
		}
		switch {
		case s.marks[0]>>i&1 != 0:
			b.WriteByte('x')
		case s.marks[1]>>i&1 != 0:
			b.WriteByte('o')
		default:
			b.WriteByte('.')
		}
	}
	b.WriteByte(' ')
	b.WriteByte("xo"[s.toMove])
	return b.String()
}

// Parse reads a state in the form of State.String. The error names the
// field at fault.
func Parse(text string) (*State, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, fmt.Errorf("tictactoe position %s: want 2 fields (board, mover), got %d", excerpt.Quote(text), len(fields))
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 3 {
		return nil, fmt.Errorf("tictactoe position %s: board: want 3 rows separated by '/', got %d", excerpt.Quote(text), len(rows))
	}
	var s State
	for r, row := range rows {
		if len(row) != 3 {
			return nil, fmt.Errorf("tictactoe position %s: board row %d: want 3 squares, got %s", excerpt.Quote(text), r+1, excerpt.Quote(row))
		}
		for c := range 3 {
			switch row[c] {
			case 'x', 'X':
				s.marks[0] |= 1 << (r*3 + c)
			case 'o', 'O':
				s.marks[1] |= 1 << (r*3 + c)
			case '.':
			default:
				return nil, fmt.Errorf("tictactoe position %s: board row %d: square %s is not x, o or '.'", excerpt.Quote(text), r+1, excerpt.Quote(row[c:c+1]))
			}
		}
	}
	switch fields[1] {
	case "x", "X":
		s.toMove = 0
	case "o", "O":
		s.toMove = 1
	default:
		return nil, fmt.Errorf("tictactoe position %s: mover: want x or o, got %s", excerpt.Quote(text), excerpt.Quote(fields[1]))
	}
	nx, no := bits.OnesCount16(s.marks[0]), bits.OnesCount16(s.marks[1])
	if nx-no != s.toMove {
		return nil, fmt.Errorf("tictactoe position %s: mover: %d x and %d o cannot have %s to move", excerpt.Quote(text), nx, no, fields[1])
	}
	xw, ow := wins(s.marks[0]), wins(s.marks[1])
	switch {
	case xw && ow:
		return nil, fmt.Errorf("tictactoe position %s: board: both players have a line", excerpt.Quote(text))
	case xw && s.toMove != 1, ow && s.toMove != 0:
		return nil, fmt.Errorf("tictactoe position %s: mover: the winner cannot have moved last and be to move", excerpt.Quote(text))
	case xw:
		s.winner = 1
	case ow:
		s.winner = 2
	}
	return &s, nil
}
