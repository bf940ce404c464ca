package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/pflag"

	"trench/training/report"
)

var reportCommand = command{
	name:    "report",
	summary: "plot training runs' Elo and losses",
	usage:   helpText("report"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		runDirs := fs.StringArray("run", nil, "a run directory (repeat to draw several runs on one chart)")
		out := fs.String("out", "", "where to write the charts (default RUN/report for one run)")
		return func(_ []string, stdout, _ io.Writer) error {
			if len(*runDirs) == 0 {
				return usage("--run is required")
			}
			dir := *out
			if dir == "" {
				if len(*runDirs) > 1 {
					return usage("--out is required with several --run")
				}
				dir = filepath.Join((*runDirs)[0], "report")
			}
			var runs []report.Run
			names := report.RunNames(*runDirs)
			for i, d := range *runDirs {
				run, skipped, err := report.ReadRun(d, names[i])
				if err != nil {
					return usage("%w", err)
				}
				if skipped > 0 {
					fmt.Fprintf(stdout, "%s: skipped %d unreadable metrics line(s)\n", d, skipped)
				}
				runs = append(runs, run)
			}
			res, err := report.Write(runs, dir)
			for _, f := range res.Files {
				fmt.Fprintln(stdout, "wrote", f)
			}
			if err != nil {
				return err
			}
			if res.Omitted > 0 {
				fmt.Fprintf(stdout, "left out %d match(es) whose Elo had no finite bound\n", res.Omitted)
			}
			if !res.Elo {
				fmt.Fprintln(stdout, "no arena matches in the metrics: no Elo charts")
			}
			for _, run := range runs {
				for _, c := range report.Doublings(run) {
					if len(runs) > 1 {
						fmt.Fprintf(stdout, "%s, ", run.Name)
					}
					fmt.Fprint(stdout, c)
				}
			}
			return nil
		}
	},
}
