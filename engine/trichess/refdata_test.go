package trichess

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The reference files: every piece's moves on an empty board, and the
// pseudo-legal moves of 1000 random placements (docs/trichess.md).
const refDir = "testdata/"

func checkReferenceFile(t *testing.T, name string) {
	f, err := os.Open(refDir + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines, failed := 0, 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines++
		diff, err := CheckReferenceLine(line)
		if err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		if diff != "" {
			failed++
			if failed <= 10 {
				t.Errorf("%s:%d: %s: %s", name, n, line[:min(len(line), 120)], diff)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if failed > 0 {
		t.Errorf("%s: %d of %d lines differ", name, failed, lines)
	}
	if lines == 0 {
		t.Errorf("%s: no lines", name)
	}
}

func TestEmptyBoardMoves(t *testing.T)      { checkReferenceFile(t, "empty-board-moves.txt") }
func TestPseudoLegalPositions(t *testing.T) { checkReferenceFile(t, "pseudo-legal-positions.txt") }
