package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"trench/natsrun"
)

var statusCommand = command{
	name:    "status",
	summary: "show a run on a NATS server: its progress and live workers",
	usage: `Usage:
  trench status --nats URL --run NAME

Shows a run that "trench train --nats" keeps on a NATS JetStream server:
its game and net, its newest checkpoint, the shards workers have published
and how many the trainer has yet to take, and every worker that reported
in the last 30 seconds with its games, pace and checkpoint.

Examples:
  trench status --nats nats://localhost:4222 --run first
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		name := fs.String("run", "", "the run's name on the server")
		nf := bindNATSFlags(fs, "the NATS server, e.g. nats://host:4222")
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %q", args[0])}
			}
			if *nf.url == "" || *name == "" {
				return &exitError{2, errors.New("give --nats URL and --run NAME")}
			}
			nc, err := nf.connect("trench status", io.Discard, false)
			if err != nil {
				return err
			}
			defer nc.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			run, err := natsrun.Open(ctx, nc, *name)
			if err != nil {
				return err
			}
			st, err := run.Status(ctx)
			if err != nil {
				return err
			}
			printStatus(stdout, *name, st, time.Now())
			return nil
		}
	},
}

// printStatus writes a run's status as a few lines and a table of
// workers.
func printStatus(w io.Writer, name string, st natsrun.Status, now time.Time) {
	fmt.Fprintf(w, "run %s: %s, net %s, shard format %d\n", name, st.Meta.Game, st.Meta.Net, st.Meta.FormatVersion)
	target := "no end"
	if st.Meta.Steps > 0 {
		target = fmt.Sprintf("of %d", st.Meta.Steps)
	}
	if st.Latest == nil {
		fmt.Fprintf(w, "checkpoint: none yet (steps %s)\n", target)
	} else {
		fmt.Fprintf(w, "checkpoint: %s, step %d %s, published %s ago\n", st.Latest.Name, st.Latest.Step, target, now.Sub(st.Latest.Time).Round(time.Second))
	}
	fmt.Fprintf(w, "shards: %d published by workers (%.1f MB), %d not yet taken by the trainer\n", st.Shards, float64(st.Bytes)/1e6, st.Waiting)
	fmt.Fprintf(w, "workers: %d live\n", len(st.Workers))
	if len(st.Workers) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  WORKER\tGAMES\tPOSITIONS\tPOS/S\tCHECKPOINT\tPUBLISHED\tBUFFERED\tUP\tSEEN")
	for _, h := range st.Workers {
		buffered := fmt.Sprint(h.Buffered)
		if h.Paused {
			buffered += " (paused)"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%.1f\t%s\t%d\t%s\t%s\t%s ago\n", h.Worker, h.Games, h.Positions, h.PositionsPerSecond, h.Checkpoint,
			h.Published, buffered, now.Sub(h.Started).Round(time.Second), now.Sub(h.Time).Round(time.Second))
	}
	tw.Flush()
}
