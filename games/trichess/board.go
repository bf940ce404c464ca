package trichess

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"trench/engine/trichess"
	"trench/games/plugin"
)

// The Trichess board is drawn as it lies on the table: a hexagon whose
// six corners around the centre are the six quarters of the three
// sections (files a–d and e–h), each a four-sided sector of 4×4 squares
// with one corner at the centre. White's back rank is the bottom edge,
// Red's the upper right one and Black's the upper left one; the other
// three edges are the sections' a and h files. Squares are placed at their
// centres, rounded to character cells.

// Geometry of the terminal hexagon: its corners lie hexRadius columns from
// the centre, and a row is hexAspect columns tall. hexRadius is the
// smallest radius whose cells on one row stay at least cellGap columns
// apart (TestTrichessLayout checks it).
const (
	hexRadius = 38.0
	hexAspect = 2.2
	cellGap   = 5
)

// hexPoint is a point of the board's plane: x to the right, y up, in
// columns.
type hexPoint struct{ x, y float64 }

// polar is the point at angle deg (counter-clockwise from the right) and
// distance r from the centre.
func polar(deg, r float64) hexPoint {
	a := deg * math.Pi / 180
	return hexPoint{r * math.Cos(a), r * math.Sin(a)}
}

// sectionAngle is the direction of section c's back rank from the centre:
// White down, Red up right, Black up left.
func sectionAngle(c trichess.Color) float64 { return 270 + 120*float64(c) }

// hexCentre returns the centre of square s in the board's plane, and the
// outward directions (angles) of its section's back rank and of its
// quarter's side edge. Each quarter is the quadrilateral centre – middle
// of the back rank – corner – middle of the side edge, and a square's
// centre is its position in that quadrilateral interpolated bilinearly.
func hexCentre(s trichess.Square, radius float64) (p hexPoint, backAngle, sideAngle float64) {
	base := sectionAngle(s.Section())
	apothem := radius * math.Sqrt(3) / 2
	f, r := s.File(), s.Rank()
	x := (float64(f) - 3.5) / 4 // 1/8 .. 7/8 from the d–e line
	side := 60.0
	if f < 4 {
		x, side = -x, -60
	}
	y := (3.5 - float64(r)) / 4               // from rank 4 (the centre) towards rank 1
	a := polar(base, apothem)                 // middle of the back rank
	b := polar(base+side, apothem)            // middle of the side edge
	v := polar(base+side/2, radius)           // the quarter's corner
	p.x = a.x*(1-x)*y + b.x*x*(1-y) + v.x*x*y // the centre's term is zero
	p.y = a.y*(1-x)*y + b.y*x*(1-y) + v.y*x*y
	return p, base, base + side
}

// textCell is a place on the terminal board: row and column of a cell's
// first character.
type textCell struct{ row, col int }

// trichessLayout is where every square and label goes on the terminal.
type trichessLayout struct {
	rows, cols int
	squares    [trichess.NumSquares]textCell
	labels     []textLabel
}

// textLabel is a coordinate or a section name written beside the board.
type textLabel struct {
	at      textCell
	text    string
	section trichess.Color
}

// toCell rounds a point of the plane to the terminal cell where a text of
// width w centred on it starts, before shifting to the top left corner.
func toCell(p hexPoint, w int) textCell {
	return textCell{row: int(math.Round(-p.y / hexAspect)), col: int(math.Round(p.x)) - w/2}
}

