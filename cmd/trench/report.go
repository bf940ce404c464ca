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
	usage: `Usage:
  trench report --run DIR [--run DIR2 ...] [--out DIR]

Reads each RUN/metrics.jsonl and draws, as PNG and SVG in --out (RUN/report
by default for one run; required for several):
  elo-hours      Elo against training time
  elo-positions  Elo against self-play positions
  losses         the training losses against steps
  nnue-losses    for runs of trench train --preset nnue: the net's training
                 and validation losses against generations
The Elo charts show, from the lines of rated checkpoints (trench train
--eval-every), each checkpoint's Elo on the run's scale (the first, random
net at 0; its band is the 95% interval of its match against the previous
rated checkpoint) and its Elo over each fixed opponent, with the 95%
interval as a band. A match won outright has no finite Elo: its point is
drawn at the interval's lower bound as a triangle pointing up, and one lost
outright at the upper bound as a triangle pointing down. Several runs share
one chart, each curve named by its run, so two recipes can be compared on
one picture. A run without arena matches gets the losses chart only. The
NNUE loop's runs (trench train --preset nnue) are drawn alike: each
generation's gate against the net that played chains the Elo on the run's
scale (the rules' evaluation at 0), and its anchor matches give the Elo over
each anchor.

Examples:
  trench report --run runs/a
  trench report --run runs/a --run runs/b --out /tmp/a-vs-b
`,
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
			return nil
		}
	},
}
