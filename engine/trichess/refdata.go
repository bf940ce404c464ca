package trichess

import (
	"fmt"
	"slices"
	"strings"

	"trench/internal/excerpt"
)

// The reference files (docs/trichess.md, "Checking the geometry") list
// moves taken from the reference board's own code, in two line formats:
//
//	wP Wa2: Wa3 Wa4                       one piece on an empty board
//	r;Wa3=bB Wb1=rK ...;Bd4Bb3 Bd4Bc2 ... a placement and its side's moves
//
// The first gives every destination of one piece alone on the board; the
// second every pseudo-legal move (from-to, sorted) of the side to move with
// the reference's simplifications: no check, shield or non-aggression
// filtering, and castling whenever king and rook stand on their home
// squares with the squares between empty. Placements are not game
// positions (a side may have several kings).

// IsReferenceLine reports whether line is in one of the reference formats.
func IsReferenceLine(line string) bool {
	return isEmptyBoardLine(line) || isPlacementLine(line)
}

func isEmptyBoardLine(line string) bool {
	return len(line) >= 7 && strings.IndexByte("wrb", line[0]) >= 0 && strings.IndexByte(kindLetters, line[1]) >= 0 &&
		line[2] == ' ' && line[6] == ':'
}

func isPlacementLine(line string) bool {
	return len(line) >= 2 && strings.IndexByte("wrb", line[0]) >= 0 && line[1] == ';'
}

// CheckReferenceLine compares the engine's moves with a reference line. It
// returns "" when they agree and otherwise what is missing and extra; err
// reports a malformed line.
func CheckReferenceLine(line string) (string, error) {
	var p Position
	for c := range p.king {
		p.king[c] = NoSquare
	}
	var want []string
	switch {
	case isEmptyBoardLine(line):
		c := Color(strings.IndexByte("wrb", line[0]))
		k := Kind(strings.IndexByte(kindLetters, line[1]))
		s, err := ParseSquare(line[3:6])
		if err != nil {
			return "", err
		}
		p.put(c, k, s)
		p.side = c
		want = strings.Fields(line[7:])
		for i := range want {
			want[i] = s.String() + want[i]
		}
	case isPlacementLine(line):
		fields := strings.Split(line, ";")
		if len(fields) != 3 {
			return "", fmt.Errorf("want \"side;placements;moves\", got %d fields", len(fields))
		}
		p.side = Color(strings.IndexByte("wrb", line[0]))
		for _, pl := range strings.Fields(fields[1]) {
			if len(pl) != 6 || pl[3] != '=' {
				return "", fmt.Errorf("placement %s: want square=piece, e.g. Wa3=bB", excerpt.Quote(pl))
			}
			s, err := ParseSquare(pl[:3])
			if err != nil {
				return "", fmt.Errorf("placement %s: %w", excerpt.Quote(pl), err)
			}
			c, k := strings.IndexByte("wrb", pl[4]), strings.IndexByte(kindLetters, pl[5])
			if c < 0 || k < 0 {
				return "", fmt.Errorf("placement %s: want a piece such as bB", excerpt.Quote(pl))
			}
			if p.board[s] != 0 {
				return "", fmt.Errorf("placement %s: %s is already taken", excerpt.Quote(pl), s)
			}
			p.put(Color(c), Kind(k), s)
		}
		want = strings.Fields(fields[2])
	default:
		return "", fmt.Errorf("not a reference line (want \"wP Wa1: ...\" or \"w;Wa1=wK ...;...\")")
	}
	var got []string
	for _, m := range p.PseudoLegalMoves(nil) {
		got = append(got, NewMove(m.From(), m.To()).String())
	}
	slices.Sort(got)
	got = slices.Compact(got)
	slices.Sort(want)
	var missing, extra []string
	for _, w := range want {
		if _, found := slices.BinarySearch(got, w); !found {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if _, found := slices.BinarySearch(want, g); !found {
			extra = append(extra, g)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return "", nil
	}
	return fmt.Sprintf("missing [%s], extra [%s]", strings.Join(missing, " "), strings.Join(extra, " ")), nil
}
