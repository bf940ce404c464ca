package report

import (
	"errors"
	"fmt"
	"path/filepath"

	"trench/training"
	"trench/training/generations"
	"trench/training/rundir"
)

// ReadRun reads the metrics of the run in dir with training's own reader
// (training.ReadMetrics), so that what a run writes is what a report
// draws, as a Run named name; for a run of the NNUE's generation loop
// also with its reader (generations.ReadMetrics), into Generations.
// Skipped counts the lines that did not parse (torn by a crash); a run
// without a line is an error naming its file.
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
	}
	return run, skipped, nil
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
