package trench

import (
	"fmt"
	"io"
	"strings"

	"trench/engine/trench"
	"trench/games/plugin"
)

// ANSI colours of the Trench board.
const (
	ansiBlack  = "\x1b[1;31m" // Black's pieces: bold red
	ansiWhite  = "\x1b[1;36m" // White's pieces: bold cyan
	ansiTrench = "\x1b[33m"   // the trench: yellow
)

// cell is one square's text: the glyph with its one-character frame on
// either side, and its colour.
func cell(st plugin.Style, p *trench.Position, s trench.Square, m plugin.Mark) string {
	glyph, colour := ".", ""
	if c, k, ok := p.PieceAt(s); ok {
		glyph = string("PSKCG"[k])
		colour = ansiBlack
		if c == trench.White {
			glyph = strings.ToLower(glyph)
			colour = ansiWhite
		}
	} else if s.File()+s.Rank() == 7 {
		glyph, colour = "-", ansiTrench
	} else if m == plugin.MarkTarget {
		glyph = "*"
	}
	if m == plugin.MarkTarget {
		colour = plugin.AnsiMark
		if _, _, ok := p.PieceAt(s); !ok {
			glyph = "*"
		}
	}
	return plugin.Frame(st, m, glyph, colour)
}

// drawBoard writes the position, with marks, in the style.
func drawBoard(w io.Writer, st plugin.Style, p *trench.Position, marks map[trench.Square]plugin.Mark) {
	if st.Square {
		drawSquare(w, st, p, marks)
	} else {
		drawDiamond(w, st, p, marks)
	}
}

// drawSquare draws rank 8 on top, files a–h left to right.
func drawSquare(w io.Writer, st plugin.Style, p *trench.Position, marks map[trench.Square]plugin.Mark) {
	for r := 7; r >= 0; r-- {
		var b strings.Builder
		fmt.Fprintf(&b, " %d ", r+1)
		for f := 0; f < 8; f++ {
			s := trench.SquareAt(f, r)
			b.WriteString(cell(st, p, s, marks[s]))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	fmt.Fprintln(w, "    a  b  c  d  e  f  g  h")
}

// drawDiamond draws the classic view: the board turned 45° so that the
// trench (a8–h1) runs across the middle, Black's corner a1 at the bottom
// and White's h8 at the top. Square (f, r) sits on row f+r (counted from
// the bottom) and column f-r, two characters per half step; each row is
// labelled with the names of its end squares.
func drawDiamond(w io.Writer, st plugin.Style, p *trench.Position, marks map[trench.Square]plugin.Mark) {
	const half = 2       // characters per half step
	const margin = 5     // room for a square name and a space on the left
	width := 14*half + 3 // from the leftmost cell's frame to the rightmost's
	for d := 14; d >= 0; d-- {
		fLo, fHi := max(0, d-7), min(7, d)
		left := trench.SquareAt(fLo, d-fLo)  // the row's leftmost square
		right := trench.SquareAt(fHi, d-fHi) // and its rightmost
		line := make([]string, 0, 10)
		startCol := (2*fLo - d + 7) * half
		line = append(line, fmt.Sprintf("%*s", margin, left.String()+" ")+strings.Repeat(" ", startCol))
		for f := fLo; f <= fHi; f++ {
			s := trench.SquareAt(f, d-f)
			if f > fLo {
				line = append(line, strings.Repeat(" ", 2*half-3))
			}
			line = append(line, cell(st, p, s, marks[s]))
		}
		endCol := (2*fHi-d+7)*half + 3
		tail := ""
		if left != right {
			tail = strings.Repeat(" ", width-endCol) + " " + right.String()
		}
		if d == 7 {
			tail += "  trench"
			if st.Color {
				tail = strings.Replace(tail, "trench", plugin.AnsiDim+"trench"+plugin.AnsiReset, 1)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(line, "")+tail, " "))
	}
}
