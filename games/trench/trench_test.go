package trench

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/checkpoints"
	"trench/engine/trench"
	"trench/games/plugin"
	"trench/nn"
)

func TestClassical(t *testing.T) {
	c := Plugin.Classical
	s, err := c.NewSearcher(12)
	if err != nil {
		t.Fatal(err)
	}
	start := trench.Game.Start()
	r, err := s.Search(context.Background(), start, plugin.ClassicalLimits{Depth: 2})
	if err != nil || !slices.Contains(start.LegalActions(nil), r.Action) || r.Depth != 2 || r.Forced != 0 {
		t.Errorf("Search = %+v, %v; want a legal action, depth 2, nothing forced", r, err)
	}
	// Black to move with a winning capture at hand: the engine takes it.
	win, err := trench.Game.ParseState("7g/8/8/8/8/8/8/Gs6 b 23 0 0 20")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Search(context.Background(), win, plugin.ClassicalLimits{Depth: 1}); err != nil || win.ActionString(r.Action) != "a1b1" || r.Forced != 1 {
		t.Errorf("Search in a won position = %s %+v, %v; want a1b1, a forced win", win.ActionString(r.Action), r, err)
	}
	if v := c.Value(start); v <= -1 || v >= 1 {
		t.Errorf("Value(start) = %v, want inside (-1, 1)", v)
	}
	if nps, err := c.NodesPerSecond(context.Background(), time.Millisecond); err != nil || !(nps > 0) {
		t.Errorf("NodesPerSecond = %v, %v", nps, err)
	}
	if _, err := c.NewSearcher(99); err == nil {
		t.Error("a table of 2^99 entries was accepted")
	}
}

func TestWebBoard(t *testing.T) {
	s, err := trench.Game.ParseState("7g/8/8/8/8/8/8/Gs6 b 23 0 0 20")
	if err != nil {
		t.Fatal(err)
	}
	w := Plugin.Web
	if got := w.Pieces(s); len(got) != 3 || got["a1"] != "G" || got["b1"] != "s" || got["h8"] != "g" {
		t.Errorf("Pieces = %v", got)
	}
	moves := w.Moves(s)
	if len(moves) != len(s.LegalActions(nil)) {
		t.Errorf("%d moves, %d legal actions", len(moves), len(s.LegalActions(nil)))
	}
	i := slices.IndexFunc(moves, func(m plugin.WebMove) bool { return m.Move == "a1b1" })
	if i < 0 || !slices.Equal(moves[i].Captures, []string{"b1"}) || moves[i].From != "a1" || moves[i].To != "b1" {
		t.Errorf("a1b1 among %v", moves)
	}
	a, err := s.ParseAction("a1b1")
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := w.Move(s, a); !ok || m.Move != "a1b1" {
		t.Errorf("Move = %v, %v", m, ok)
	}
	st := w.Status(s)
	if !slices.Equal(st.Scores, []int{23, 0}) || st.WinScore != 25 || st.MoveNumber != 20 || st.QuietLimit != trench.QuietLimit {
		t.Errorf("Status = %+v", st)
	}
}

func TestView(t *testing.T) {
	v := Plugin.Terminal
	s := trench.Game.Start()
	marks, list, err := v.PieceMoves(s, "d4")
	if err != nil || strings.Join(list, "; ") != "d4e4; d4d5" || marks[int(mustSquare(t, "d5"))] != plugin.MarkTarget {
		t.Errorf("PieceMoves(d4) = %v, %v, %v", marks, list, err)
	}
	for _, bad := range []string{"e5", "z9", "e4", ""} {
		if _, _, err := v.PieceMoves(s, bad); err == nil {
			t.Errorf("PieceMoves(%q) took it", bad)
		}
	}
	if st := v.Status(s, []bool{true, false}); !strings.Contains(st, "Black 0  White 0") || !strings.Contains(st, "black to play") {
		t.Errorf("Status = %q", st)
	}
}

func mustSquare(t *testing.T, name string) trench.Square {
	t.Helper()
	sq, err := trench.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// FuzzPieceMoves checks that any typed square is answered, never a panic,
// and that the moves listed are the piece's legal moves.
func FuzzPieceMoves(f *testing.F) {
	for _, s := range []string{"d4", "e5", "a1", "h9", "", "d", "D4", "\xff4"} {
		f.Add(s)
	}
	start := trench.Game.Start()
	legal := map[string]bool{}
	for _, a := range start.LegalActions(nil) {
		legal[start.ActionString(a)] = true
	}
	f.Fuzz(func(t *testing.T, text string) {
		marks, list, err := Plugin.Terminal.PieceMoves(start, text)
		if err != nil {
			return
		}
		if len(marks) == 0 {
			t.Errorf("%q: no marks", text)
		}
		for _, m := range list {
			if !legal[strings.Fields(m)[0]] {
				t.Errorf("%q: %s is not legal", text, m)
			}
		}
	})
}

// TestDefaultNet checks that the built-in net decodes as a Trench net.
func TestDefaultNet(t *testing.T) {
	n := Plugin.DefaultNet
	c, err := checkpoints.Decode(n.Data(), n.Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nn.WeightsFromCheckpoint(c, trench.Game.FeatureShape(), trench.Game.ActionCount()); err != nil {
		t.Errorf("the built-in net does not fit Trench: %v", err)
	}
}

func TestDivideSumsToPerft(t *testing.T) {
	pos, err := Plugin.Perft.Parse(trench.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	lines := pos.Divide(4)
	var sum uint64
	for _, l := range lines {
		sum += l.Nodes
	}
	if len(lines) != 14 || sum != 78372 || sum != pos.Perft(4) {
		t.Errorf("divide 4: %d moves summing to %d, want 14 summing to 78372", len(lines), sum)
	}
	if lines := pos.Divide(0); lines != nil {
		t.Errorf("divide 0 = %v, want none", lines)
	}
}
