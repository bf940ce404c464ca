package trichess

import (
	"strings"
	"testing"
)

// The search key tells apart positions that differ in the quiet-ply count
// only, which the hash does not.
func TestSearchKey(t *testing.T) {
	quiet := strings.Replace(StartFEN, " 0 1", " 12 1", 1)
	later := strings.Replace(StartFEN, " 0 1", " 0 7", 1)
	start := Game.Start().(*State)
	for _, tt := range []struct {
		fen     string
		sameKey bool
	}{{later, true}, {quiet, false}} {
		s, err := Game.ParseState(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		o := s.(*State)
		if o.Hash() != start.Hash() {
			t.Errorf("%s: hash differs from the start's", tt.fen)
		}
		if got := o.SearchKey() == start.SearchKey(); got != tt.sameKey {
			t.Errorf("%s: same search key as the start %v, want %v", tt.fen, got, tt.sameKey)
		}
	}
}
