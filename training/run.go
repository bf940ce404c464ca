package training

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine"
	"trench/games"
	"trench/neteval"
	"trench/nn"
	"trench/selfplay"
	"trench/training/relabel"
	"trench/training/rundir"
)

// Options are how a run reports and which halves it runs.
type Options struct {
	// Progress receives progress bars and one summary line per checkpoint;
	// Warnings receives warnings (e.g. a skipped shard). Both may be
	// io.Discard.
	Progress, Warnings io.Writer
	// Bars draws progress bars; without it Progress gets plain lines: a
	// status line every StatusEvery (a minute when zero) besides the
	// checkpoint summaries.
	Bars        bool
	StatusEvery time.Duration
	// NoSelfPlay trains only on the data already in (or arriving in) the
	// run's datasets folder, written by a separate "trench selfplay".
	NoSelfPlay bool
	// TrainThreads is how many goroutines each training step's matrix
	// products are split over (nn.TrainConfig.Threads). Zero chooses: one
	// beside this process's own self-play, which keeps the other cores
	// busy, every core while that self-play is held back by the replay
	// ratio, and every core (GOMAXPROCS) with NoSelfPlay. It does not
	// change what is learned, so a run may resume with another value.
	TrainThreads int
	// Published, if set, is called with each checkpoint self-play takes
	// up (the first one too), e.g. to hand it to workers elsewhere.
	Published func(*checkpoints.Checkpoint) error
}

// runner is one training run in progress.
type runner struct {
	dir  string
	cfg  Config
	opt  Options
	game engine.Game

	net   atomic.Pointer[selfplay.Net]
	stats *selfplay.Stats
	// trained counts the samples trained on the run's positions (steps
	// since firstStep × batch size); total the positions in the run's
	// shards.
	trained, total atomic.Int64
	// held counts the self-play workers that throttle is holding back.
	held atomic.Int32
	// firstStep is the step of the run's oldest checkpoint: 0 for a run
	// from scratch, the step of a checkpoint brought in from another run
	// otherwise, whose steps were trained on that run's positions.
	firstStep uint64
	start     time.Time
	// elapsed is the run's training time before this process started.
	elapsed float64
	// rated is the newest checkpoint rated in an arena match.
	rated rating
	// logged holds the checkpoints that have a metrics line.
	logged map[string]bool

	// lengths collects finished games' lengths since the last checkpoint.
	lengthsMu sync.Mutex
	lengths   []int

	// shards, if set, receives each shard's bytes and the oldest step of
	// the nets that played it, instead of a file.
	shards func(data []byte, step uint64) error
}

// Run trains in dir until cfg.Steps optimizer steps are done or ctx is
// done. It resumes from the run's latest checkpoint and data. On return no
// file is half written: finished games are flushed to a shard and the
// trainer saves a checkpoint. The caller holds the run's lock
// (rundir.Lock): Run removes the temporary files a killed trainer left
// beside its config and checkpoints (not in datasets/, where other
// processes' self-play may be writing).
func Run(ctx context.Context, dir string, cfg Config, opt Options) error {
	g, err := games.ByName(cfg.Game)
	if err != nil {
		return err
	}
	if err := rundir.RemoveTemporary(dir, rundir.CheckpointsDir); err != nil {
		return err
	}
	r := &runner{dir: dir, cfg: cfg, opt: opt, game: g, start: time.Now(), stats: new(selfplay.Stats)}
	trainer, ckpt, err := r.loadOrCreate()
	if err != nil {
		return err
	}
	if r.firstStep, err = oldestStep(dir); err != nil {
		return err
	}
	if err := r.restoreRating(); err != nil {
		return err
	}
	if err := r.recoverMetrics(ctx, trainer, ckpt); err != nil {
		return err
	}
	last := cfg.LastStep()
	if last > 0 && int(trainer.Steps()) >= last {
		fmt.Fprintf(opt.Progress, "run %s has already trained %d of %d steps (raise --steps to train further)\n", dir, trainer.Steps(), last)
		return nil
	}
	if err := r.publish(trainer, ckpt); err != nil {
		return err
	}
	if cfg.Steps == 0 || int(trainer.Steps()) < cfg.Steps {
		if ckpt, err = r.playAndTrain(ctx, trainer, ckpt); err != nil || ctx.Err() != nil {
			return err
		}
	}
	if cfg.RelabelSteps > 0 {
		if err := r.relabelPhase(ctx, trainer, ckpt); err != nil || ctx.Err() != nil {
			return err
		}
	}
	if r.cfg.FinalGames > 0 && last > 0 && int(trainer.Steps()) >= last {
		return r.finalMatch(ctx)
	}
	return nil
}

