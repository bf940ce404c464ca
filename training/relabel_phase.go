package training

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"trench/checkpoints"
	"trench/datasets"
	"trench/nn"
	"trench/training/relabel"
)

// RelabelDir is the folder of a run that holds the classical teacher's
// copy of the window's positions (--relabel-steps).
const RelabelDir = "relabelled"

// relabelPhase runs the relabelling phase (--relabel-steps) once --steps are
// trained: the classical teacher relabels the positions of the window
// into the run's RelabelDir, then the net trains on them alone until
// Config.LastStep. Each shard is written atomically and one already there
// is kept, so a stopped phase resumes where it was.
func (r *runner) relabelPhase(ctx context.Context, t *nn.Trainer, ckpt *checkpoints.Checkpoint) error {
	newTeacher, doc, err := r.cfg.ClassicalTeacher(r.game)
	if err != nil {
		return err
	}
	win := datasets.NewWindow(r.datasetDir(), r.game, r.cfg.Window(), r.opt.Warnings)
	if _, err := win.Refresh(); err != nil {
		return err
	}
	next := func() (relabel.ShardLabeller, error) {
		c, err := newTeacher()
		if err != nil {
			return nil, err
		}
		return relabel.New(r.game, c, 0, r.cfg.ClassicalPolicy), nil
	}
	dst := filepath.Join(r.dir, RelabelDir)
	fmt.Fprintf(r.opt.Progress, "relabelling phase: the window's newest %d positions relabelled by %s into %s, then %d steps on them\n", win.Size(), doc, dst, r.cfg.RelabelSteps)
	bar := r.newBar("relabelling", "positions", win.Size(), 0)
	start := time.Now()
	st, err := relabel.Copy(ctx, r.game, r.datasetDir(), dst,
		relabel.CopyOptions{Positions: win.Size(), Workers: runtime.GOMAXPROCS(0), Warnings: r.opt.Warnings, Progress: func(done, _ int) { bar.Set(done) }}, next)
	bar.Finish()
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Stopped: the shards written are kept for the next start.
		fmt.Fprintf(r.opt.Progress, "relabelling phase: stopped after %d positions (%d shards kept from before); the next start goes on\n", st.Positions, st.Kept)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(r.opt.Progress, "relabelling phase: %d positions relabelled in %s (%d shards kept from before)\n", st.Positions, time.Since(start).Round(time.Second), st.Kept)
	// The window of the relabelling phase holds every relabelled
	// position; its reports count the run's games and positions.
	_, err = r.train(ctx, t, ckpt, phase{dir: dst, until: r.cfg.LastStep(), games: win.Games(), positions: win.Total()})
	return err
}
