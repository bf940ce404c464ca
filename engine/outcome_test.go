package engine_test

import (
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// plain hides a state's Describer, to test the fallback.
type plain struct{ engine.State }

func TestEndReasonAndTitles(t *testing.T) {
	parse := func(g engine.Game, text string, moves ...string) engine.State {
		t.Helper()
		s, err := g.ParseState(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			a, err := s.ParseAction(m)
			if err != nil {
				t.Fatal(err)
			}
			s.Play(a)
		}
		return s
	}
	ttt := func(moves ...int) engine.State {
		s := tictactoe.Game{}.Start()
		for _, a := range moves {
			s.Play(a)
		}
		return s
	}
	tests := []struct {
		name   string
		s      engine.State
		reason string
		titles []string
	}{
		{"trench start", trench.Game.Start(), "", []string{"", ""}},
		{"trench 25 points", parse(trench.Game, "Gp1s1P2/8/8/8/8/8/8/8 b 22 0 0 1", "a8d8"), "25 points", []string{"win", "loss"}},
		{"trench quiet plies", parse(trench.Game, "8/8/8/8/8/8/1p6/P7 b 2 2 49 30", "a1a2"), "50 plies without capture", []string{"draw", "draw"}},
		{"trench no legal move", parse(trench.Game, "8/8/8/8/8/8/8/7p b 20 0 0 1"), "no legal move", []string{"win", "loss"}},
		{"tictactoe row", ttt(0, 3, 1, 4, 2), "three in a row", []string{"win", "loss"}},
		{"tictactoe full", ttt(0, 1, 2, 4, 3, 5, 7, 6, 8), "full board", []string{"draw", "draw"}},
		{"trichess start", trichess.Game.Start(), "", []string{"", "", ""}},
		{"fallback trench", plain{parse(trench.Game, "8/8/8/8/8/8/8/7p b 20 0 0 1")}, "game over", []string{"win", "loss"}},
		{"fallback going on", plain{trench.Game.Start()}, "", []string{"", ""}},
	}
	for _, tc := range tests {
		if got := engine.EndReason(tc.s); got != tc.reason {
			t.Errorf("%s: EndReason %q, want %q", tc.name, got, tc.reason)
		}
		for p, want := range tc.titles {
			if got := engine.Title(tc.s, p); got != want {
				t.Errorf("%s: Title(%d) %q, want %q", tc.name, p, got, want)
			}
		}
		if got := engine.Title(tc.s, len(tc.titles)); got != "" {
			t.Errorf("%s: Title of a player out of range %q, want none", tc.name, got)
		}
	}
}
