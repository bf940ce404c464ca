package engine

import "testing"

// namedGame is a Game that only answers its name; Same asks no more.
type namedGame struct {
	Game
	name string
}

func (g namedGame) Name() string { return g.name }

func TestSame(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"trench", "trench", true},
		{"trench", "trichess", false},
		{"tictactoe", "trench", false},
	} {
		if got := Same(namedGame{name: tc.a}, namedGame{name: tc.b}); got != tc.want {
			t.Errorf("Same(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
