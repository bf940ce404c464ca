package train

import (
	"math"
	"slices"
	"testing"

	"trench/nnue"
)

// TestTrenchLossesUnchanged pins the losses of a small fixed training
// run, so that changes to the trainer's code keep Trench's training
// exactly as it was. The vector loops fuse multiplies and adds, the Go
// ones do not: each has its own losses.
func TestTrenchLossesUnchanged(t *testing.T) {
	records := randomGames(t, 3, 12, scoreDifference)
	canVector := vector
	defer func() { vector = canVector }()
	for _, tc := range []struct {
		vector  bool
		threads int
		want    []uint64
	}{
		{false, 1, []uint64{0x3fac52837c38f9d4, 0x3fa3aa908f3c7325, 0x3f98fbe922bfca1e, 0x3f9071ee62ae7a78, 0x3f885199a0bb0d71}},
		{false, 2, []uint64{0x3fac52837c809194, 0x3fa3aa909002b431, 0x3f98fbe92a1eff6f, 0x3f9071ee65ad632a, 0x3f8851999bd6d7ee}},
		{true, 1, []uint64{0x3fac52837e250718, 0x3fa3aa9090566f08, 0x3f98fbe92091860b, 0x3f9071ee67fed9ec, 0x3f885199a1d8c06b}},
		{true, 2, []uint64{0x3fac52837d3c0a83, 0x3fa3aa908f4533f5, 0x3f98fbe92398e18c, 0x3f9071ee6a8adf27, 0x3f885199b301de6e}},
	} {
		if tc.vector && !canVector {
			continue
		}
		vector = tc.vector
		cfg := DefaultConfig()
		cfg.Threads = tc.threads
		tr, err := New(cfg, nnue.Trench, 16, 13)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		for range 4 {
			got = append(got, math.Float64bits(tr.Epoch(records, 64)))
		}
		got = append(got, math.Float64bits(tr.ValidationLoss(records)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("vector loops %v, %d threads: losses %#x, want %#x", tc.vector, tc.threads, got, tc.want)
		}
	}
}
