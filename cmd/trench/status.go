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
	usage:   helpText("status"),
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
