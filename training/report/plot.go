package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"trench/training"
	"trench/training/generations"
)

// Result says what Write drew.
type Result struct {
	// Files are the paths written, PNG and SVG for each chart.
	Files []string
	// Elo tells whether any run had rated checkpoints to plot.
	Elo bool
	// Lead tells whether any run had three-player matches whose leads
	// were plotted.
	Lead bool
	// Omitted counts matches left out because their Elo had no finite
	// bound.
	Omitted int
}

// axis is an x axis of the Elo charts; a log axis leaves out the points
// at 0 or below and marks each doubling.
type axis struct {
	name, label string
	x           func(training.Metrics) float64
	log         bool
}

func hours(m training.Metrics) float64 { return m.Elapsed / 3600 }

// hoursAxis is the training hours, the x axis of elo-hours and lead-hours.
var hoursAxis = axis{"elo-hours", "training time (hours)", hours, false}

var eloAxes = []axis{
	hoursAxis,
	{"elo-log-hours", "training time (log scale: a mark each doubling)", hours, true},
	{"elo-positions", "self-play positions", func(m training.Metrics) float64 { return float64(m.Positions) }, false},
}

// doublingTicks marks a log axis of hours at each power of two, labelled
// in hours, minutes or seconds.
type doublingTicks struct{}

// Ticks implements plot.Ticker.
func (doublingTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if !(lo > 0) || !(hi >= lo) {
		return ticks
	}
	for k := math.Floor(math.Log2(lo)); k <= math.Ceil(math.Log2(hi)); k++ {
		v := math.Exp2(k)
		ticks = append(ticks, plot.Tick{Value: v, Label: hoursLabel(v)})
	}
	return ticks
}

