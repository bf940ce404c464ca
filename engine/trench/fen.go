package trench

import (
	"fmt"
	"strconv"
	"strings"

	"trench/internal/excerpt"
)

// ParseFEN reads a position string: six space-separated fields, the ranks
// 8 to 1 separated by '/' (uppercase Black, lowercase White, digits for
// empty runs), the side to move (b or w), Black's score, White's score,
// the plies since the last capture and the move number. The error names the
// field and character at fault.
func ParseFEN(text string) (Position, error) {
	var p Position
	fields := strings.Fields(text)
	if len(fields) != 6 {
		return p, fmt.Errorf("position %s: want 6 space-separated fields (board, side, Black's score, White's score, quiet plies, move number), got %d", excerpt.Quote(text), len(fields))
	}
	if err := p.parseBoard(fields[0]); err != nil {
		return Position{}, fmt.Errorf("position %s: field 1 (board): %w", excerpt.Quote(text), err)
	}
	switch fields[1] {
	case "b":
		p.side = Black
	case "w":
		p.side = White
	default:
		return Position{}, fmt.Errorf("position %s: field 2 (side to move): want b or w, got %s", excerpt.Quote(text), excerpt.Quote(fields[1]))
	}
	names := [4]string{"Black's score", "White's score", "quiet plies", "move number"}
	limits := [4][2]int{{0, ArmyPoints}, {0, ArmyPoints}, {0, QuietLimit}, {1, 1<<16 - 1}}
	var nums [4]int
	for i := range nums {
		f := fields[2+i]
		if strings.HasPrefix(f, "-") {
			return Position{}, fmt.Errorf("position %s: field %d (%s): %s is negative", excerpt.Quote(text), 3+i, names[i], excerpt.Quote(f))
		}
		n, err := strconv.Atoi(f)
		if err != nil || f[0] < '0' || f[0] > '9' || len(f) > 1 && f[0] == '0' {
			return Position{}, fmt.Errorf("position %s: field %d (%s): %s is not a whole number in plain digits", excerpt.Quote(text), 3+i, names[i], excerpt.Quote(f))
		}
		if n < limits[i][0] || n > limits[i][1] {
			return Position{}, fmt.Errorf("position %s: field %d (%s): %d is outside %d..%d", excerpt.Quote(text), 3+i, names[i], n, limits[i][0], limits[i][1])
		}
		nums[i] = n
	}
	p.score[Black], p.score[White] = uint8(nums[0]), uint8(nums[1])
	p.quiet, p.moveNumber = uint8(nums[2]), uint16(nums[3])
	for c := Black; c <= White; c++ {
		if lost := ArmyPoints - p.Material(c.Other()); int(p.score[c]) > lost {
			return Position{}, fmt.Errorf("position %s: field %d (%s): %d is more than the %d points of %s pieces missing from the board", excerpt.Quote(text), 3+int(c), names[c], p.score[c], lost, c.Other())
		}
	}
	p.hash = p.computeHash()
	return p, nil
}

// parseBoard reads the first field of a position string.
func (p *Position) parseBoard(board string) error {
	ranks := strings.Split(board, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("want 8 ranks separated by '/', got %d", len(ranks))
	}
	var count [2][numKinds]int
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '1' && ch <= '8' {
				if j > 0 && row[j-1] >= '1' && row[j-1] <= '8' {
					return fmt.Errorf("rank %d (%s): character %d: two digits in a row (write one run of empty squares as one digit)", rank+1, excerpt.Quote(row), j+1)
				}
				file += int(ch - '0')
				if file > 8 {
					return fmt.Errorf("rank %d (%s): more than 8 files", rank+1, excerpt.Quote(row))
				}
				continue
			}
			c, k, ok := pieceFromLetter(ch)
			if !ok {
				n, q := excerpt.Char(row, j)
				return fmt.Errorf("rank %d (%s): character %d, %s, is not a piece letter (PSKCG for Black, pskcg for White) or a digit 1-8", rank+1, excerpt.Quote(row), n, q)
			}
			if file >= 8 {
				return fmt.Errorf("rank %d (%s): more than 8 files", rank+1, excerpt.Quote(row))
			}
			count[c][k]++
			if count[c][k] > armyCount[k] {
				return fmt.Errorf("%s has more than %d %ss", c, armyCount[k], k)
			}
			p.put(c, k, int(SquareAt(file, rank)))
			file++
		}
		if file != 8 {
			return fmt.Errorf("rank %d (%s): %d files, want 8", rank+1, excerpt.Quote(row), file)
		}
	}
	return nil
}

// pieceFromLetter decodes a position-string piece letter.
func pieceFromLetter(ch byte) (Color, Kind, bool) {
	c := Black
	if ch >= 'a' && ch <= 'z' {
		c, ch = White, ch-'a'+'A'
	}
	k := strings.IndexByte(kindLetters, ch)
	if k < 0 {
		return 0, 0, false
	}
	return c, Kind(k), true
}

// FEN is the position string, readable by ParseFEN.
func (p *Position) FEN() string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			c, k, ok := p.PieceAt(SquareAt(file, rank))
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			letter := kindLetters[k]
			if c == White {
				letter += 'a' - 'A'
			}
			b.WriteByte(letter)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	side := "b"
	if p.side == White {
		side = "w"
	}
	fmt.Fprintf(&b, " %s %d %d %d %d", side, p.score[Black], p.score[White], p.quiet, p.moveNumber)
	return b.String()
}
