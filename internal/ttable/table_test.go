package ttable

import (
	"testing"
)

func TestTable(t *testing.T) {
	tt := NewTable[int32](4)
	if _, ok := tt.Probe(0); ok {
		t.Fatal("an empty table holds key 0")
	}
	tt.Store(5, 3, 100, Exact, 7)
	if en, ok := tt.Probe(5); !ok || en.Score != 100 || en.Move != 7 || en.Depth != 3 || en.Bound != Exact {
		t.Fatalf("Probe(5) = %+v, %v", en, ok)
	}
	if _, ok := tt.Probe(5 + 16); ok {
		t.Error("a key sharing the slot was taken for the stored one")
	}
	for _, tc := range []struct {
		name   string
		depth  int
		bound  Bound
		stored bool
	}{
		{"shallower bound", 2, Lower, false},
		{"leaf value", 0, Exact, false},
		{"shallower exact", 2, Exact, true},
		{"deeper bound", 4, Upper, true},
	} {
		tt.Store(5, tc.depth, -1, tc.bound, 9)
		en, _ := tt.Probe(5)
		if (en.Score == -1) != tc.stored {
			t.Errorf("%s: stored %v, want %v", tc.name, en.Score == -1, tc.stored)
		}
		tt.Store(5, 3, 100, Exact, 7)
	}
	tt.Store(5+16, 1, 1, Lower, 2) // another position takes the slot
	if en, ok := tt.Probe(5 + 16); !ok || en.Score != 1 {
		t.Errorf("another position did not replace the slot: %+v", en)
	}
	tt.Clear()
	if _, ok := tt.Probe(5 + 16); ok {
		t.Error("Clear kept an entry")
	}
}

func TestCuts(t *testing.T) {
	for _, tc := range []struct {
		bound        Bound
		s, alpha, bt int
		cuts         bool
	}{
		{Exact, 0, -10, 10, true},
		{Lower, 10, -10, 10, true},
		{Lower, 9, -10, 10, false},
		{Upper, -10, -10, 10, true},
		{Upper, -9, -10, 10, false},
	} {
		if got := (Entry[int32]{Bound: tc.bound}).Cuts(tc.s, tc.alpha, tc.bt); got != tc.cuts {
			t.Errorf("bound %d, score %d in (%d, %d): Cuts = %v", tc.bound, tc.s, tc.alpha, tc.bt, got)
		}
	}
}

func TestWinDistance(t *testing.T) {
	const win, bound = 1000, 900
	for _, tc := range []struct{ score, ply, stored int }{
		{win - 5, 3, win - 2},   // a win 5 plies from the root is 2 from a node 3 deep
		{-win + 5, 3, -win + 2}, // and a loss likewise
		{42, 3, 42},             // other scores do not move
	} {
		got := ToTable(tc.score, tc.ply, bound)
		if int(got) != tc.stored || FromTable(got, tc.ply, bound) != tc.score {
			t.Errorf("ToTable(%d, %d) = %d, want %d and back", tc.score, tc.ply, got, tc.stored)
		}
	}
}