// Write draws the runs' charts into dir as PNG and SVG: elo-hours,
// elo-log-hours (the hours on a log axis, when rated checkpoints lie at
// two different hours above 0) and elo-positions when any run has rated
// checkpoints, lead-hours when any has three-player matches against a
// fixed opponent, losses for the AlphaZero loop's runs, nnue-losses for
// the NNUE loop's, and fresh-losses when any run measured its nets on new positions
// (training.Metrics.FreshPositions). Each curve is named by its run when
// there are several.
func Write(runs []Run, dir string) (Result, error) {
	var res Result
	if len(runs) == 0 {
		return res, errors.New("report: no runs to draw")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	save := func(p *plot.Plot, name string) error {
		for _, ext := range []string{".png", ".svg"} {
			path := filepath.Join(dir, name+ext)
			if err := p.Save(24*vg.Centimeter, 14*vg.Centimeter, path); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			res.Files = append(res.Files, path)
		}
		return nil
	}
	elo, omitted := gatherCurves(runs, EloSeries)
	res.Omitted += omitted
	res.Elo = len(elo) > 0
	for _, ax := range eloAxes {
		if !res.Elo {
			break
		}
		if ax.log && !twoHours(elo, ax) {
			continue // a log axis needs two different hours above 0
		}
		p := newPlot("Elo of each rated checkpoint", ax.label, "Elo (band: 95% interval)")
		if ax.log {
			p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, doublingTicks{}
		}
		if err := drawCurves(p, elo, ax); err != nil {
			return res, err
		}
		if err := save(p, ax.name); err != nil {
			return res, err
		}
	}
	lead, _ := gatherCurves(runs, LeadSeries) // a lead, a mean of points, is always finite
	res.Lead = len(lead) > 0
	if res.Lead {
		p := newPlot("Lead of each rated net at a table of three", hoursAxis.label, "lead: points a game above the others' mean (band: 95% interval)")
		if err := drawCurves(p, lead, hoursAxis); err != nil {
			return res, err
		}
		if err := save(p, "lead-hours"); err != nil {
			return res, err
		}
	}
	var alphaZero, nnueRuns []Run
	for _, r := range runs {
		if r.Generations != nil {
			nnueRuns = append(nnueRuns, r)
		} else {
			alphaZero = append(alphaZero, r)
		}
	}
	if len(alphaZero) > 0 {
		p, _, err := lossPlot("Training losses", alphaZero, []lossCurve{
			{"total", func(m training.Metrics) float64 { return m.LossTotal }},
			{"policy", func(m training.Metrics) float64 { return m.LossPolicy }},
			{"value", func(m training.Metrics) float64 { return m.LossValue }},
			{"score", func(m training.Metrics) float64 { return m.LossScore }},
		}, func(training.Metrics) bool { return true })
		if err != nil {
			return res, err
		}
		if err := save(p, "losses"); err != nil {
			return res, err
		}
	}
	if len(nnueRuns) > 0 {
		p, err := generationLossPlot(nnueRuns, len(runs) > 1)
		if err != nil {
			return res, err
		}
		if err := save(p, "nnue-losses"); err != nil {
			return res, err
		}
	}
	if p, ok, err := freshPlot(runs); err != nil {
		return res, err
	} else if ok {
		if err := save(p, "fresh-losses"); err != nil {
			return res, err
		}
	}
	return res, nil
}

// curve is one series of one run, labelled for the chart's legend.
type curve struct {
	label string
	run   *Run
	s     *Series
	style curveStyle
}

// gatherCurves is every run's series by series, each labelled by its run
// when there are several and styled (curveStyles); omitted counts the
// matches the series left out.
func gatherCurves(runs []Run, series func([]training.Metrics) []*Series) (curves []curve, omitted int) {
	var names []string // each curve's series name
	var runOf []int    // each curve's run, by index
	for ri := range runs {
		r := &runs[ri]
		for _, s := range series(r.Lines) {
			omitted += s.Omitted
			if len(s.Points) == 0 {
				continue
			}
			label := s.Name
			if len(runs) > 1 {
				label = r.Name + ": " + s.Name
			}
			curves = append(curves, curve{label: label, run: r, s: s})
			names, runOf = append(names, s.Name), append(runOf, ri)
		}
	}
	for i, sty := range curveStyles(names, runOf) {
		curves[i].style = sty
	}
	return curves, omitted
}

// twoHours tells whether the curves have points at two different
// positions above 0 on ax.
func twoHours(curves []curve, ax axis) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for _, pt := range c.s.Points {
			if x := ax.x(c.run.Lines[pt.Line]); x > 0 {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	return hi > lo
}

// drawCurves adds the curves to p against ax, with the key to the
// bounds' glyphs and room for the legend.
func drawCurves(p *plot.Plot, curves []curve, ax axis) error {
	var bounds [3]bool
	for _, c := range curves {
		if err := addCurve(p, c.label, c.style, c.s, c.run.Lines, ax, &bounds); err != nil {
			return err
		}
	}
	keys := addBoundKey(p, bounds)
	makeLegendRoom(p, len(curves)+keys)
	return nil
}

// generationLossPlot draws the NNUE runs' training and validation
// losses against generations, naming each curve by its run if named.
func generationLossPlot(runs []Run, named bool) (*plot.Plot, error) {
	p := newPlot("NNUE losses", "generation", "loss")
	var args []any
	for _, r := range runs {
		for _, c := range []struct {
			name string
			v    func(generations.Metrics) float64
		}{
			{"training", func(m generations.Metrics) float64 { return m.TrainLoss }},
			{"validation", func(m generations.Metrics) float64 { return m.ValidationLoss }},
		} {
			var xys plotter.XYs
			for _, m := range r.Generations {
				xys = append(xys, plotter.XY{X: float64(m.Generation), Y: c.v(m)})
			}
			name := c.name
			if named {
				name = r.Name + ": " + c.name
			}
			args = append(args, name, xys)
		}
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return nil, err
	}
	makeLegendRoom(p, len(args)/2)
	return p, nil
}

// freshPlot draws the value and policy losses of each run's nets on new
// positions beside those of the search's aids alone on the same
// positions; ok is false when no run measured any.
func freshPlot(runs []Run) (p *plot.Plot, ok bool, err error) {
	return lossPlot("Losses on new self-play positions: the net against the aids alone", runs, []lossCurve{
		{"value, net", func(m training.Metrics) float64 { return m.FreshLossValue }},
		{"value, aids", func(m training.Metrics) float64 { return m.AidsLossValue }},
		{"policy, net", func(m training.Metrics) float64 { return m.FreshLossPolicy }},
		{"policy, aids", func(m training.Metrics) float64 { return m.AidsLossPolicy }},
	}, func(m training.Metrics) bool { return m.FreshPositions > 0 })
}

// lossPlot draws curves against training steps (lossSeries), with room
// at the top for the legend; ok is false when no curve has a point.
func lossPlot(title string, runs []Run, curves []lossCurve, measured func(training.Metrics) bool) (p *plot.Plot, ok bool, err error) {
	p = newPlot(title, "step", "loss")
	args := lossSeries(runs, curves, measured)
	if len(args) == 0 {
		return p, false, nil
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return nil, false, err
	}
	makeLegendRoom(p, len(args)/2)
	return p, true, nil
}

// lossCurve is one loss drawn against training steps.
type lossCurve struct {
	name string
	v    func(training.Metrics) float64
}

// lossSeries returns plotutil's name and points arguments for each run's
// curves over the metrics lines measured says have them, leaving out a
// curve without any; curves are named by their run when there are
// several.
func lossSeries(runs []Run, curves []lossCurve, measured func(training.Metrics) bool) []any {
	var args []any
	for _, r := range runs {
		for _, l := range curves {
			var xys plotter.XYs
			for _, m := range r.Lines {
				if measured(m) {
					xys = append(xys, plotter.XY{X: float64(m.Step), Y: l.v(m)})
				}
			}
			if len(xys) == 0 {
				continue
			}
			name := l.name
			if len(runs) > 1 {
				name = r.Name + ": " + l.name
			}
			args = append(args, name, xys)
		}
	}
	return args
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	return p
}

// hoursLabel says h hours in the largest unit that keeps it at least 1.
func hoursLabel(h float64) string {
	switch {
	case h >= 1:
		return strconv.FormatFloat(h, 'g', 3, 64) + " h"
	case h*60 >= 1:
		return strconv.FormatFloat(h*60, 'g', 3, 64) + " min"
	}
	return strconv.FormatFloat(h*3600, 'g', 3, 64) + " s"
}

// addCurve draws one series against ax: its interval as a translucent
// band, its estimates as a line, and each point as a glyph that says
// whether it is an estimate or a bound. bounds records which kinds of
// bound it drew.
func addCurve(p *plot.Plot, label string, sty curveStyle, s *Series, lines []training.Metrics, ax axis, bounds *[3]bool) error {
	var pts []Point
	for _, pt := range s.Points {
		if !ax.log || ax.x(lines[pt.Line]) > 0 {
			pts = append(pts, pt)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	n := len(pts)
	mid := make(plotter.XYs, n)
	band := make(plotter.XYs, 2*n)
	for j, pt := range pts {
		xv := ax.x(lines[pt.Line])
		mid[j] = plotter.XY{X: xv, Y: pt.Value}
		band[j] = plotter.XY{X: xv, Y: pt.High}
		band[2*n-1-j] = plotter.XY{X: xv, Y: pt.Low}
	}
	c := sty.color
	if n > 1 {
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return err
		}
		poly.Color = translucent(c)
		poly.LineStyle.Width = 0
		p.Add(poly)
	}
	line, err := plotter.NewLine(mid)
	if err != nil {
		return err
	}
	line.Color = c
	line.Dashes = sty.dashes
	p.Add(line)
	for _, kind := range []Bound{Estimate, AtLeast, AtMost} {
		var xys plotter.XYs
		for j, pt := range pts {
			if pt.Bound == kind {
				xys = append(xys, mid[j])
			}
		}
		if len(xys) == 0 {
			continue
		}
		bounds[kind] = true
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		sc.GlyphStyle = glyph(kind, c)
		p.Add(sc)
	}
	p.Legend.Add(label, line)
	return nil
}

// curveStyle is how one curve is drawn.
type curveStyle struct {
	color  color.Color
	dashes []vg.Length
}

// curveStyles gives each curve its colour by its series' name (the same
// opponent has the same colour in every run) and its line's dashes by
// its run (the first run solid), so that no two curves of a chart look
// alike while there are colours and dashes enough.
func curveStyles(names []string, runOf []int) []curveStyle {
	colorOf := map[string]int{}
	styles := make([]curveStyle, len(names))
	for i, name := range names {
		ci, ok := colorOf[name]
		if !ok {
			ci = len(colorOf)
			colorOf[name] = ci
		}
		styles[i] = curveStyle{color: plotutil.Color(ci), dashes: plotutil.Dashes(runOf[i])}
	}
	return styles
}

// legendHeight is the height of one legend entry as a share of the
// chart's data area.
const legendHeight = 0.025

// makeLegendRoom raises the top of p's y axis so that the legend of
// entries lines, drawn
// in the top left corner, sits above the curves instead of over them.
func makeLegendRoom(p *plot.Plot, entries int) {
	lo, hi := p.Y.Min, p.Y.Max
	share := legendHeight * float64(entries+1)
	if hi <= lo || share >= 0.8 {
		return
	}
	p.Y.Max = hi + (hi-lo)*share/(1-share)
}

// addBoundKey explains the bound glyphs in the legend when the chart has
// any, and returns how many entries it added.
func addBoundKey(p *plot.Plot, bounds [3]bool) int {
	gray := color.Gray{Y: 80}
	n := 0
	if bounds[AtLeast] {
		p.Legend.Add("at least: every game won", glyphThumb{glyph(AtLeast, gray)})
		n++
	}
	if bounds[AtMost] {
		p.Legend.Add("at most: every game lost", glyphThumb{glyph(AtMost, gray)})
		n++
	}
	return n
}

// glyph is the mark of a point: a dot for an estimate, a triangle up for
// a lower bound, down for an upper bound.
func glyph(kind Bound, c color.Color) draw.GlyphStyle {
	g := draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	switch kind {
	case AtLeast:
		g.Radius, g.Shape = vg.Points(4.5), draw.PyramidGlyph{}
	case AtMost:
		g.Radius, g.Shape = vg.Points(4.5), downTriangle{}
	}
	return g
}

// downTriangle is a filled triangle pointing down.
type downTriangle struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (downTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	c.SetColor(sty.Color)
	r := sty.Radius
	var path vg.Path
	path.Move(vg.Point{X: pt.X - r, Y: pt.Y + r*0.6})
	path.Line(vg.Point{X: pt.X + r, Y: pt.Y + r*0.6})
	path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	path.Close()
	c.Fill(path)
}

// glyphThumb draws a glyph as a legend entry.
type glyphThumb struct{ style draw.GlyphStyle }

// Thumbnail implements plot.Thumbnailer.
func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(g.style, c.Center())
}

// translucent is c with a quarter of its opacity, for interval bands.
func translucent(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 60}
}
