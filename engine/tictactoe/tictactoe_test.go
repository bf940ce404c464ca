package tictactoe

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"trench/engine"
)

func mustParse(t *testing.T, text string) *State {
	t.Helper()
	s, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return s
}

func TestParseRoundTrip(t *testing.T) {
	for _, text := range []string{".../.../... x", "x.o/.x./... o", "xxx/oo./... o", "xox/xoo/oxx o"} {
		s := mustParse(t, text)
		if got := s.String(); got != text {
			t.Errorf("Parse(%q).String() = %q", text, got)
		}
	}
	if got := (Game{}).Start().String(); got != ".../.../... x" {
		t.Errorf("Start().String() = %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{".../.../...", "want 2 fields"},
		{".../... x", "want 3 rows"},
		{"..../.../... x", "board row 1"},
		{".../.z./... x", "board row 2"},
		{".../.../... y", "mover: want x or o"},
		{"x../.../... x", "cannot have x to move"},
		{"xxx/ooo/x.. o", "both players have a line"},
		{"xxx/oo./o.. o", "cannot have o to move"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", tc.text, err, tc.want)
		}
	}
}

func TestPlayAndResult(t *testing.T) {
	tests := []struct {
		moves  []int
		over   bool
		result []float32
	}{
		{nil, false, []float32{0, 0}},
		{[]int{0, 3, 1, 4, 2}, true, []float32{1, -1}},
		{[]int{0, 3, 1, 4, 8, 5}, true, []float32{-1, 1}},
		{[]int{0, 1, 2, 4, 3, 5, 7, 6, 8}, true, []float32{0, 0}},
	}
	for _, tc := range tests {
		s := Game{}.Start()
		for _, a := range tc.moves {
			if err := engine.PlayChecked(s, a); err != nil {
				t.Fatalf("moves %v: %v", tc.moves, err)
			}
		}
		if s.Over() != tc.over {
			t.Errorf("moves %v: Over = %v, want %v", tc.moves, s.Over(), tc.over)
		}
		if tc.over {
			if got := s.Result(nil); !slices.Equal(got, tc.result) {
				t.Errorf("moves %v: Result = %v, want %v", tc.moves, got, tc.result)
			}
			if n := len(s.LegalActions(nil)); n != 0 {
				t.Errorf("moves %v: %d legal actions after the end", tc.moves, n)
			}
		} else if n := len(s.LegalActions(nil)); n != 9-len(tc.moves) {
			t.Errorf("moves %v: %d legal actions, want %d", tc.moves, n, 9-len(tc.moves))
		}
	}
}

func TestActions(t *testing.T) {
	s := mustParse(t, "x.o/.x./... o")
	tests := []struct {
		text string
		want int
		err  error
	}{
		{"b2", -1, engine.ErrIllegalAction},
		{"a1", 6, nil},
		{"c3", -1, engine.ErrIllegalAction},
		{"b3", 1, nil},
		{"8", 8, nil},
		{"9", -1, nil},
		{"d1", -1, nil},
	}
	for _, tc := range tests {
		a, err := s.ParseAction(tc.text)
		switch {
		case tc.want >= 0 && (err != nil || a != tc.want):
			t.Errorf("ParseAction(%q) = %d, %v; want %d", tc.text, a, err, tc.want)
		case tc.want < 0 && err == nil:
			t.Errorf("ParseAction(%q) = %d, want an error", tc.text, a)
		case tc.err != nil && !errors.Is(err, tc.err):
			t.Errorf("ParseAction(%q) error %v does not wrap %v", tc.text, err, tc.err)
		}
		if tc.want >= 0 && s.ActionString(tc.want) != tc.text && len(tc.text) == 2 {
			t.Errorf("ActionString(%d) = %q, want %q", tc.want, s.ActionString(tc.want), tc.text)
		}
	}
}

func TestSymmetries(t *testing.T) {
	s := mustParse(t, "x.o/.x./..o x")
	seen := map[string]bool{}
	for sym := range (Game{}).Symmetries() {
		ts := s.Transform(sym)
		seen[ts.String()] = true
		for _, a := range s.LegalActions(nil) {
			played := s.Clone()
			played.Play(a)
			ta := s.TransformAction(sym, a)
			other := ts.Clone()
			if err := engine.PlayChecked(other, ta); err != nil {
				t.Fatalf("sym %d action %d: %v", sym, a, err)
			}
			if got, want := other.String(), played.Transform(sym).String(); got != want {
				t.Errorf("sym %d action %d: %q, want %q", sym, a, got, want)
			}
		}
	}
	if len(seen) != 8 {
		t.Errorf("8 symmetries gave %d distinct positions", len(seen))
	}
}

func TestHash(t *testing.T) {
	a := Game{}.Start()
	for _, m := range []int{0, 4, 8} {
		a.Play(m)
	}
	b := Game{}.Start()
	for _, m := range []int{8, 4, 0} {
		b.Play(m)
	}
	if a.Hash() != b.Hash() {
		t.Errorf("transpositions hash differently: %x, %x", a.Hash(), b.Hash())
	}
	c := Game{}.Start()
	for _, m := range []int{0, 8, 4} {
		c.Play(m)
	}
	if a.Hash() == c.Hash() {
		t.Errorf("different positions share hash %x", a.Hash())
	}
}

func TestFeatures(t *testing.T) {
	s := mustParse(t, "x.o/.../... x")
	f := make([]float32, Game{}.FeatureShape().Size())
	s.EncodeFeatures(f)
	if f[0] != 1 || f[9+2] != 1 || f[2] != 0 || f[18+5] != 1 || f[9] != 0 {
		t.Errorf("features of %q wrong: %v", s, f)
	}
}

func TestSolve(t *testing.T) {
	tests := []struct {
		text   string
		values []float32
		best   []int
	}{
		{".../.../... x", []float32{0, 0}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"x../.../... o", []float32{0, 0}, []int{4}},
		{"xx./oo./... x", []float32{1, -1}, []int{2}},
		{"xx./.xo/o.. o", []float32{1, -1}, nil},
		{"x.o/.x./... o", []float32{0, 0}, []int{8}},
		{"xxx/oo./... o", []float32{1, -1}, nil},
	}
	for _, tc := range tests {
		values, best := Solve(mustParse(t, tc.text))
		if !slices.Equal(values, tc.values) {
			t.Errorf("Solve(%q) values = %v, want %v", tc.text, values, tc.values)
		}
		if tc.best != nil && !slices.Equal(best, tc.best) {
			t.Errorf("Solve(%q) best = %v, want %v", tc.text, best, tc.best)
		}
	}
}

// TestSpatialActions checks the layout engine.SpatialActions promises: an
// action is the square it marks, empty on both mark planes.
func TestSpatialActions(t *testing.T) {
	var g engine.Game = Game{}
	sp, ok := g.(engine.SpatialActions)
	if !ok || sp.ActionPlanes()*9 != g.ActionCount() {
		t.Fatalf("tic-tac-toe does not lay its %d actions out over its 3×3 board", g.ActionCount())
	}
	s := g.Start()
	f := make([]float32, g.FeatureShape().Size())
	for !s.Over() {
		s.EncodeFeatures(f)
		legal := s.LegalActions(nil)
		for _, a := range legal {
			if f[a] != 0 || f[9+a] != 0 {
				t.Fatalf("%s: action %d marks a square the features show taken", s, a)
			}
		}
		s.Play(legal[len(legal)/2])
	}
}
