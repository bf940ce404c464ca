package main

import (
	"fmt"
	"io"
	"strings"

	"trench/engine/trench"
)

// boardStyle says how a Trench board is drawn in a terminal.
type boardStyle struct {
	// square draws the board as a square (files a–h across, rank 8 on
	// top) instead of the classic diamond (trench horizontal, a1 at the
	// bottom).
	square bool
	// color uses ANSI colours besides the letters' case.
	color bool
}

// ANSI colours of the terminal board.
const (
	ansiReset   = "\x1b[0m"
	ansiBlack   = "\x1b[1;31m" // Black's pieces: bold red
	ansiWhite   = "\x1b[1;36m" // White's pieces: bold cyan
	ansiTrench  = "\x1b[33m"   // the trench: yellow
	ansiMark    = "\x1b[1;32m" // move targets: bold green
	ansiCapture = "\x1b[1;7m"  // pieces a move would take: reverse video
	ansiDim     = "\x1b[2m"
)

// squareMark is how a square is highlighted.
type squareMark uint8

const (
	markNone    squareMark = iota
	markFrom               // the piece whose moves are shown, or the last move's origin
	markTarget             // an empty square a move can stop on
	markCapture            // an enemy piece a move can take
	markLast               // the last move's destination
)

// cell is one square's text: the glyph with its one-character frame on
// either side, and its colour.
func (st boardStyle) cell(p *trench.Position, s trench.Square, m squareMark) string {
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
	} else if m == markTarget {
		glyph = "*"
	}
	left, right := " ", " "
	switch m {
	case markFrom:
		left, right = "<", ">"
	case markTarget:
		left, right = " ", " "
		colour = ansiMark
		if _, _, ok := p.PieceAt(s); !ok {
			glyph = "*"
		}
	case markCapture:
		left, right = "[", "]"
	case markLast:
		left, right = "(", ")"
	}
	if !st.color {
		return left + glyph + right
	}
	if m == markCapture {
		colour += ansiCapture
	}
	return left + colour + glyph + ansiReset + right
}

// drawBoard writes the position, with marks, in the style.
func (st boardStyle) drawBoard(w io.Writer, p *trench.Position, marks map[trench.Square]squareMark) {
	if st.square {
		st.drawSquare(w, p, marks)
	} else {
		st.drawDiamond(w, p, marks)
	}
}

// drawSquare draws rank 8 on top, files a–h left to right.
func (st boardStyle) drawSquare(w io.Writer, p *trench.Position, marks map[trench.Square]squareMark) {
	for r := 7; r >= 0; r-- {
		var b strings.Builder
		fmt.Fprintf(&b, " %d ", r+1)
		for f := 0; f < 8; f++ {
			s := trench.SquareAt(f, r)
			b.WriteString(st.cell(p, s, marks[s]))
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
func (st boardStyle) drawDiamond(w io.Writer, p *trench.Position, marks map[trench.Square]squareMark) {
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
			line = append(line, st.cell(p, s, marks[s]))
		}
		endCol := (2*fHi-d+7)*half + 3
		tail := ""
		if left != right {
			tail = strings.Repeat(" ", width-endCol) + " " + right.String()
		}
		if d == 7 {
			tail += "  trench"
			if st.color {
				tail = strings.Replace(tail, "trench", ansiDim+"trench"+ansiReset, 1)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(line, "")+tail, " "))
	}
}