// newTrichessLayout computes the terminal layout: squares (cells of
// cellWidth columns: a frame, two glyph characters, a frame), file letters
// outside every back rank, rank digits outside every side edge, and the
// section names outside the back ranks' middles.
func newTrichessLayout() *trichessLayout {
	l := &trichessLayout{}
	var cells []textCell
	for s := trichess.Square(0); s < trichess.NumSquares; s++ {
		p, back, side := hexCentre(s, hexRadius)
		c := toCell(p, cellWidth)
		l.squares[s] = c
		cells = append(cells, c)
		if s.Rank() == 0 {
			l.labels = append(l.labels, textLabel{toCell(offset(p, back, 4.5), 1), string(rune('a' + s.File())), s.Section()})
		}
		if f := s.File(); f == 0 || f == 7 {
			l.labels = append(l.labels, textLabel{toCell(offset(p, side, 5), 1), string(rune('1' + s.Rank())), s.Section()})
		}
	}
	for c := trichess.White; c <= trichess.Black; c++ {
		name := c.String()
		l.labels = append(l.labels, textLabel{toCell(polar(sectionAngle(c), hexRadius*math.Sqrt(3)/2+7), len(name)), name, c})
	}
	minRow, minCol, maxRow, maxCol := math.MaxInt, math.MaxInt, math.MinInt, math.MinInt
	extend := func(c textCell, w int) {
		minRow, maxRow = min(minRow, c.row), max(maxRow, c.row)
		minCol, maxCol = min(minCol, c.col), max(maxCol, c.col+w)
	}
	for _, c := range cells {
		extend(c, cellWidth)
	}
	for _, lb := range l.labels {
		extend(lb.at, len(lb.text))
	}
	for i := range l.squares {
		l.squares[i].row -= minRow
		l.squares[i].col -= minCol
	}
	for i := range l.labels {
		l.labels[i].at.row -= minRow
		l.labels[i].at.col -= minCol
	}
	l.rows, l.cols = maxRow-minRow+1, maxCol-minCol
	return l
}

// offset moves p by d columns in direction deg.
func offset(p hexPoint, deg, d float64) hexPoint {
	o := polar(deg, d)
	return hexPoint{p.x + o.x, p.y + o.y}
}

// cellWidth is a square's width on the terminal: a frame character, the
// two-character glyph, a frame character.
const cellWidth = 4

// theTrichessLayout is computed once.
var theTrichessLayout = newTrichessLayout()

// ANSI colours of the Trichess sections and pieces.
var (
	trichessPieceColour = [3]string{"\x1b[1;97m", "\x1b[1;31m", "\x1b[1;34m"} // bright white, red, blue
	trichessEmptyColour = [3]string{"\x1b[37m", "\x1b[31m", "\x1b[34m"}
)

// trichessEmpty is an empty square's glyph in each section, so that the
// sections are told apart without colour.
var trichessEmpty = [3]string{" .", " :", " +"}

// cell is one square's text: frame, glyph, frame.
func cell(st plugin.Style, p *trichess.Position, s trichess.Square, m plugin.Mark) string {
	glyph, colour := trichessEmpty[s.Section()], trichessEmptyColour[s.Section()]
	if c, k, ok := p.PieceAt(s); ok {
		glyph = string([]byte{c.Letter(), k.Letter()})
		colour = trichessPieceColour[c]
	} else if m == plugin.MarkTarget {
		glyph, colour = " *", plugin.AnsiMark
	}
	return plugin.Frame(st, m, glyph, colour)
}

// drawBoard writes the position, with marks, as the hexagon.
func drawBoard(w io.Writer, st plugin.Style, p *trichess.Position, marks map[int]plugin.Mark) {
	l := theTrichessLayout
	type piece struct {
		col  int
		text string // may hold colour codes
		w    int
	}
	lines := make([][]piece, l.rows)
	for s := trichess.Square(0); s < trichess.NumSquares; s++ {
		c := l.squares[s]
		lines[c.row] = append(lines[c.row], piece{c.col, cell(st, p, s, marks[int(s)]), cellWidth})
	}
	for _, lb := range l.labels {
		text := lb.text
		if st.Color {
			text = trichessEmptyColour[lb.section] + text + plugin.AnsiReset
		}
		lines[lb.at.row] = append(lines[lb.at.row], piece{lb.at.col, text, len(lb.text)})
	}
	for _, line := range lines {
		sort.Slice(line, func(i, j int) bool { return line[i].col < line[j].col })
		var b strings.Builder
		col := 0
		for _, pc := range line {
			if pc.col > col {
				b.WriteString(strings.Repeat(" ", pc.col-col))
				col = pc.col
			}
			b.WriteString(pc.text)
			col += pc.w
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
