package arena

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// Interval is an Elo difference with its 95% confidence interval.
type Interval struct {
	Elo, Low, High float64
}

// String is e.g. "+35.2 [+12.0, +58.9]".
func (i Interval) String() string {
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", i.Elo, i.Low, i.High)
}

// EloFromScore is the Elo difference that gives the expected score s
// under the logistic model: -400·log10(1/s - 1). It is ±Inf at 0 and 1.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	case s == 0.5:
		return 0 // not -0
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the expected score of a player d Elo stronger.
func ScoreFromElo(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// scoreInterval turns a mean score and the variance of one observation,
// over n observations, into an Elo interval.
func scoreInterval(mean, variance float64, n int) Interval {
	se := math.Sqrt(variance / float64(n))
	return Interval{EloFromScore(mean), EloFromScore(mean - z95*se), EloFromScore(mean + z95*se)}
}

// TrinomialElo is the Elo difference from wins, draws and losses, with a
// 95% interval from the per-game variance of the score. With no games it
// is 0 [-Inf, +Inf]; for games all of one result, see dist.
func TrinomialElo(w, d, l int) Interval {
	return dist([]float64{0, 0.5, 1}, []int{l, d, w})
}

// PentanomialElo is the Elo difference from game pairs counted by the
// first player's points in the pair (index 0..4 for 0, ½, 1, 1½, 2), with
// a 95% interval from the per-pair variance.
func PentanomialElo(pairs [5]int) Interval {
	return dist([]float64{0, 0.25, 0.5, 0.75, 1}, pairs[:])
}

// dist is the Elo interval of a score distribution: values and counts.
// When every observation is alike the data show no spread to measure the
// interval by. All won (or all lost) then gets the exact binomial
// (Clopper-Pearson) bound: the score p with p^n = 2.5%; anything else
// (no games, all drawn) an unbounded interval.
func dist(values []float64, counts []int) Interval {
	mean, variance, n := moments(values, counts)
	switch {
	case n > 0 && variance == 0 && mean == 1:
		return Interval{math.Inf(1), EloFromScore(math.Pow(0.025, 1/float64(n))), math.Inf(1)}
	case n > 0 && variance == 0 && mean == 0:
		return Interval{math.Inf(-1), math.Inf(-1), EloFromScore(1 - math.Pow(0.025, 1/float64(n)))}
	case n == 0 || variance == 0:
		return Interval{EloFromScore(mean), math.Inf(-1), math.Inf(1)}
	}
	return scoreInterval(mean, variance, n)
}

func moments(values []float64, counts []int) (mean, variance float64, n int) {
	for i, c := range counts {
		n += c
		mean += values[i] * float64(c)
	}
	if n == 0 {
		return 0.5, 0, 0
	}
	mean /= float64(n)
	for i, c := range counts {
		d := values[i] - mean
		variance += d * d * float64(c)
	}
	return mean, variance / float64(n), n
}

// SPRT is a sequential probability ratio test of H0: the Elo difference
// is Elo0, against H1: it is Elo1 (logistic Elo), with false-positive
// rate Alpha and false-negative rate Beta.
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
}

// Validate reports a test that cannot be run.
func (t SPRT) Validate() error {
	switch {
	case !(t.Elo1 > t.Elo0):
		return fmt.Errorf("sprt: elo1 (%g) must be above elo0 (%g)", t.Elo1, t.Elo0)
	case math.Abs(t.Elo0) > 1000 || math.Abs(t.Elo1) > 1000:
		return errors.New("sprt: elo0 and elo1 must be within ±1000")
	}
	return checkRates("sprt", t.Alpha, t.Beta)
}

// checkRates reports a sequential test's error rates outside (0, 0.5),
// the test named by name.
func checkRates(name string, alpha, beta float64) error {
	if !(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5) {
		return fmt.Errorf("%s: alpha and beta must be in (0, 0.5), got %g and %g", name, alpha, beta)
	}
	return nil
}

