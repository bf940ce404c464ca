package training

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine"
	"trench/mcts"
	"trench/nn"
)

// phase is one stretch of training: what it learns from and until when.
type phase struct {
	// dir holds the positions, seen through a window of params.
	dir    string
	window datasets.WindowParams
	// until is the step the phase ends at (0: none).
	until int
	// paced holds training to the replay ratio over positions that
	// self-play is still adding, after the first MinPositions.
	paced bool
	// games and positions, when positions is not 0, are the run's own
	// counts, which metrics, checkpoints and status lines report instead
	// of those of dir: the relabelling phase trains on a copy of part of
	// the run's positions.
	games, positions int
}

// counts returns the games and positions a report counts: the phase's
// own if set, else those of its window.
func (ph phase) counts(win *datasets.Window) (games, positions int) {
	if ph.positions > 0 {
		return ph.games, ph.positions
	}
	return win.Games(), win.Total()
}

// selfPlayPhase is the run's main phase: its own self-play's positions
// until --steps.
func (r *runner) selfPlayPhase() phase {
	return phase{dir: r.datasetDir(), window: r.cfg.Window(), until: r.cfg.Steps, paced: true}
}

// train runs optimizer steps on ph's positions until ph.until, while the
// replay ratio allows when ph is paced, writing a checkpoint every
// cfg.CheckpointEvery steps and when stopped. It returns the newest
// checkpoint.
func (r *runner) train(ctx context.Context, t *nn.Trainer, ckpt *checkpoints.Checkpoint, ph phase) (*checkpoints.Checkpoint, error) {
	cfg := r.cfg
	win := datasets.NewWindow(ph.dir, r.game, ph.window, r.opt.Warnings)
	rng := rand.New(rand.NewPCG(cfg.Seed, t.Steps()))
	seats := t.Config().Seats
	var batch datasets.Batch
	base := t.Config().ValueBase
	batch.PolicyOffsets = t.Config().PolicyBase != nn.PolicyBaseNone
	fresh := newFreshLosses(r.game, cfg.SearchValue, cfg.ScoreWeight)
	r.trained.Store(r.samplesTrained(t.Steps()))
	bar := r.newBar("training", "steps", ph.until, int(t.Steps()))
	defer bar.Finish()

	var (
		nb       nn.Batch
		sum      nn.Losses
		steps    int
		refresh  time.Time
		period   = time.Now()
		played   = r.stats.Positions.Load()
		lastStep = t.Steps()
		status   = time.Now()
	)
	statusEvery := r.opt.StatusEvery
	if statusEvery <= 0 {
		statusEvery = time.Minute
	}
	save := func() error {
		m := r.metricsLine(t, win, ph, sum, steps, time.Since(period), r.stats.Positions.Load()-played)
		fresh.report(&m)
		var err error
		if ckpt, err = r.checkpoint(t, ckpt, m.Games, m.Positions); err != nil {
			return err
		}
		m.Checkpoint = filepath.Base(ckpt.Path)
		m.PolicyEntropy = r.policyEntropy(win, rng)
		if r.evaluationDue(ckpt.Step) {
			bar.Describe("arena match of " + m.Checkpoint)
			if err := r.rate(ctx, t, ckpt, &m); err != nil {
				return err
			}
		}
		if err := AppendMetrics(r.dir, m); err != nil {
			return err
		}
		r.logged[m.Checkpoint] = true
		bar.Clear()
		fmt.Fprintln(r.opt.Progress, m.summary())
		sum, steps, period, played, lastStep = nn.Losses{}, 0, time.Now(), r.stats.Positions.Load(), t.Steps()
		return nil
	}
	for ph.until == 0 || int(t.Steps()) < ph.until {
		if ctx.Err() != nil {
			break
		}
		if time.Since(refresh) > 500*time.Millisecond {
			added, err := win.Refresh()
			if err != nil {
				return ckpt, err
			}
			// The first refresh loads what earlier sessions of the run
			// wrote, which the net may have trained on.
			if !refresh.IsZero() {
				if err := fresh.measure(t, win, added); err != nil {
					return ckpt, err
				}
			}
			r.total.Store(int64(win.Total()))
			refresh = time.Now()
		}
		if !r.opt.Bars && time.Since(status) >= statusEvery {
			fmt.Fprintf(r.opt.Progress, "step %d · %s\n", t.Steps(), r.describe(ph, win, sum, steps))
			status = time.Now()
		}
		owed := float64(win.Total()) * cfg.ReplayRatio
		if ph.paced && (win.Total() < cfg.MinPositions || float64(r.trained.Load()) >= owed) {
			bar.Describe(r.describe(ph, win, sum, steps))
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if err := win.Fill(&batch, cfg.BatchSize, rng, true); err != nil {
			return ckpt, err
		}
		toNN(&batch, &nb, seats, base, float32(cfg.SearchValue))
		t.SetThreads(r.stepThreads(ph))
		l, err := t.Step(nb)
		if err != nil {
			return ckpt, err
		}
		sum.Policy, sum.Value, sum.Score, sum.L2, sum.Total = sum.Policy+l.Policy, sum.Value+l.Value, sum.Score+l.Score, sum.L2+l.L2, sum.Total+l.Total
		steps++
		r.trained.Add(int64(cfg.BatchSize))
		bar.Describe(r.describe(ph, win, sum, steps))
		bar.Set(int(t.Steps()))
		if t.Steps()%uint64(cfg.CheckpointEvery) == 0 {
			if err := save(); err != nil {
				return ckpt, err
			}
		}
	}
	if t.Steps() != lastStep {
		return ckpt, save()
	}
	return ckpt, nil
}

// toNN converts a datasets batch into the net's training batch: each
// seat's value target u, its final utility mixed with weight searchValue
// of its search value, becomes the win/draw/loss target (max(u,0), 1-|u|,
// max(-u,0)). A net with the material value base (nn.ValueBaseMaterial)
// gets the batch's material offsets, and one with a policy base the
// batch's policy offsets when it has them.
func toNN(b *datasets.Batch, nb *nn.Batch, seats int, base string, searchValue float32) {
	players := len(b.Result) / b.N
	nb.N, nb.Input, nb.Policy, nb.Weight = b.N, b.Inputs, b.Policy, nil
	nb.Value = resize(nb.Value, b.N*seats*3)
	nb.Score = resize(nb.Score, b.N*seats)
	var vo, so []float32
	if base == nn.ValueBaseMaterial {
		vo, so = resize(nb.ValueOffset, b.N*seats), resize(nb.ScoreOffset, b.N*seats)
	}
	nb.ValueOffset, nb.ScoreOffset = vo, so
	nb.PolicyOffset = nil
	if b.PolicyOffsets {
		nb.PolicyOffset = b.PolicyOffset
	}
	for i := 0; i < b.N; i++ {
		for k := 0; k < seats; k++ {
			j := i*players + k
			u := (1-searchValue)*b.Result[j] + searchValue*b.SearchValue[j]
			v := nb.Value[(i*seats+k)*3:]
			v[0], v[1], v[2] = max(u, 0), 1-float32(math.Abs(float64(u))), max(-u, 0)
			nb.Score[i*seats+k] = b.ScoreDiff[j]
			if vo != nil {
				vo[i*seats+k], so[i*seats+k] = b.LogitOffset[j], b.ScoreOffset[j]
			}
		}
	}
}

func resize(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// checkpoint saves the trainer's state as the run's next checkpoint and
// hands the new net to self-play unless a gate must pass it first.
func (r *runner) checkpoint(t *nn.Trainer, parent *checkpoints.Checkpoint, games, positions int) (*checkpoints.Checkpoint, error) {
	c, err := t.Checkpoint()
	if err != nil {
		return nil, err
	}
	c.Games, c.Positions = uint64(games), uint64(positions)
	c.Parent = filepath.Base(parent.Path)
	c.Created = time.Now()
	if c.Path, err = checkpoints.SaveToRun(r.dir, c); err != nil {
		return nil, err
	}
	if r.cfg.Gate > 0 {
		// Gated: self-play takes up only checkpoints that pass their match.
		return c, nil
	}
	return c, r.publish(t, c)
}

// policyEntropy is the mean entropy, in nats, of the current net's policy
// over the legal moves of up to 64 window positions.
func (r *runner) policyEntropy(win *datasets.Window, rng *rand.Rand) float64 {
	net := r.net.Load()
	n := min(64, win.Size())
	if net == nil || n == 0 {
		return 0
	}
	var (
		states []engine.State
		evals  = make([]mcts.Evaluation, n)
	)
	for i := 0; i < n; i++ {
		s, err := r.game.ParseState(win.Sample(rng).State)
		if err != nil {
			return math.NaN()
		}
		states = append(states, s)
		evals[i].Actions = s.LegalActions(nil)
	}
	if err := net.Eval.Evaluate(states, evals); err != nil {
		return math.NaN()
	}
	var h float64
	for _, e := range evals {
		for _, p := range e.Policy {
			if p > 0 {
				h -= float64(p) * math.Log(float64(p))
			}
		}
	}
	return h / float64(n)
}

// newBar returns a progress bar of unit (e.g. "steps") under title, at
// done of max (0: no end known), shown when Options.Bars is set.
func (r *runner) newBar(title, unit string, max, done int) *progressbar.ProgressBar {
	if max == 0 {
		max = -1
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(r.opt.Progress),
		progressbar.OptionSetDescription(title),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionShowIts(),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
	}
	if !r.opt.Bars {
		opts = append(opts, progressbar.OptionSetVisibility(false))
	}
	bar := progressbar.NewOptions(max, opts...)
	bar.Set(done)
	return bar
}

// describe is the progress bar's live description.
func (r *runner) describe(ph phase, win *datasets.Window, sum nn.Losses, steps int) string {
	loss := "-"
	if steps > 0 {
		loss = fmt.Sprintf("%.3f", sum.Total/float64(steps))
	}
	games, positions := ph.counts(win)
	return fmt.Sprintf("games %d · positions %d · moves played %d · loss %s", games, positions, r.stats.Positions.Load(), loss)
}
