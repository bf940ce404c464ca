package main

import (
	"context"
	"io"
	"path/filepath"

	"trench/training"
	"trench/training/natsrun"
)

// trainOverNATS runs training in dir and meets workers of the run on a
// NATS server (natsrun.Train); the run's name is runName, or dir's last
// element.
func trainOverNATS(ctx context.Context, dir, runName string, maxLag int, nf *natsrun.Flags, cfg training.Config, opt training.Options, stderr io.Writer) error {
	if runName == "" {
		runName = filepath.Base(filepath.Clean(dir))
	}
	if _, err := natsrun.NamesFor(runName); err != nil {
		return usage("%w (name the run on the server with --nats-run)", err)
	}
	nc, err := nf.Connect("trench train "+runName, stderr, false)
	if err != nil {
		return err
	}
	defer nc.Close()
	return natsrun.Train(ctx, nc, runName, dir, cfg, uint64(maxLag), opt)
}