// Bounds are the log-likelihood ratio's stopping bounds:
// log(β/(1-α)) accepts H0, log((1-β)/α) accepts H1.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of H1 against H0 for a sample of n
// observations with the given mean score and per-observation variance,
// in the normal approximation of the generalised SPRT (as fishtest and
// the chess programming wiki compute it):
//
//	LLR = n·(s1-s0)·(2·mean - s0 - s1) / (2·variance)
//
// with s0, s1 the expected scores of Elo0 and Elo1. For pairs of games
// the mean and variance are of the pair's score per game.
func (t SPRT) LLR(mean, variance float64, n int) float64 {
	if n == 0 || variance <= 0 {
		return 0
	}
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	return float64(n) * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// TrinomialLLR is the LLR from wins, draws and losses.
func (t SPRT) TrinomialLLR(w, d, l int) float64 {
	return t.llr([]float64{0, 0.5, 1}, []int{l, d, w})
}

// PentanomialLLR is the LLR from game pairs (index 0..4 for the first
// player's 0, ½, 1, 1½, 2 points in the pair).
func (t SPRT) PentanomialLLR(pairs [5]int) float64 {
	return t.llr([]float64{0, 0.25, 0.5, 0.75, 1}, pairs[:])
}

// unseenCount is how many times llr counts an outcome never seen: half
// an observation, the weight a Jeffreys prior (Dirichlet ½) gives each
// outcome. fishtest counts unseen outcomes 0.001 times, but it computes
// the exact likelihood ratio, whose step per observation is bounded; in
// the normal approximation used here the LLR divides by the variance,
// and a variance made of 0.001-counts let a single won pair accept H1.
// With ½, all pairs won accept 200 Elo against 0 after 6 pairs, where
// fishtest's exact ratio takes 8.
const unseenCount = 0.5

// llr is the LLR of a score distribution. Once any outcome has been seen,
// each outcome never seen counts unseenCount times, so that a one-sided
// result such as all wins has a variance, and takes several observations
// to end the test.
func (t SPRT) llr(values []float64, counts []int) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return 0
	}
	var total, mean, variance float64
	w := make([]float64, len(counts))
	for i, c := range counts {
		w[i] = float64(c)
		if c == 0 {
			w[i] = unseenCount
		}
		total += w[i]
		mean += values[i] * w[i]
	}
	mean /= total
	for i := range w {
		d := values[i] - mean
		variance += d * d * w[i]
	}
	return t.LLR(mean, variance/total, n)
}

// Decision is where an SPRT stands.
type Decision int

// The three states of an SPRT.
const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "undecided"
}

// SPRTResult is an SPRT's state after some pairs.
type SPRTResult struct {
	Test         SPRT
	LLR          float64
	Lower, Upper float64
	Decision     Decision
}

// String is e.g. "LLR 2.98 (-2.94, 2.94) [0, 10]: H1 accepted".
func (r SPRTResult) String() string {
	return fmt.Sprintf("LLR %.2f (%.2f, %.2f) [%g, %g]: %s", r.LLR, r.Lower, r.Upper, r.Test.Elo0, r.Test.Elo1, r.Decision)
}

// Result computes the test on a meeting's finished pairs (pentanomial).
func (t SPRT) Result(m Meeting) SPRTResult {
	r := SPRTResult{Test: t, LLR: t.PentanomialLLR(m.PairScores)}
	r.Lower, r.Upper = t.Bounds()
	switch {
	case r.LLR >= r.Upper:
		r.Decision = AcceptH1
	case r.LLR <= r.Lower:
		r.Decision = AcceptH0
	}
	return r
}

// MarshalJSON writes the interval as {"elo":..,"low":..,"high":..}, an
// infinite bound (a score of 0 or 100%) as the string "+Inf" or "-Inf".
func (i Interval) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"elo":%s,"low":%s,"high":%s}`, jsonFloat(i.Elo), jsonFloat(i.Low), jsonFloat(i.High)), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (i *Interval) UnmarshalJSON(data []byte) error {
	var raw struct{ Elo, Low, High json.RawMessage }
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for _, f := range []struct {
		dst *float64
		src json.RawMessage
	}{{&i.Elo, raw.Elo}, {&i.Low, raw.Low}, {&i.High, raw.High}} {
		if err := readJSONFloat(f.src, f.dst); err != nil {
			return fmt.Errorf("elo interval: %w", err)
		}
	}
	return nil
}

// readJSONFloat reads a number jsonFloat wrote: a JSON number, or the
// string "+Inf" or "-Inf".
func readJSONFloat(src json.RawMessage, dst *float64) error {
	switch string(src) {
	case `"+Inf"`:
		*dst = math.Inf(1)
	case `"-Inf"`:
		*dst = math.Inf(-1)
	default:
		return json.Unmarshal(src, dst)
	}
	return nil
}

func jsonFloat(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return `"+Inf"`
	case math.IsInf(x, -1):
		return `"-Inf"`
	case math.IsNaN(x):
		return "null"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
