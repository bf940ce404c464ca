package trichess

import (
	"bytes"
	"strings"
	"testing"

	"trench/engine/trichess"
	"trench/games/plugin"
)

func TestTrichessLayout(t *testing.T) {
	l := theTrichessLayout
	// Every square gets its own cells, at least cellGap columns from the
	// next one on its row, and no label overlaps a square.
	type span struct{ from, to int }
	rows := map[int][]span{}
	for s := trichess.Square(0); s < trichess.NumSquares; s++ {
		c := l.squares[s]
		rows[c.row] = append(rows[c.row], span{c.col, c.col + cellWidth})
	}
	for r, spans := range rows {
		for i := range spans {
			for j := range spans {
				if i != j && spans[i].from <= spans[j].from && spans[j].from < spans[i].from+cellGap {
					t.Errorf("row %d: squares at columns %d and %d are closer than %d", r, spans[i].from, spans[j].from, cellGap)
				}
			}
		}
	}
	for _, lb := range l.labels {
		for _, sp := range rows[lb.at.row] {
			if lb.at.col < sp.to && sp.from < lb.at.col+len(lb.text) {
				t.Errorf("label %q at %v overlaps a square", lb.text, lb.at)
			}
		}
	}
	// White's back rank lies below its rank 4, Red's to the upper right,
	// Black's to the upper left; the centre squares lie between.
	at := func(name string) textCell {
		s, err := trichess.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return l.squares[s]
	}
	if !(at("We1").row > at("We4").row && at("Ra1").col > at("Rd4").col && at("Rh1").row < at("Re4").row &&
		at("Bh1").col < at("Be4").col && at("Ba1").row < at("Bd4").row) {
		t.Errorf("sections are not where they belong")
	}
	// The squares touching across the centre are next to each other.
	for _, pair := range [][2]string{{"Wd4", "Be4"}, {"We4", "Rd4"}, {"Re4", "Bd4"}} {
		a, b := at(pair[0]), at(pair[1])
		if abs(a.row-b.row) > 3 || abs(a.col-b.col) > 12 {
			t.Errorf("%s at %v and %s at %v are far apart", pair[0], a, pair[1], b)
		}
	}
	p := trichess.StartPosition()
	var b bytes.Buffer
	drawBoard(&b, plugin.Style{}, &p, map[int]plugin.Mark{int(at2(t, "We2")): plugin.MarkFrom})
	text := b.String()
	for _, want := range []string{"wK", "rK", "bK", "<wP>", " . ", " : ", " + ", "White", "Red", "Black"} {
		if !strings.Contains(text, want) {
			t.Errorf("board lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "wP") + strings.Count(text, "rP") + strings.Count(text, "bP"); n != 24 {
		t.Errorf("%d pawns drawn, want 24", n)
	}
	b.Reset()
	drawBoard(&b, plugin.Style{Color: true}, &p, nil)
	if !strings.Contains(b.String(), trichessPieceColour[trichess.Red]+"rK"+plugin.AnsiReset) {
		t.Errorf("coloured board lacks Red's coloured king")
	}
}

func at2(t *testing.T, name string) trichess.Square {
	s, err := trichess.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
