package bench

import (
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/engine/trichess"
)

func TestLineString(t *testing.T) {
	for _, tc := range []struct {
		l    Line
		want string
	}{
		{Line{Name: "alphabeta", Value: 1234567.89, Unit: "nodes/s"},
			"  alphabeta                                                         1234567.9 nodes/s"},
		{Line{Name: "fast forward, batch 32", Value: 12.34, Unit: "GFLOP/s", Note: "40% of peak"},
			"  fast forward, batch 32                                                 12.3 GFLOP/s (40% of peak)"},
	} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("String() =\n%q, want\n%q", got, tc.want)
		}
	}
}

func TestPresetWeightsAndHeader(t *testing.T) {
	w, err := PresetWeights(trichess.Game, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if w.Config.Seats != 3 {
		t.Errorf("a Trichess net has %d seats, want 3", w.Config.Seats)
	}
	again, err := PresetWeights(trichess.Game, "tiny")
	if err != nil || again.Tensors[0].Data[0] != w.Tensors[0].Data[0] {
		t.Errorf("two nets of one preset differ (%v)", err)
	}
	if _, err := PresetWeights(trench.Game, "enormous"); err == nil || !strings.Contains(err.Error(), "enormous") {
		t.Errorf("an unknown preset: %v", err)
	}
	var b strings.Builder
	WriteHeader(&b, Options{Game: trichess.Game, Weights: w, NetName: "tiny"})
	if h := b.String(); !strings.HasPrefix(h, "trichess, net tiny (") || !strings.Contains(h, "MFLOP a position), blas ") || !strings.HasSuffix(h, " cores\n") {
		t.Errorf("header %q", h)
	}
}
