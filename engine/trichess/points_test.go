package trichess

import (
	"math"
	"testing"
)

func TestExpectedPoints(t *testing.T) {
	for title := Serf; title <= Seigneur; title++ {
		u := float64(2*title.Points()-3) / 3
		if got := ExpectedPoints(u); math.Abs(got-float64(title.Points())) > 1e-9 {
			t.Errorf("ExpectedPoints(%v) = %v, want %s's %d", u, got, title, title.Points())
		}
	}
}
