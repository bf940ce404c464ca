package report

import (
	"math"
	"strings"
	"testing"

	"trench/training"
)

func TestDoublings(t *testing.T) {
	// Checkpoints on Elo = 50 + 100·log₂ hours against "hand", ±40
	// each, from half an hour to 8.1 hours; "early" rated before 1 hour
	// alone; the run's own scale beside them.
	var lines []training.Metrics
	logs := []float64{-1, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, math.Log2(8.1)}
	for _, x := range logs {
		elo := 50 + 100*x
		l := rated(3600*math.Exp2(x), 0, elo, standing("prev", 0, -10, 10), standing("hand", elo, elo-40, elo+40))
		if x < 0 {
			l.Arena.VsBaselines = append(l.Arena.VsBaselines, standing("early", 0, -40, 40))
		}
		lines = append(lines, l)
	}
	// An outright win is a bound, not an estimate: left out.
	lines = append(lines, rated(3600*3, 0, 0, standing("prev", 0, -10, 10), standing("hand", inf, 900, inf)))
	curves := Doublings(Run{Name: "r", Lines: lines})
	if len(curves) != 1 || curves[0].Series != "over hand" {
		t.Fatalf("curves %+v, want the curve over hand alone", curves)
	}
	c := curves[0]
	if c.Points != 7 || math.Abs(c.Slope-100) > 1e-9 || !(c.SlopeLow < 100 && c.SlopeHigh > 100) || c.SlopeHigh-c.SlopeLow > 100 {
		t.Errorf("fit over %d points: %v [%v, %v], want 100 from 7", c.Points, c.Slope, c.SlopeLow, c.SlopeHigh)
	}
	last := (2.25 + 2.75 + math.Log2(8.1)) / 3
	want := []struct{ from, to, elo, gain float64 }{
		{1, 2, 100, math.NaN()},
		{2, 4, 200, 100},
		{4, 8.1, 50 + 100*last, 100*last - 150},
	}
	if len(c.Doublings) != len(want) {
		t.Fatalf("%d doublings, want %d: %+v", len(c.Doublings), len(want), c.Doublings)
	}
	for i, w := range want {
		d := c.Doublings[i]
		if math.Abs(d.From-w.from) > 1e-9 || math.Abs(d.To-w.to) > 1e-9 || math.Abs(d.Elo-w.elo) > 1e-9 {
			t.Errorf("doubling %d: [%v, %v) %v, want [%v, %v) %v", i, d.From, d.To, d.Elo, w.from, w.to, w.elo)
		}
		if math.IsNaN(w.gain) != math.IsNaN(d.Gain) || (!math.IsNaN(w.gain) && math.Abs(d.Gain-w.gain) > 1e-9) {
			t.Errorf("doubling %d: gain %v, want %v", i, d.Gain, w.gain)
		}
		// Two or three checkpoints of ±40 (sd 40/1.96) averaged.
		sd := 40 / z95 * math.Sqrt(float64(d.Points)) / float64(d.Points)
		if math.Abs(d.High-d.Low-2*z95*sd) > 1e-6 {
			t.Errorf("doubling %d: interval [%v, %v], want ±%v", i, d.Low, d.High, z95*sd)
		}
	}
	text := c.String()
	for _, s := range []string{"over hand: +100 [", "Elo a doubling of the hours, fitted from 1 hour on (7 ratings)", "  1 h–2 h: +100 [", "  4 h–8.1 h: ", "over the doubling before"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	// Ratings scattered beyond their intervals widen the fit's.
	for i := range lines[1:8] {
		b := &lines[1+i].Arena.VsBaselines[0]
		b.Elo.Elo += float64(1-2*(i%2)) * 120
		b.Elo.Low, b.Elo.High = b.Elo.Elo-40, b.Elo.Elo+40
	}
	if s := Doublings(Run{Lines: lines})[0]; !(s.SlopeHigh-s.SlopeLow > c.SlopeHigh-c.SlopeLow) {
		t.Errorf("scattered ratings: interval [%v, %v], no wider than [%v, %v]", s.SlopeLow, s.SlopeHigh, c.SlopeLow, c.SlopeHigh)
	}
	// A run rated in one doubling has no curve to tell.
	if cs := Doublings(Run{Lines: lines[1:3]}); len(cs) != 0 {
		t.Errorf("one doubling: %+v", cs)
	}
}
