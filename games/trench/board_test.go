package trench

import (
	"bytes"
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/games/plugin"
)

func TestDrawBoard(t *testing.T) {
	p := trench.StartPosition()
	var b bytes.Buffer
	drawBoard(&b, plugin.Style{}, &p, nil)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 15 {
		t.Fatalf("%d lines in the diamond, want 15:\n%s", len(lines), b.String())
	}
	// White's General on top, Black's at the bottom, the trench across
	// the middle from a8 to h1.
	if !strings.HasSuffix(lines[0], " g") || !strings.HasSuffix(lines[14], " G") {
		t.Errorf("corners:\n%s", b.String())
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[7]), "a8  -   -") || !strings.Contains(lines[7], "h1  trench") {
		t.Errorf("trench row %q", lines[7])
	}
	b.Reset()
	drawBoard(&b, plugin.Style{Color: true}, &p, map[trench.Square]plugin.Mark{0: plugin.MarkFrom})
	if !strings.Contains(b.String(), ansiBlack+"G"+plugin.AnsiReset) || !strings.Contains(b.String(), ansiWhite+"g"+plugin.AnsiReset) {
		t.Errorf("coloured board lacks coloured Generals")
	}
	b.Reset()
	drawBoard(&b, plugin.Style{Square: true}, &p, nil)
	if !strings.Contains(b.String(), " 1  G  C  K  S  .  .  .  -") {
		t.Errorf("square board:\n%s", b.String())
	}
}
