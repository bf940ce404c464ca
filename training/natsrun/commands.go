package natsrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"trench/training"
)

// ErrUsage marks an error in what a command asked of the server: a run
// name the server cannot hold, a server that cannot be reached as given,
// a run the worker will not join (ErrRefused), or settings the run's
// config refuses.
var ErrUsage = errors.New("not usable as asked")

// usageError wraps err in ErrUsage, keeping its message.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() []error {
	return []error{ErrUsage, e.err}
}

// Join makes w a self-play worker of the run called name on the server
// the flags name (trench selfplay --nats): it waits for the run to appear
// (saying so on w.Log), takes the run's saved config with the settings
// the user gave (settings) laid over it, after checking that the
// worker's game and net match the run's, and works (Worker.Work); a
// worker of an NNUE run plays its games instead (NNUEWorker.Work). w's
// name is the host's name and the process id when empty. Errors the user
// must fix wrap ErrUsage.
func (f *Flags) Join(ctx context.Context, name string, w Worker, settings *training.Flags) (games int, published int64, err error) {
	if _, err := NamesFor(name); err != nil {
		return 0, 0, usageError{err}
	}
	if w.Name == "" {
		host, err := os.Hostname()
		if err != nil {
			host = "worker"
		}
		w.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	nc, err := f.Connect("trench selfplay "+w.Name, w.Log, true)
	if err != nil {
		return 0, 0, usageError{err}
	}
	defer nc.Close()
	run, err := WaitOpen(ctx, nc, name, func() {
		fmt.Fprintf(w.Log, "waiting for run %s to appear on %s (start it with trench train --nats)\n", name, f.URL())
	})
	if err != nil {
		return 0, 0, err
	}
	if meta, err := run.Meta(ctx); err != nil {
		return 0, 0, err
	} else if meta.Kind == KindNNUE {
		return joinNNUE(ctx, run, w, settings)
	}
	given := settings.Given()
	saved, err := run.SavedConfig(ctx, Meta{Game: given.Game, Net: given.Net})
	if errors.Is(err, ErrRefused) {
		return 0, 0, usageError{err}
	}
	if err != nil {
		return 0, 0, err
	}
	cfg, err := settings.Over(saved)
	if err != nil {
		return 0, 0, usageError{err}
	}
	fmt.Fprintf(w.Log, "worker %s joins run %s: %s, net %s, %d self-play workers × %d games\n", w.Name, name, cfg.Game, cfg.Net, cfg.Workers, cfg.GamesPerWorker)
	return w.Work(ctx, run, cfg)
}

// Train runs training in dir (trench train --nats) and meets the workers
// of the run on the server the flags name (Train); the run's name is
// name, or dir's last element. Errors the user must fix wrap ErrUsage.
func (f *Flags) Train(ctx context.Context, dir, name string, maxLag int, cfg training.Config, opt training.Options, log io.Writer) error {
	if name == "" {
		name = filepath.Base(filepath.Clean(dir))
	}
	if _, err := NamesFor(name); err != nil {
		return usageError{fmt.Errorf("%w (name the run on the server with --nats-run)", err)}
	}
	nc, err := f.Connect("trench train "+name, log, false)
	if err != nil {
		return err
	}
	defer nc.Close()
	return Train(ctx, nc, name, dir, cfg, uint64(maxLag), opt)
}

// joinNNUE makes w a data generation worker of the NNUE run r: the
// run's settings, with --workers alone taken from the command line.
func joinNNUE(ctx context.Context, r *Run, w Worker, settings *training.Flags) (games int, published int64, err error) {
	given, changed, err := settings.Config()
	if err != nil {
		return 0, 0, usageError{err}
	}
	nw := NNUEWorker{Name: w.Name, Buffer: w.Buffer, Games: w.Games, Log: w.Log}
	if slices.Contains(changed, "workers") {
		nw.Workers = given.Workers
	}
	if extra := slices.DeleteFunc(changed, func(name string) bool { return name == "workers" }); len(extra) > 0 {
		return 0, 0, usageError{fmt.Errorf("run %s is an NNUE run, whose workers take only --workers of the settings; drop --%s", r.Run, strings.Join(extra, ", --"))}
	}
	cfg, err := r.SavedNNUEConfig(ctx)
	if errors.Is(err, ErrRefused) {
		return 0, 0, usageError{err}
	}
	if err != nil {
		return 0, 0, err
	}
	workers := cfg.Workers
	if nw.Workers > 0 {
		workers = nw.Workers
	}
	fmt.Fprintf(w.Log, "worker %s joins NNUE run %s of %s: %d games at a time, %d-%d nodes a move\n", w.Name, r.Run, cfg.Game, workers, cfg.SoftNodes, cfg.HardNodes)
	return nw.Work(ctx, r, cfg)
}