// playAndTrain runs the self-play phase: self-play (unless
// Options.NoSelfPlay) beside training on its positions until --steps or
// until ctx is done. It returns the newest checkpoint.
func (r *runner) playAndTrain(ctx context.Context, t *nn.Trainer, ckpt *checkpoints.Checkpoint) (*checkpoints.Checkpoint, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var playErr error
	if !r.opt.NoSelfPlay {
		wg.Add(1)
		go func() {
			defer wg.Done()
			playErr = r.selfPlay(ctx)
			if playErr != nil {
				cancel()
			}
		}()
	}
	ckpt, trainErr := r.train(ctx, t, ckpt, r.selfPlayPhase())
	cancel()
	wg.Wait()
	return ckpt, errors.Join(trainErr, playErr)
}

// trainConfig is the run's training settings with the most threads the
// trainer may use: TrainThreads when set, else every core (see
// stepThreads).
func (r *runner) trainConfig() nn.TrainConfig {
	tc := r.cfg.TrainConfig()
	tc.Threads = r.opt.TrainThreads
	if tc.Threads == 0 {
		tc.Threads = runtime.GOMAXPROCS(0)
	}
	return tc
}

// stepThreads is how many threads the next training step of phase ph
// uses: Options.TrainThreads when it is set. By default a trainer without
// self-play in its process (or in a phase with none) takes every core,
// and one beside its own self-play takes one, or every core while all the
// self-play workers are held back by the replay ratio (throttle) and
// their cores stand idle.
func (r *runner) stepThreads(ph phase) int {
	switch {
	case r.opt.TrainThreads > 0:
		return r.opt.TrainThreads
	case r.opt.NoSelfPlay || !ph.paced || int(r.held.Load()) >= r.cfg.Workers:
		return runtime.GOMAXPROCS(0)
	}
	return 1
}

// loadOrCreate returns a trainer resumed from the run's newest checkpoint
// that loads, or from a new random net saved as step 0. Newer checkpoints
// that are damaged are moved aside, with a warning; one that cannot be
// read for another reason (a newer format) stops the run, since training
// on would replace it.
func (r *runner) loadOrCreate() (*nn.Trainer, *checkpoints.Checkpoint, error) {
	var t *nn.Trainer
	c, passed, err := checkpoints.LoadNewest(r.dir, func(c *checkpoints.Checkpoint) error {
		var err error
		if t, err = nn.NewTrainerFromCheckpoint(c, r.trainConfig()); err != nil {
			return err
		}
		if t.Config().Shape != r.game.FeatureShape() || t.Config().Actions != r.game.ActionCount() {
			return fmt.Errorf("%s: the net is not for %s", c.Path, r.game.Name())
		}
		return nil
	})
	for _, p := range passed {
		if !checkpoints.Damaged(p.Err) {
			return nil, nil, p.Err
		}
	}
	if err != nil && !errors.Is(err, checkpoints.ErrNone) {
		return nil, nil, fmt.Errorf("no checkpoint of %s loads; the newest: %w", r.dir, err)
	}
	for _, p := range passed {
		to, err := checkpoints.MoveAside(p.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("moving aside %s, which does not load (%v): %w", p.Path, p.Err, err)
		}
		fmt.Fprintf(r.opt.Warnings, "warning: %v\nmoved it to %s; resuming from %s\n", p.Err, to, filepath.Base(c.Path))
	}
	if c != nil {
		return t, c, nil
	}
	return r.create()
}

// samplesTrained returns the samples a net at step has trained on the
// run's positions: none of the steps of a checkpoint brought in.
func (r *runner) samplesTrained(step uint64) int64 {
	return int64(step-min(step, r.firstStep)) * int64(r.cfg.BatchSize)
}

// oldestStep returns the step of the oldest checkpoint in run directory
// dir (0 without one).
func oldestStep(dir string) (uint64, error) {
	paths, err := checkpoints.List(dir)
	if err != nil || len(paths) == 0 {
		return 0, err
	}
	step, _ := checkpoints.StepOf(filepath.Base(paths[0]))
	return step, nil
}

// create returns a trainer of a new random net, saved as step 0.
func (r *runner) create() (*nn.Trainer, *checkpoints.Checkpoint, error) {
	nc, err := r.cfg.NetConfig(r.game)
	if err != nil {
		return nil, nil, err
	}
	w, err := nn.NewWeights(nc, rand.New(rand.NewPCG(r.cfg.Seed, 0x6e6574)))
	if err != nil {
		return nil, nil, err
	}
	t, err := nn.NewTrainer(w, r.trainConfig())
	if err != nil {
		return nil, nil, err
	}
	c, err := t.Checkpoint()
	if err != nil {
		return nil, nil, err
	}
	c.Created = time.Now()
	if c.Path, err = checkpoints.SaveToRun(r.dir, c); err != nil {
		return nil, nil, err
	}
	return t, c, nil
}

