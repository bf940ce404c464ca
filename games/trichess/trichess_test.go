package trichess

import (
	"slices"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/engine/trichess"
	"trench/games/plugin"
	"trench/nn"
)

func TestWebBoard(t *testing.T) {
	s := trichess.Game.Start()
	w := Plugin.Web
	if got := w.Pieces(s); len(got) != 48 || got["We1"] != "wK" || got["Ra2"] != "rP" {
		t.Errorf("Pieces: %d pieces, We1 %q, Ra2 %q", len(got), got["We1"], got["Ra2"])
	}
	moves := w.Moves(s)
	if len(moves) != len(s.LegalActions(nil)) {
		t.Errorf("%d moves, %d legal actions", len(moves), len(s.LegalActions(nil)))
	}
	a, err := s.ParseAction("We2We4")
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := w.Move(s, a); !ok || m.Move != "We2We4" || m.From != "We2" || len(m.Captures) != 0 {
		t.Errorf("Move = %v, %v", m, ok)
	}
	if _, ok := w.Move(s, -1); ok {
		t.Error("Move described action -1")
	}
	st := w.Status(s)
	if len(st.Material) != 3 || len(st.Checks) != 0 || st.MoveNumber != 1 || st.QuietLimit != trichess.QuietLimit {
		t.Errorf("Status = %+v", st)
	}
}

func TestView(t *testing.T) {
	v := Plugin.Terminal
	if got := v.Normalize("we2we4"); got != "We2We4" {
		t.Errorf("Normalize = %q", got)
	}
	if got := v.Normalize("wd2wd1=q"); got != "Wd2Wd1=Q" {
		t.Errorf("Normalize = %q", got)
	}
	s := trichess.Game.Start()
	_, list, err := v.PieceMoves(s, "we2")
	if err != nil || strings.Join(list, "; ") != "We2We3; We2We4" {
		t.Errorf("PieceMoves(we2) = %v, %v", list, err)
	}
	if _, _, err := v.PieceMoves(s, "Re2"); err == nil || !strings.Contains(err.Error(), "Red's; White is to move") {
		t.Errorf("PieceMoves(Re2) = %v", err)
	}
	if got := Plugin.RulesResult(s); got == "" {
		t.Error("no result text")
	}
	if p := Plugin.ExpectedPoints(1); p != 3 {
		t.Errorf("ExpectedPoints(1) = %v, want 3", p)
	}
}

// FuzzPieceMoves checks that any typed square is answered, never a panic,
// and that the moves listed are legal.
func FuzzPieceMoves(f *testing.F) {
	for _, s := range []string{"We2", "we2", "Re2", "Bz9", "", "W", "=", "\xffe2"} {
		f.Add(s)
	}
	start := trichess.Game.Start()
	var legal []string
	for _, a := range start.LegalActions(nil) {
		legal = append(legal, start.ActionString(a))
	}
	f.Fuzz(func(t *testing.T, text string) {
		marks, list, err := Plugin.Terminal.PieceMoves(start, text)
		if err != nil {
			return
		}
		if marks[int(mustSquare(t, Plugin.Terminal.Normalize(text)))] != plugin.MarkFrom {
			t.Errorf("%q: the piece is not marked", text)
		}
		for _, m := range list {
			if !slices.Contains(legal, strings.Fields(m)[0]) {
				t.Errorf("%q: %s is not legal", text, m)
			}
		}
	})
}

func mustSquare(t *testing.T, name string) trichess.Square {
	t.Helper()
	sq, err := trichess.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// TestDefaultNet checks that the built-in net decodes as a Trichess net
// with a value for each of the three seats.
func TestDefaultNet(t *testing.T) {
	n := Plugin.DefaultNet
	c, err := checkpoints.Decode(n.Data(), n.Name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.WeightsFromCheckpoint(c, trichess.Game.FeatureShape(), trichess.Game.ActionCount())
	if err != nil {
		t.Fatalf("the built-in net does not fit Trichess: %v", err)
	}
	if w.Config.Seats != 3 {
		t.Errorf("the built-in net has %d seats, want 3", w.Config.Seats)
	}
}
