package report

import (
	"errors"
	"fmt"
	"path/filepath"

	"trench/arena"
	"trench/training"
	"trench/training/generations"
	"trench/training/rundir"
)

// ReadRun reads the metrics of the run in dir with training's own reader
// (training.ReadMetrics), so that what a run writes is what a report
// draws, as a Run named name; for a run of the NNUE's generation loop
// also with its reader (generations.ReadMetrics), into Generations.
// Its ratings (generations.Rate) join Lines as lines of their own
// (ratingLines). Skipped counts the lines that did not parse (torn by a
// crash); a run without a line is an error naming its file.
func ReadRun(dir, name string) (run Run, skipped int, err error) {
	lines, skipped, err := training.ReadMetrics(dir)
	if err != nil {
		return Run{}, skipped, err
	}
	if len(lines) == 0 {
		return Run{}, skipped, fmt.Errorf("%s: no metrics lines", filepath.Join(dir, rundir.MetricsFile))
	}
	run = Run{Name: name, Lines: lines}
	// A folder of metrics alone (a record of a run) reads as a conv-net
	// run's.
	kind, err := rundir.Holds(dir)
	if err != nil && !errors.Is(err, rundir.ErrNotRun) {
		return Run{}, skipped, err
	}
	if kind == rundir.NNUE {
		if run.Generations, _, err = generations.ReadMetrics(dir); err != nil {
			return Run{}, skipped, err
		}
		ratings, torn, err := generations.ReadRatings(dir)
		if err != nil {
			return Run{}, skipped, err
		}
		skipped += torn
		run.Lines = append(run.Lines, ratingLines(ratings)...)
	}
	return run, skipped, nil
}

// ratingLines turns a run's ratings (generations.Rate) into metrics
// lines at the hours and positions of the generations they rate, each
// with one fixed opponent named by the rating's settings, so that each
// setting draws its own curve, with the 95% interval per pair (per
// opening group for Trichess): the same openings in both colours or
// seats are not independent games.
func ratingLines(ratings []generations.Rating) []training.Metrics {
	var out []training.Metrics
	for _, r := range ratings {
		st := r.Standing
		unit := "pairs"
		if st.Lead != nil {
			unit = "opening groups"
		}
		from := fmt.Sprintf("seed %d", r.Seed)
		if r.Openings != "" {
			from = r.Openings
		}
		st.Opponent = fmt.Sprintf("%s (trench rate: the net at %s, %d %s, %s)", st.Opponent, r.Limits, r.Pairs, unit, from)
		st.Elo = st.PairElo
		out = append(out, training.Metrics{Time: r.Time, Elapsed: r.Elapsed, Positions: r.Positions,
			Arena: &arena.Summary{Current: r.Net, Games: st.Wins + st.Draws + st.Losses, VsBaselines: []arena.Standing{st}}})
	}
	return out
}

// RunNames names each run by its directory's base name, or by the whole
// path when two runs share a base name.
func RunNames(dirs []string) []string {
	names := make([]string, len(dirs))
	seen := map[string]int{}
	for i, d := range dirs {
		names[i] = filepath.Base(filepath.Clean(d))
		seen[names[i]]++
	}
	for i, d := range dirs {
		if seen[names[i]] > 1 {
			names[i] = filepath.Clean(d)
		}
	}
	return names
}
