package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"trench/arena"
	"trench/excerpt"
)

var reportCommand = command{
	name:    "report",
	summary: "plot a training run's Elo and losses",
	usage: `Usage:
  trench report --run DIR [--out DIR]

Reads RUN/metrics.jsonl and draws, as PNG and SVG in --out (RUN/report by
default):
  elo-time    Elo against training time
  elo-games   Elo against self-play games
  losses      the training losses against steps
The Elo plots show, from the lines of rated checkpoints (trench train
--eval-every), each checkpoint's Elo on the run's scale (the first, random
net at 0; the bars are the 95% interval of its match against the previous
rated checkpoint) and its Elo over each baseline with its 95% interval.
Infinite values (a match won or lost outright) are drawn at ±1000. A run
without arena matches gets the losses plot only.

Examples:
  trench report --run runs/a
  trench report --run runs/a --out /tmp/plots
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		run := fs.String("run", "", "the run directory")
		out := fs.String("out", "", "where to write the plots (default RUN/report)")
		return func(args []string, stdout, _ io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %s", excerpt.Quote(args[0]))}
			}
			if *run == "" {
				return &exitError{2, errors.New("--run is required")}
			}
			lines, skipped, err := readReportMetrics(*run)
			if err != nil {
				return &exitError{2, err}
			}
			if len(lines) == 0 {
				return &exitError{2, fmt.Errorf("%s: no metrics lines", filepath.Join(*run, "metrics.jsonl"))}
			}
			if skipped > 0 {
				fmt.Fprintf(stdout, "skipped %d unreadable metrics line(s)\n", skipped)
			}
			dir := *out
			if dir == "" {
				dir = filepath.Join(*run, "report")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			written, elo, err := writeReport(lines, dir)
			for _, f := range written {
				fmt.Fprintln(stdout, "wrote", f)
			}
			if err == nil && !elo {
				fmt.Fprintln(stdout, "no arena matches in the metrics: no Elo plots")
			}
			return err
		}
	},
}

// reportLine is what the report reads of one metrics line
// (training.Metrics).
type reportLine struct {
	Elapsed    float64        `json:"elapsed_s"`
	Step       uint64         `json:"step"`
	Games      int            `json:"games"`
	LossPolicy float64        `json:"loss_policy"`
	LossValue  float64        `json:"loss_value"`
	LossScore  float64        `json:"loss_score"`
	LossTotal  float64        `json:"loss_total"`
	Arena      *arena.Summary `json:"arena"`
	Elo        *float64       `json:"elo"`
}

// readReportMetrics reads RUN/metrics.jsonl, skipping (and counting)
// lines that do not parse, such as one torn by a crash.
func readReportMetrics(run string) ([]reportLine, int, error) {
	data, err := os.ReadFile(filepath.Join(run, "metrics.jsonl"))
	if err != nil {
		return nil, 0, err
	}
	var out []reportLine
	skipped := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l reportLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			skipped++
			continue
		}
		out = append(out, l)
	}
	return out, skipped, sc.Err()
}

// eloCap bounds the Elo values drawn.
const eloCap = 1000

func capElo(x float64) float64 { return math.Max(-eloCap, math.Min(eloCap, x)) }

// eloSeries is one line of an Elo plot with its interval.
type eloSeries struct {
	name string
	// x is filled by the plot; at is the metrics line of each point.
	at        []int
	y, lo, hi []float64
}

// eloPoints is an eloSeries against one x axis, for the plotters.
type eloPoints struct {
	plotter.XYs
	plotter.YErrors
}

// eloSeriesOf gathers the checkpoints' Elo on the run's scale and their
// Elo over each baseline from the lines that carry an arena match.
func eloSeriesOf(lines []reportLine) []*eloSeries {
	run := &eloSeries{name: "checkpoint on the run's scale"}
	byName := map[string]*eloSeries{}
	var order []*eloSeries
	for i, l := range lines {
		if l.Elo != nil {
			y := capElo(*l.Elo)
			lo, hi := 0.0, 0.0
			if l.Arena != nil && l.Arena.VsPrevious != nil {
				e := l.Arena.VsPrevious.Elo
				d := capElo(e.Elo)
				lo, hi = d-capElo(e.Low), capElo(e.High)-d
			}
			run.at, run.y = append(run.at, i), append(run.y, y)
			run.lo, run.hi = append(run.lo, lo), append(run.hi, hi)
		}
		if l.Arena == nil {
			continue
		}
		for _, b := range l.Arena.VsBaselines {
			s := byName[b.Opponent]
			if s == nil {
				s = &eloSeries{name: "over " + b.Opponent}
				byName[b.Opponent] = s
				order = append(order, s)
			}
			y := capElo(b.Elo.Elo)
			s.at, s.y = append(s.at, i), append(s.y, y)
			s.lo, s.hi = append(s.lo, y-capElo(b.Elo.Low)), append(s.hi, capElo(b.Elo.High)-y)
		}
	}
	if len(run.y) > 0 {
		order = append([]*eloSeries{run}, order...)
	}
	return order
}

// writeReport draws the plots into dir and returns the files written and
// whether there were Elo values to plot.
func writeReport(lines []reportLine, dir string) (written []string, elo bool, err error) {
	save := func(p *plot.Plot, name string) error {
		for _, ext := range []string{".png", ".svg"} {
			path := filepath.Join(dir, name+ext)
			if err := p.Save(20*vg.Centimeter, 12*vg.Centimeter, path); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			written = append(written, path)
		}
		return nil
	}
	series := eloSeriesOf(lines)
	if len(series) > 0 {
		for _, axis := range []struct {
			name, label string
			x           func(reportLine) float64
		}{
			{"elo-time", "training time (hours)", func(l reportLine) float64 { return l.Elapsed / 3600 }},
			{"elo-games", "self-play games", func(l reportLine) float64 { return float64(l.Games) }},
		} {
			p := plot.New()
			p.Title.Text = "Elo"
			p.X.Label.Text = axis.label
			p.Y.Label.Text = "Elo (95% interval)"
			p.Legend.Top, p.Legend.Left = true, true
			p.Add(plotter.NewGrid())
			for i, s := range series {
				pts := eloPoints{make(plotter.XYs, len(s.y)), make(plotter.YErrors, len(s.y))}
				for j := range s.y {
					pts.XYs[j] = plotter.XY{X: axis.x(lines[s.at[j]]), Y: s.y[j]}
					pts.YErrors[j].Low, pts.YErrors[j].High = s.lo[j], s.hi[j]
				}
				line, points, err := plotter.NewLinePoints(pts.XYs)
				if err != nil {
					return written, false, err
				}
				bars, err := plotter.NewYErrorBars(pts)
				if err != nil {
					return written, false, err
				}
				line.Color, points.Color, bars.Color = plotutil.Color(i), plotutil.Color(i), plotutil.Color(i)
				points.Shape = plotutil.Shape(i)
				p.Add(line, points, bars)
				p.Legend.Add(s.name, line, points)
			}
			if err := save(p, axis.name); err != nil {
				return written, false, err
			}
		}
	}
	p := plot.New()
	p.Title.Text = "Training losses"
	p.X.Label.Text = "step"
	p.Y.Label.Text = "loss"
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	var args []any
	for _, l := range []struct {
		name string
		v    func(reportLine) float64
	}{
		{"total", func(r reportLine) float64 { return r.LossTotal }},
		{"policy", func(r reportLine) float64 { return r.LossPolicy }},
		{"value", func(r reportLine) float64 { return r.LossValue }},
		{"score", func(r reportLine) float64 { return r.LossScore }},
	} {
		xys := make(plotter.XYs, len(lines))
		for i, r := range lines {
			xys[i] = plotter.XY{X: float64(r.Step), Y: l.v(r)}
		}
		args = append(args, l.name, xys)
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return written, false, err
	}
	if err := save(p, "losses"); err != nil {
		return written, false, err
	}
	return written, len(series) > 0, nil
}
