package engine

import "testing"

func TestKeys(t *testing.T) {
	// splitmix64's first outputs from seed 0, as its reference
	// implementation gives them.
	k := NewKeys(0)
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := k.Next(); got != want {
			t.Errorf("key %d from seed 0 = %#x, want %#x", i, got, want)
		}
	}
	a, b := NewKeys(7), NewKeys(7)
	seen := map[uint64]bool{}
	for range 1000 {
		x := a.Next()
		if x != b.Next() {
			t.Fatal("two streams of one seed differ")
		}
		if seen[x] {
			t.Fatalf("key %#x drawn twice", x)
		}
		seen[x] = true
	}
}
