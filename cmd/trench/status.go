package main

import (
	"context"
	"io"
	"time"

	"github.com/spf13/pflag"

	"trench/training/natsrun"
)

var statusCommand = command{
	name:    "status",
	summary: "show a run on a NATS server: its progress and live workers",
	usage: `Usage:
  trench status --nats URL --run NAME

Shows a run that "trench train --nats" keeps on a NATS JetStream server:
its game and net, its newest checkpoint (for an NNUE run, "trench train
--preset nnue --nats", the generation in progress and the net playing it),
the shards workers have published and how many the trainer has yet to
take, and every worker that reported in the last 30 seconds with its
games, pace and net.

Examples:
  trench status --nats nats://localhost:4222 --run first
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		name := fs.String("run", "", "the run's name on the server")
		nf := natsrun.BindFlags(fs, "the NATS server, e.g. nats://host:4222")
		return func(_ []string, stdout, stderr io.Writer) error {
			if nf.URL() == "" || *name == "" {
				return usage("give --nats URL and --run NAME")
			}
			nc, err := nf.Connect("trench status", io.Discard, false)
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
			st.Print(stdout, *name, time.Now())
			return nil
		}
	},
}
