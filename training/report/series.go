// Package report draws a training run's learning curves from its
// metrics: each rated checkpoint's Elo, on the run's own scale and over
// each fixed opponent, against training hours and against self-play
// positions, with the 95% interval as a band; for three-player runs each
// net's lead a game against each fixed opponent; and the training losses
// against steps. Several runs can share one chart, so that two recipes
// can be compared on one picture.
package report

import (
	"math"

	"trench/arena"
	"trench/training"
	"trench/training/generations"
)

// Run is one run's metrics under the name its curves carry.
type Run struct {
	Name  string
	Lines []training.Metrics
	// Generations holds the lines of a run of the NNUE's generation loop
	// (package training/generations), whose losses are its own; Lines then
	// holds the same lines read for the fields both loops write (time,
	// positions, arena matches and Elo).
	Generations []generations.Metrics
}

// Bound says whether a point is an estimate or only a bound: a match won
// or lost outright has an infinite Elo estimate, and the point then
// stands at the finite end of its interval.
type Bound int

const (
	// Estimate is a finite Elo estimate with its interval.
	Estimate Bound = iota
	// AtLeast is a lower bound: the match was won outright.
	AtLeast
	// AtMost is an upper bound: the match was lost outright.
	AtMost
)

// Point is one checkpoint's measure in a series: its Elo, or for a
// three-player match its lead in points a game.
type Point struct {
	// Line is the index of the metrics line the point comes from.
	Line int
	// Value is the estimate, or the bound that stands for it.
	Value float64
	// Low and High are the 95% interval's ends; an infinite end is
	// clipped to Elo.
	Low, High float64
	Bound     Bound
}

// Series is one curve: the run's own scale, the Elo over one fixed
// opponent, or the lead against one.
type Series struct {
	Name   string
	Points []Point
	// Omitted counts the matches whose Elo had no finite bound at all.
	Omitted int
}

// EloSeries gathers a run's curves from the lines that carry an arena
// match: first each rated checkpoint's Elo on the run's scale (the
// first, random net at 0; its interval is that of the match against the
// previous rated checkpoint), then the Elo over each fixed opponent in
// the order they first appear.
func EloSeries(lines []training.Metrics) []*Series {
	own := &Series{Name: "on the run's scale"}
	for i, l := range lines {
		if l.Elo == nil {
			continue
		}
		lo, hi := *l.Elo, *l.Elo
		if l.Arena != nil && l.Arena.VsPrevious != nil {
			e := l.Arena.VsPrevious.Elo
			if isFinite(e.Elo) {
				lo, hi = *l.Elo-(e.Elo-e.Low), *l.Elo+(e.High-e.Elo)
			}
		}
		own.add(i, *l.Elo, lo, hi)
	}
	order := opponentSeries(lines, "over ", func(st arena.Standing) (v, low, high float64, ok bool) {
		return st.Elo.Elo, st.Elo.Low, st.Elo.High, true
	})
	if len(own.Points)+own.Omitted > 0 {
		order = append([]*Series{own}, order...)
	}
	return order
}

// opponentSeries gathers a curve for each fixed opponent of the lines'
// arena matches, in the order first met, named prefix and the
// opponent's name, with a point for each match that point measures.
func opponentSeries(lines []training.Metrics, prefix string, point func(arena.Standing) (v, low, high float64, ok bool)) []*Series {
	byName := map[string]*Series{}
	var order []*Series
	for i, l := range lines {
		if l.Arena == nil {
			continue
		}
		for _, st := range l.Arena.VsBaselines {
			v, low, high, ok := point(st)
			if !ok {
				continue
			}
			s := byName[st.Opponent]
			if s == nil {
				s = &Series{Name: prefix + st.Opponent}
				byName[st.Opponent] = s
				order = append(order, s)
			}
			s.add(i, v, low, high)
		}
	}
	return order
}

// add appends a point, turning an infinite estimate into the bound its
// interval gives, and counting one with no finite bound as omitted.
func (s *Series) add(line int, v, low, high float64) {
	p := Point{Line: line, Value: v, Low: low, High: high}
	switch {
	case isFinite(v):
	case v > 0 && isFinite(low):
		p.Value, p.Bound = low, AtLeast
	case v < 0 && isFinite(high):
		p.Value, p.Bound = high, AtMost
	default:
		s.Omitted++
		return
	}
	if !isFinite(p.Low) || p.Low > p.Value {
		p.Low = p.Value
	}
	if !isFinite(p.High) || p.High < p.Value {
		p.High = p.Value
	}
	s.Points = append(s.Points, p)
}

// LeadSeries gathers a run's lead curves from the lines that carry an
// arena match of three players: for each fixed opponent in the order it
// first appears, the points a game the rated net scored above the mean
// of the opponent's two copies, with the 95% interval per opening group.
// Two-player matches have no lead and give no curve.
func LeadSeries(lines []training.Metrics) []*Series {
	return opponentSeries(lines, "against ", func(st arena.Standing) (v, low, high float64, ok bool) {
		if st.Lead == nil {
			return 0, 0, 0, false
		}
		return st.Lead.Mean, st.Lead.Low, st.Lead.High, true
	})
}

func isFinite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
