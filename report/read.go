package report

import (
	"fmt"
	"path/filepath"

	"trench/training"
)

// ReadRun reads the metrics of the run in dir with training's own reader
// (training.ReadMetrics), so that what a run writes is what a report
// draws, as a Run named name. Skipped counts the lines that did not parse
// (torn by a crash); a run without a line is an error naming its file.
func ReadRun(dir, name string) (run Run, skipped int, err error) {
	lines, skipped, err := training.ReadMetrics(dir)
	if err != nil {
		return Run{}, skipped, err
	}
	if len(lines) == 0 {
		return Run{}, skipped, fmt.Errorf("%s: no metrics lines", filepath.Join(dir, training.MetricsFile))
	}
	return Run{Name: name, Lines: lines}, skipped, nil
}
