package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trench/arena"
	"trench/training"
	"trench/training/generations"
	"trench/training/rundir"
)

var inf = math.Inf(1)

func standing(opp string, elo, low, high float64) arena.Standing {
	return arena.Standing{Opponent: opp, Elo: arena.Interval{Elo: elo, Low: low, High: high}}
}

func rated(elapsed float64, positions int, elo float64, prev arena.Standing, baselines ...arena.Standing) training.Metrics {
	e := elo
	return training.Metrics{Elapsed: elapsed, Positions: positions, Elo: &e,
		Arena: &arena.Summary{VsPrevious: &prev, VsBaselines: baselines}}
}

func TestEloSeries(t *testing.T) {
	lines := []training.Metrics{
		{Elapsed: 60, Positions: 100},
		rated(120, 300, 150, standing("ckpt-0", 150, 100, 220),
			standing("greedy", -40, -120, 30), standing("none", -inf, -inf, -300)),
		rated(180, 500, 150, standing("ckpt-1", 0, -80, 80),
			standing("greedy", inf, 250, inf), standing("none", inf, inf, inf)),
	}
	got := EloSeries(lines)
	want := []Series{
		{Name: "on the run's scale", Points: []Point{
			{Line: 1, Value: 150, Low: 100, High: 220},
			{Line: 2, Value: 150, Low: 70, High: 230},
		}},
		{Name: "over greedy", Points: []Point{
			{Line: 1, Value: -40, Low: -120, High: 30},
			{Line: 2, Value: 250, Low: 250, High: 250, Bound: AtLeast},
		}},
		{Name: "over none", Points: []Point{
			{Line: 1, Value: -300, Low: -300, High: -300, Bound: AtMost},
		}, Omitted: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d series, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Omitted != w.Omitted || len(g.Points) != len(w.Points) {
			t.Errorf("series %d: got %q with %d points (%d omitted), want %q with %d (%d)", i, g.Name, len(g.Points), g.Omitted, w.Name, len(w.Points), w.Omitted)
			continue
		}
		for j, p := range w.Points {
			if g.Points[j] != p {
				t.Errorf("%s point %d: got %+v, want %+v", w.Name, j, g.Points[j], p)
			}
		}
	}
	if s := EloSeries(lines[:1]); len(s) != 0 {
		t.Errorf("a run without matches has %d series", len(s))
	}
}

// TestLeadSeries draws a curve for each opponent of three-player
// matches, in the order first met, and none for two-player matches; a
// single opening group's infinite interval is clipped to its mean.
func TestLeadSeries(t *testing.T) {
	lead := func(opp string, mean, low, high float64) arena.Standing {
		st := standing(opp, 0, -100, 100)
		st.Lead = &arena.Estimate{Mean: mean, Low: low, High: high, N: 30}
		return st
	}
	lines := []training.Metrics{
		{Elapsed: 60, Positions: 100},
		rated(120, 300, 0, standing("gen-0", 0, -50, 50), lead("hand", -0.2, -0.5, 0.1), standing("rules", 10, -20, 40)),
		rated(240, 600, 0, standing("gen-1", 0, -50, 50), lead("material", 0.5, -inf, inf), lead("hand", 0.4, 0.1, 0.7)),
	}
	for _, tc := range []struct {
		lines []training.Metrics
		want  []Series
	}{
		{lines, []Series{
			{Name: "against hand", Points: []Point{{Line: 1, Value: -0.2, Low: -0.5, High: 0.1}, {Line: 2, Value: 0.4, Low: 0.1, High: 0.7}}},
			{Name: "against material", Points: []Point{{Line: 2, Value: 0.5, Low: 0.5, High: 0.5}}},
		}},
		{lines[:1], nil},
		{[]training.Metrics{rated(120, 300, 0, standing("gen-0", 0, -50, 50), standing("rules", 10, -20, 40))}, nil},
	} {
		got := LeadSeries(tc.lines)
		if len(got) != len(tc.want) {
			t.Errorf("%d lines: %d series, want %d", len(tc.lines), len(got), len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if got[i].Name != w.Name || !slices.Equal(got[i].Points, w.Points) {
				t.Errorf("series %d: %q %+v, want %q %+v", i, got[i].Name, got[i].Points, w.Name, w.Points)
			}
		}
	}
}

func TestWrite(t *testing.T) {
	a := []training.Metrics{
		{Step: 100, Elapsed: 60, Positions: 100, LossTotal: 6},
		rated(120, 300, 150, standing("ckpt-0", 150, 100, 220), standing("greedy", -40, -120, 30)),
		rated(180, 500, 210, standing("ckpt-1", 60, -20, 140), standing("greedy", inf, 250, inf)),
	}
	b := []training.Metrics{
		rated(100, 200, 90, standing("ckpt-0", 90, 10, 170), standing("greedy", -inf, -inf, -200)),
		rated(200, 400, 130, standing("ckpt-1", 40, -40, 120), standing("greedy", 10, -60, 80)),
	}
	cases := []struct {
		name    string
		runs    []Run
		elo     bool
		legends []string
	}{
		{"one run", []Run{{Name: "a", Lines: a}}, true, []string{"over greedy", "on the run", "at least"}},
		{"two runs", []Run{{Name: "a", Lines: a}, {Name: "b", Lines: b}}, true, []string{"a: over greedy", "b: over greedy", "at least", "at most"}},
		{"losses only", []Run{{Name: "plain", Lines: a[:1]}}, false, nil},
		{"fresh losses", []Run{{Name: "fresh", Lines: []training.Metrics{{Step: 100, Elapsed: 60, Positions: 100, LossTotal: 6,
			FreshPositions: 80, FreshLossValue: 3.8, AidsLossValue: 3.5, FreshLossPolicy: 2.9, AidsLossPolicy: 3}}}}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "charts")
			res, err := Write(c.runs, dir)
			if err != nil {
				t.Fatal(err)
			}
			if res.Elo != c.elo {
				t.Errorf("Elo = %v, want %v", res.Elo, c.elo)
			}
			names := []string{"losses"}
			if c.elo {
				names = append(names, "elo-hours", "elo-log-hours", "elo-positions")
			}
			if c.runs[0].Lines[0].FreshPositions > 0 {
				names = append(names, "fresh-losses")
			}
			if len(res.Files) != 2*len(names) {
				t.Errorf("wrote %v", res.Files)
			}
			for _, n := range names {
				png, err := os.ReadFile(filepath.Join(dir, n+".png"))
				if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
					t.Errorf("%s.png: %v", n, err)
				}
				if _, err := os.Stat(filepath.Join(dir, n+".svg")); err != nil {
					t.Error(err)
				}
			}
			if !c.elo {
				return
			}
			svg, _ := os.ReadFile(filepath.Join(dir, "elo-hours.svg"))
			for _, l := range c.legends {
				if !bytes.Contains(svg, []byte(l)) {
					t.Errorf("elo-hours.svg lacks %q", l)
				}
			}
		})
	}
	if _, err := Write(nil, t.TempDir()); err == nil {
		t.Error("Write with no runs did not fail")
	}
	// Checkpoints rated at hour 0 alone, or at one hour: no chart on a
	// log axis.
	for name, lines := range map[string][]training.Metrics{
		"hour 0":   {rated(0, 100, 50, standing("ckpt-0", 50, 0, 100))},
		"one hour": {rated(3600, 100, 50, standing("ckpt-0", 50, 0, 100))},
	} {
		dir := t.TempDir()
		res, err := Write([]Run{{Name: "one", Lines: lines}}, dir)
		if err != nil || !res.Elo {
			t.Fatalf("%s: %+v, %v", name, res, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "elo-log-hours.png")); !os.IsNotExist(err) {
			t.Errorf("%s: elo-log-hours.png written (%v)", name, err)
		}
	}
}

func TestDoublingTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{0.3, 7, []string{"15 min", "30 min", "1 h", "2 h", "4 h", "8 h"}},
		{1, 1, []string{"1 h"}},
		{0.01, 0.02, []string{"28.1 s", "56.2 s", "1.88 min"}},
		{0, 4, nil},
		{2, 1, nil},
	}
	for _, tc := range tests {
		var got []string
		for _, tk := range (doublingTicks{}).Ticks(tc.lo, tc.hi) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Ticks(%g, %g) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestCurveStyles(t *testing.T) {
	names := []string{"on the run's scale", "over greedy", "on the run's scale", "over greedy", "over random"}
	runOf := []int{0, 0, 1, 1, 1}
	st := curveStyles(names, runOf)
	same := func(i, j int) bool {
		return st[i].color == st[j].color && len(st[i].dashes) == len(st[j].dashes)
	}
	for i := range st {
		for j := i + 1; j < len(st); j++ {
			if same(i, j) {
				t.Errorf("curves %d (%s, run %d) and %d (%s, run %d) look alike", i, names[i], runOf[i], j, names[j], runOf[j])
			}
		}
	}
	if st[1].color != st[3].color {
		t.Error("one opponent has two colours in two runs")
	}
	if len(st[0].dashes) != 0 || len(st[2].dashes) == 0 {
		t.Errorf("dashes %v, %v: want the first run solid and the second dashed", st[0].dashes, st[2].dashes)
	}
}

func TestMakeLegendRoom(t *testing.T) {
	for _, entries := range []int{1, 7, 13} {
		p := newPlot("t", "x", "y")
		p.Y.Min, p.Y.Max = -500, 2500
		makeLegendRoom(p, entries)
		share := (p.Y.Max - 2500) / (p.Y.Max - p.Y.Min)
		if want := legendHeight * float64(entries+1); math.Abs(share-want) > 1e-9 {
			t.Errorf("%d entries: the legend has %.3f of the axis, want %.3f", entries, share, want)
		}
	}
}

// TestLossPlotLegendRoom checks that loss charts, whose curves start
// high on the left under the legend, leave the legend its room above the
// highest loss.
func TestLossPlotLegendRoom(t *testing.T) {
	lines := []training.Metrics{{Step: 100, LossTotal: 3, LossPolicy: 2}, {Step: 200, LossTotal: 2, LossPolicy: 1.5}}
	curves := []lossCurve{
		{"total", func(m training.Metrics) float64 { return m.LossTotal }},
		{"policy", func(m training.Metrics) float64 { return m.LossPolicy }},
	}
	p, ok, err := lossPlot("t", []Run{{Name: "a", Lines: lines}}, curves, func(training.Metrics) bool { return true })
	if err != nil || !ok {
		t.Fatalf("lossPlot: %v, %v", ok, err)
	}
	share := (p.Y.Max - 3) / (p.Y.Max - p.Y.Min)
	if want := legendHeight * 3; share < want-1e-9 {
		t.Errorf("the legend has %.3f of the axis above the highest loss, want %.3f", share, want)
	}
	if _, ok, err := lossPlot("t", []Run{{Name: "a", Lines: lines}}, curves, func(training.Metrics) bool { return false }); ok || err != nil {
		t.Errorf("no measured point: ok %v, %v", ok, err)
	}
}

// TestNNUERun reads and draws a run of the NNUE's generation loop: Elo
// charts from the fields both loops write, its own losses chart, and no
// AlphaZero losses chart.
func TestNNUERun(t *testing.T) {
	dir := nnueRunDir(t, "trench")
	elo := 35.0
	for g, m := range []generations.Metrics{
		{Generation: 0, Elapsed: 1800, Positions: 1000, TrainLoss: 0.05, ValidationLoss: 0.06, Rejected: true,
			Arena: &arena.Summary{VsBaselines: []arena.Standing{{Opponent: "hand", Wins: 1, Losses: 3, Elo: arena.Interval{Elo: -190, Low: -400, High: 20}}}}},
		{Generation: 1, Elapsed: 3600, Positions: 2000, TrainLoss: 0.04, ValidationLoss: 0.05, Elo: &elo,
			Arena: &arena.Summary{VsPrevious: &arena.Standing{Opponent: "rules", Elo: arena.Interval{Elo: 35, Low: 5, High: 65}},
				VsBaselines: []arena.Standing{{Opponent: "hand", Wins: 2, Losses: 2, Elo: arena.Interval{Elo: 0, Low: -200, High: 200}}}}},
	} {
		if err := rundir.AppendMetrics(dir, m); err != nil {
			t.Fatalf("line %d: %v", g, err)
		}
	}
	run, skipped, err := ReadRun(dir, "nnue")
	if err != nil || skipped != 0 || len(run.Generations) != 2 || len(run.Lines) != 2 || run.Lines[1].Elapsed != 3600 {
		t.Fatalf("ReadRun: %+v, %d skipped, %v", run, skipped, err)
	}
	out := t.TempDir()
	res, err := Write([]Run{run}, out)
	if err != nil || !res.Elo {
		t.Fatalf("Write: %+v, %v", res, err)
	}
	have := map[string]bool{}
	for _, f := range res.Files {
		have[filepath.Base(f)] = true
	}
	for name, want := range map[string]bool{"elo-hours.png": true, "nnue-losses.svg": true, "losses.png": false, "lead-hours.png": false} {
		if have[name] != want {
			t.Errorf("%s written: %v, want %v (files %v)", name, have[name], want, res.Files)
		}
	}

	// Its ratings (trench rate) draw a curve of their own, at the
	// generations' hours, with the interval per pair; a torn line is
	// skipped and counted.
	for _, r := range []generations.Rating{
		{Generation: 0, Net: "gen-000000.nnue", Elapsed: 1800, Positions: 1000, Limits: "nodes=20000", Pairs: 100, Seed: 1,
			Standing: arena.Standing{Opponent: "alphabeta-hand:nodes=20000", Wins: 80, Losses: 120, Elo: arena.Interval{Elo: -70, Low: -120, High: -20}, PairElo: arena.Interval{Elo: -70, Low: -110, High: -30}}},
		{Generation: 1, Net: "gen-000001.nnue", Elapsed: 3600, Positions: 2000, Limits: "nodes=20000", Pairs: 100, Seed: 1,
			Standing: arena.Standing{Opponent: "alphabeta-hand:nodes=20000", Wins: 120, Losses: 80, Elo: arena.Interval{Elo: 70, Low: 20, High: 120}, PairElo: arena.Interval{Elo: 70, Low: 30, High: 110}}},
	} {
		if err := rundir.AppendJSONLine(filepath.Join(dir, generations.RatingsFile), r); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, generations.RatingsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"generation":2,"net":"gen-0`)
	f.Close()
	run, skipped, err = ReadRun(dir, "nnue")
	if err != nil || skipped != 1 || len(run.Lines) != 4 {
		t.Fatalf("ReadRun with ratings: %d lines, %d skipped, %v", len(run.Lines), skipped, err)
	}
	series := EloSeries(run.Lines)
	var rated *Series
	for _, s := range series {
		if s.Name == "over alphabeta-hand:nodes=20000 (trench rate: the net at nodes=20000, 100 pairs, seed 1)" {
			rated = s
		}
	}
	if rated == nil || len(rated.Points) != 2 {
		t.Fatalf("curves %+v: want the ratings' own", series)
	}
	if p := rated.Points[1]; p.Value != 70 || p.Low != 30 || p.High != 110 || run.Lines[p.Line].Elapsed != 3600 || run.Lines[p.Line].Positions != 2000 {
		t.Errorf("generation 1's rating: point %+v at line %+v", p, run.Lines[p.Line])
	}
	if res, err := Write([]Run{run}, out); err != nil || !res.Elo {
		t.Fatalf("Write with ratings: %+v, %v", res, err)
	}
	if svg, _ := os.ReadFile(filepath.Join(out, "elo-log-hours.svg")); !strings.Contains(string(svg), "trench rate: the net at nodes=20000, 100 pairs") {
		t.Error("the log-hours chart lacks the ratings' curve")
	}
}

// TestTrichessRunLead draws a Trichess NNUE run's anchor matches as
// leads a game against hours, beside their Elo.
func TestTrichessRunLead(t *testing.T) {
	dir := nnueRunDir(t, "trichess")
	for g, lead := range []arena.Estimate{{Mean: -0.3, Low: -0.6, High: 0, N: 30}, {Mean: 0.4, Low: 0.1, High: 0.7, N: 30}} {
		m := generations.Metrics{Generation: g, Elapsed: float64(g+1) * 1800, Positions: (g + 1) * 1000, TrainLoss: 0.002, ValidationLoss: 0.003,
			Arena: &arena.Summary{VsBaselines: []arena.Standing{{Opponent: "alphabeta-hand:nodes=5000", Wins: 40, Losses: 50,
				Elo: arena.Interval{Elo: 10 * lead.Mean, Low: -100, High: 100}, Lead: &lead}}}}
		if err := rundir.AppendMetrics(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	run, _, err := ReadRun(dir, "t")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	res, err := Write([]Run{run}, out)
	if err != nil || !res.Elo || !res.Lead {
		t.Fatalf("Write: %+v, %v", res, err)
	}
	svg, err := os.ReadFile(filepath.Join(out, "lead-hours.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Lead of each rated net", "against alphabeta-hand:nodes=5000"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("lead-hours.svg lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "lead-hours.png")); err != nil {
		t.Error(err)
	}
}

// nnueRunDir is a new directory holding a run of the NNUE preset for
// game, without generations.
func nnueRunDir(t *testing.T, game string) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := generations.Preset(generations.PresetName, game)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generations.Prepare(dir, cfg, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}