// publish hands the trainer's current weights to self-play as a new net.
func (r *runner) publish(t *nn.Trainer, c *checkpoints.Checkpoint) error {
	inf, err := t.Inference()
	if err != nil {
		return err
	}
	ev, err := neteval.NewWithScoreUtility(r.game, inf, r.cfg.ScoreUtility)
	if err != nil {
		return err
	}
	r.net.Store(&selfplay.Net{Name: filepath.Base(c.Path), Eval: r.cfg.SearchEvaluator(r.game, ev)})
	if r.opt.Published != nil {
		return r.opt.Published(c)
	}
	return nil
}

func (r *runner) datasetDir() string { return filepath.Join(r.dir, "datasets") }

// selfPlay plays games with the latest net into the run's datasets
// folder, throttled to the trainer's pace.
func (r *runner) selfPlay(ctx context.Context) error {
	_, err := r.playInto(ctx, r.datasetDir(), 0, r.throttle)
	return err
}

// playInto plays games with the net r.net holds at each game start (or
// without it, before --teacher-steps; see Config.selfPlayNet),
// writing a shard every cfg.ShardGames games and the remainder when
// stopped. It stops after limit games (0: when ctx is done) and returns
// the number of games written.
func (r *runner) playInto(ctx context.Context, out string, limit int, throttle func(context.Context) error) (int, error) {
	sc, err := r.cfg.SelfPlay()
	if err != nil {
		return 0, err
	}
	sc.Seed = r.cfg.Seed ^ uint64(time.Now().UnixNano())
	sc.FirstGameID = time.Now().UnixNano() / 1000 * 1000
	sc.Throttle = throttle
	// The sink below runs games one at a time, so one teacher serves
	// every worker.
	var teacher *relabel.Labeller
	if newTeacher, _, err := r.cfg.ClassicalTeacher(r.game); err != nil {
		return 0, err
	} else if newTeacher != nil && r.cfg.RelabelSteps == 0 {
		c, err := newTeacher()
		if err != nil {
			return 0, err
		}
		teacher = relabel.New(r.game, c, 0, r.cfg.ClassicalPolicy)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var pending []datasets.Sample
	pendingGames, written := 0, 0
	var pendingStep uint64 // the oldest net's step among the pending games
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		if r.shards != nil {
			data, err := datasets.EncodeShard(r.game, pending)
			if err == nil {
				err = r.shards(data, pendingStep)
			}
			if err != nil {
				return err
			}
		} else if _, err := datasets.WriteShard(out, r.game, pending); err != nil {
			return err
		}
		written += pendingGames
		pending, pendingGames = nil, 0
		return nil
	}
	err = selfplay.Run(ctx, r.game, sc, func() *selfplay.Net { return r.cfg.selfPlayNet(r.game, r.net.Load()) }, func(gm *selfplay.Game) error {
		if limit > 0 && written+pendingGames >= limit {
			return nil
		}
		if teacher != nil {
			if err := teacher.Relabel(gm.Samples); err != nil {
				return fmt.Errorf("the classical teacher: %w", err)
			}
		}
		if step, _ := checkpoints.StepOf(gm.Net); pendingGames == 0 || step < pendingStep {
			pendingStep = step
		}
		pending = append(pending, gm.Samples...)
		pendingGames++
		r.lengthsMu.Lock()
		r.lengths = append(r.lengths, len(gm.Actions))
		r.lengthsMu.Unlock()
		full := limit > 0 && written+pendingGames >= limit
		if pendingGames >= r.cfg.ShardGames || full {
			if err := flush(); err != nil {
				return err
			}
		}
		if full {
			cancel()
		}
		return nil
	}, r.stats)
	return written, errors.Join(err, flush())
}

// throttle holds self-play back while the trainer is behind its replay
// ratio by more than MinPositions positions' worth of samples, so that
// self-play does not take the cores the trainer needs.
func (r *runner) throttle(ctx context.Context) error {
	waiting := false
	defer func() {
		if waiting {
			r.held.Add(-1)
		}
	}()
	for {
		owed := float64(r.total.Load()-int64(r.cfg.MinPositions)) * r.cfg.ReplayRatio
		if owed <= float64(r.trained.Load()) {
			return nil
		}
		if !waiting {
			waiting = true
			r.held.Add(1)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
