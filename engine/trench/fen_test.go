package trench

import (
	"strings"
	"testing"
)

func TestParseFENErrors(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"", "want 6 space-separated fields"},
		{StartFEN + " 7", "got 7"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4 b 0 0 0 1", "field 1 (board): want 8 ranks"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS3 b 0 0 0 1", "rank 1 (\"GCKS3\"): 7 files, want 8"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS5 b 0 0 0 1", "rank 1 (\"GCKS5\"): more than 8 files"},
		{"4skcgp/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1", "rank 8 (\"4skcgp\"): more than 8 files"},
		{"4skcx/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1", "character 5, \"x\", is not a piece letter"},
		{"4skcé/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1", "rank 8 (\"4skcé\"): character 5, \"é\", is not a piece letter"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1" + strings.Repeat(" 1", 1000), "…\" (2057 bytes): want 6"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS13 b 0 0 0 1", "two digits in a row"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GGKS4 b 0 0 0 1", "more than 1 generals"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 x 0 0 0 1", "field 2 (side to move)"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b -1 0 0 1", "field 3 (Black's score): \"-1\" is negative"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 x 0 1", "field 4 (White's score): \"x\" is not a whole number"},
		{"8/8/8/8/8/8/8/G7 b 0 37 0 1", "field 4 (White's score): 37 is outside 0..36"},
		{"8/8/8/8/8/8/8/G7 b 0 32 0 1", "32 is more than the 31 points"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 51 1", "field 5 (quiet plies): 51 is outside 0..50"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 07 1", "field 5 (quiet plies): \"07\" is not a whole number"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 0", "field 6 (move number): 0 is outside"},
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 +1", "field 6 (move number): \"+1\" is not a whole number"},
	}
	for _, tc := range tests {
		_, err := ParseFEN(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q) = %v, want an error containing %q", tc.fen, err, tc.want)
		}
	}
}

func TestStartPosition(t *testing.T) {
	p := StartPosition()
	if p.FEN() != StartFEN {
		t.Errorf("start formats as %q", p.FEN())
	}
	for c := Black; c <= White; c++ {
		if got := p.Material(c); got != ArmyPoints {
			t.Errorf("%s material %d, want %d", c, got, ArmyPoints)
		}
	}
	if col, k, ok := p.PieceAt(SquareAt(0, 0)); !ok || col != Black || k != General {
		t.Errorf("a1 holds %v %v %v, want Black's general", col, k, ok)
	}
	if col, k, ok := p.PieceAt(SquareAt(4, 4)); !ok || col != White || k != Soldier {
		t.Errorf("e5 holds %v %v %v, want White's soldier", col, k, ok)
	}
	if m := p.Mirror(); m.FEN() != StartFEN {
		t.Errorf("the start is not mirror-symmetric: %s", m.FEN())
	}
}

// FuzzParseFEN checks that the parser never panics and that whatever it
// accepts formats back to the same string (fields joined by one space).
func FuzzParseFEN(f *testing.F) {
	f.Add(StartFEN)
	for _, s := range benchPositions {
		f.Add(s)
	}
	f.Add("8/8/8/8/8/8/8/8 w 0 0 50 999")
	f.Add("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS13 b 0 0 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "position ") {
				t.Errorf("error does not name the input: %v", err)
			}
			return
		}
		if got, want := p.FEN(), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("%q formats as %q", want, got)
		}
		if p.Hash() != p.computeHash() {
			t.Fatalf("hash mismatch for %q", s)
		}
		p.CountMoves()
		p.Over()
	})
}
