package report

import (
	"fmt"
	"math"
	"strings"
)

// Doubling is the mean Elo of a curve's rated checkpoints in one doubling
// of the training hours, [From, To) (the last to the run's end).
type Doubling struct {
	From, To float64
	// Points is the number of checkpoints, Elo their mean Elo and Low,
	// High its 95% interval, each checkpoint's match taken as
	// independent of the others'.
	Points         int
	Elo, Low, High float64
	// Gain is Elo less the previous doubling's, with its 95% interval
	// (NaN for the first).
	Gain, GainLow, GainHigh float64
	// sd is the standard error of Elo.
	sd float64
}

// Curve is a fixed opponent's curve as doublings of the training hours
// from 1 hour on, and the Elo a doubling of the hours adds by a weighted
// least-squares line of Elo over log₂ hours through the same checkpoints.
type Curve struct {
	// Series names the curve (Series.Name).
	Series    string
	Doublings []Doubling
	// Slope is the fitted Elo a doubling, with its 95% interval; Points
	// the checkpoints fitted.
	Slope, SlopeLow, SlopeHigh float64
	Points                     int
}

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959964

// Doublings returns, for each curve of the run over a fixed opponent
// (EloSeries, the run's own scale left out), its doublings of the hours
// from 1 hour on ([1, 2), [2, 4), …; a last doubling the run entered by
// less than a quarter joins the one before) and
// the fitted Elo a doubling, for the curves with finite estimates in at
// least two doublings. Each checkpoint's spread is read from its 95%
// interval, (High − Low) / (2 · 1.96).
func Doublings(run Run) []Curve {
	var out []Curve
	for _, s := range EloSeries(run.Lines) {
		if !strings.HasPrefix(s.Name, "over ") {
			continue
		}
		var xs, ys, sds []float64
		for _, p := range s.Points {
			h := hours(run.Lines[p.Line])
			if p.Bound != Estimate || h < 1 || !(p.High > p.Low) {
				continue
			}
			xs = append(xs, math.Log2(h))
			ys = append(ys, p.Value)
			sds = append(sds, (p.High-p.Low)/(2*z95))
		}
		c := Curve{Series: s.Name, Points: len(xs)}
		end := 0.0
		for _, x := range xs {
			end = max(end, x)
		}
		// band is the doubling a checkpoint at log₂ hours x counts in: a
		// run that ends less than a quarter of a doubling into its last
		// (8.15 hours) closes the one before instead.
		last := math.Floor(end)
		short := last > 0 && end-last < 0.25
		if short {
			last--
		}
		band := func(x float64) float64 { return min(math.Floor(x), last) }
		for k := 0.0; k <= last; k++ {
			d := Doubling{From: math.Exp2(k), To: math.Exp2(k + 1), Gain: math.NaN(), GainLow: math.NaN(), GainHigh: math.NaN()}
			if short && k == last {
				d.To = math.Exp2(end)
			}
			variance := 0.0
			for i, x := range xs {
				if band(x) == k {
					d.Points++
					d.Elo += ys[i]
					variance += sds[i] * sds[i]
				}
			}
			if d.Points == 0 {
				continue
			}
			n := float64(d.Points)
			d.Elo /= n
			d.sd = math.Sqrt(variance) / n
			d.Low, d.High = d.Elo-z95*d.sd, d.Elo+z95*d.sd
			if len(c.Doublings) > 0 {
				prev := c.Doublings[len(c.Doublings)-1]
				sd := math.Hypot(d.sd, prev.sd)
				d.Gain = d.Elo - prev.Elo
				d.GainLow, d.GainHigh = d.Gain-z95*sd, d.Gain+z95*sd
			}
			c.Doublings = append(c.Doublings, d)
		}
		if len(c.Doublings) < 2 {
			continue
		}
		c.Slope, c.SlopeLow, c.SlopeHigh = fitSlope(xs, ys, sds)
		out = append(out, c)
	}
	return out
}

// fitSlope fits y = a + b·x by least squares weighted by 1/sd², and
// returns b with its 95% interval, its standard error scaled up by the
// residuals' spread when they scatter more than the sds say.
func fitSlope(xs, ys, sds []float64) (b, low, high float64) {
	var sw, sx, sy float64
	for i := range xs {
		w := 1 / (sds[i] * sds[i])
		sw += w
		sx += w * xs[i]
		sy += w * ys[i]
	}
	mx, my := sx/sw, sy/sw
	var sxx, sxy float64
	for i := range xs {
		w := 1 / (sds[i] * sds[i])
		sxx += w * (xs[i] - mx) * (xs[i] - mx)
		sxy += w * (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	b = sxy / sxx
	se := math.Sqrt(1 / sxx)
	if n := len(xs); n > 2 {
		chi2 := 0.0
		for i := range xs {
			r := (ys[i] - (my + b*(xs[i]-mx))) / sds[i]
			chi2 += r * r
		}
		se *= math.Sqrt(max(1, chi2/float64(n-2)))
	}
	return b, b - z95*se, b + z95*se
}

// String sets the curve out as text: the fitted Elo a doubling, then a
// line a doubling with its mean and its gain over the one before.
func (c Curve) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s Elo a doubling of the hours, fitted from 1 hour on (%d ratings)\n", c.Series, signedInterval(c.Slope, c.SlopeLow, c.SlopeHigh), c.Points)
	for _, d := range c.Doublings {
		fmt.Fprintf(&b, "  %s–%s: %s (%d)", hoursLabel(d.From), hoursLabel(d.To), signedInterval(d.Elo, d.Low, d.High), d.Points)
		if !math.IsNaN(d.Gain) {
			fmt.Fprintf(&b, ", %s over the doubling before", signedInterval(d.Gain, d.GainLow, d.GainHigh))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// signedInterval is "+x [+lo, +hi]" in whole Elo.
func signedInterval(x, lo, hi float64) string {
	return fmt.Sprintf("%+.0f [%+.0f, %+.0f]", x, lo, hi)
}
