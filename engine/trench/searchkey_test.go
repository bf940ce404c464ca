package trench

import "testing"

// The search key tells apart positions that differ in the quiet-ply count
// only, which the hash does not.
func TestSearchKey(t *testing.T) {
	tests := []struct {
		a, b     string
		sameKey  bool
		sameHash bool
	}{
		{"7g/8/4Pk2/8/8/8/8/G7 b 0 0 0 1", "7g/8/4Pk2/8/8/8/8/G7 b 0 0 0 9", true, true},
		{"7g/8/4Pk2/8/8/8/8/G7 b 0 0 0 1", "7g/8/4Pk2/8/8/8/8/G7 b 0 0 12 1", false, true},
		{"7g/8/4Pk2/8/8/8/8/G7 b 0 0 0 1", "7g/8/4Pk2/8/8/8/8/G7 w 0 0 0 1", false, false},
	}
	for _, tt := range tests {
		a, b := mustState(t, tt.a), mustState(t, tt.b)
		if got := a.Hash() == b.Hash(); got != tt.sameHash {
			t.Errorf("%s and %s: same hash %v, want %v", tt.a, tt.b, got, tt.sameHash)
		}
		if got := a.SearchKey() == b.SearchKey(); got != tt.sameKey {
			t.Errorf("%s and %s: same search key %v, want %v", tt.a, tt.b, got, tt.sameKey)
		}
	}
}

func mustState(t *testing.T, fen string) *State {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return NewState(p)
}
