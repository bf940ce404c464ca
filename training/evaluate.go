package training

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"trench/arena"
	"trench/checkpoints"
	"trench/nn"
	"trench/training/rundir"
)

// rating is the newest rated checkpoint and its Elo on the run's scale,
// on which the first, random net is 0.
type rating struct {
	checkpoint string
	elo        float64
}

// restoreRating finds the newest rated checkpoint in the run's metrics
// (without one the random net of step 0 is the reference) and the
// training time of earlier processes.
func (r *runner) restoreRating() error {
	lines, skipped, err := ReadMetrics(r.dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if skipped > 0 {
		fmt.Fprintf(r.opt.Warnings, "warning: %s: skipped %d lines that do not parse (torn by a crash?)\n", filepath.Join(r.dir, rundir.MetricsFile), skipped)
	}
	r.rated = rating{checkpoint: checkpoints.FileName(0)}
	r.logged = map[string]bool{}
	for _, m := range lines {
		r.elapsed = m.Elapsed
		r.logged[m.Checkpoint] = true
		if _, err := os.Stat(filepath.Join(r.dir, checkpoints.Subdir, m.Checkpoint)); err != nil {
			// Moved aside as unreadable: it cannot be an opponent.
			continue
		}
		if m.Elo != nil && !m.Rejected {
			r.rated = rating{checkpoint: m.Checkpoint, elo: *m.Elo}
		}
	}
	return nil
}

// recoverMetrics writes the metrics line of checkpoint c, which the run
// resumes from, if a crash lost it between the checkpoint and its line,
// playing its arena match if one was due. A match stopped by ctx leaves
// the line to the next resume.
func (r *runner) recoverMetrics(ctx context.Context, t *nn.Trainer, c *checkpoints.Checkpoint) error {
	name := filepath.Base(c.Path)
	if c.Step == 0 || r.logged[name] {
		return nil
	}
	m := Metrics{
		Time: time.Now().UTC(), Elapsed: r.elapsed, Step: c.Step, Samples: r.samplesTrained(c.Step),
		Games: int(c.Games), Positions: int(c.Positions), Window: r.cfg.Window().Size(int(c.Positions)),
		Checkpoint: name, Recovered: true,
	}
	// Without a line, the run's oldest checkpoint was brought in from
	// another run; any other lost its line in a crash.
	interrupted, lost := "which a crash interrupted", "which a crash lost"
	if c.Step == r.firstStep {
		interrupted, lost = "which the run starts from", "which the run starts from"
	}
	if r.evaluationDue(c.Step) {
		fmt.Fprintf(r.opt.Progress, "playing the arena match of %s, %s\n", name, interrupted)
		if err := r.rate(ctx, t, c, &m); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	if err := AppendMetrics(r.dir, m); err != nil {
		return err
	}
	r.logged[name] = true
	fmt.Fprintf(r.opt.Progress, "wrote the metrics line of %s, %s%s\n", name, lost, m.arenaSummary())
	return nil
}

// rate plays checkpoint c's arena match into m and hands c to self-play
// if a gate passed it. A match stopped by ctx leaves c unrated.
func (r *runner) rate(ctx context.Context, t *nn.Trainer, c *checkpoints.Checkpoint, m *Metrics) error {
	switch take, err := r.evaluate(ctx, c, m); {
	case ctx.Err() != nil:
	case err != nil:
		return err
	case take && r.cfg.Gate > 0:
		return r.publish(t, c)
	}
	return nil
}

// evaluationDue tells whether the checkpoint of step gets an arena match.
// In games of more than two players the checkpoint sits at a table with
// copies of each opponent (arena.RunGauntlet).
func (r *runner) evaluationDue(step uint64) bool {
	every := uint64(r.cfg.EvalEvery) * uint64(r.cfg.CheckpointEvery)
	return every > 0 && step > 0 && step%every == 0
}

// evaluate plays checkpoint c's gauntlet against the newest rated
// checkpoint and the baselines, and records the result in m: the match,
// c's Elo chained through the rated checkpoint's, and whether the gate
// rejected c. It returns whether self-play should take c up.
//
// A run started from a checkpoint brought in from another run has no
// rated checkpoint of its own to play at first: its first rated
// checkpoint meets the baselines alone and starts the run's Elo scale at
// 0.
func (r *runner) evaluate(ctx context.Context, c *checkpoints.Checkpoint, m *Metrics) (bool, error) {
	previous := filepath.Join(r.dir, checkpoints.Subdir, r.rated.checkpoint)
	baselines := r.cfg.baselines()
	if _, err := os.Stat(previous); errors.Is(err, fs.ErrNotExist) {
		previous = ""
		if len(baselines) == 0 {
			return true, nil
		}
	}
	s, err := arena.RunGauntlet(ctx, arena.GauntletOptions{
		Game: r.game, Current: c.Path, Previous: previous,
		Baselines: baselines, Games: r.cfg.EvalGames,
		NetPlayer: r.cfg.EvalPlayer, Seed: r.cfg.Seed ^ c.Step,
	})
	if err != nil {
		return false, fmt.Errorf("arena match of %s: %w", filepath.Base(c.Path), err)
	}
	m.Arena = &s
	if s.VsPrevious == nil {
		elo := 0.0
		m.Elo = &elo
		r.rated = rating{checkpoint: filepath.Base(c.Path)}
		return true, nil
	}
	v := s.VsPrevious
	if r.cfg.Gate > 0 && v.Score < r.cfg.Gate {
		m.Rejected = true
		return false, nil
	}
	elo := r.rated.elo + eloStep(v.Wins, v.Draws, v.Losses)
	m.Elo = &elo
	r.rated = rating{checkpoint: filepath.Base(c.Path), elo: elo}
	return true, nil
}

// eloStep is the Elo difference that a score of wins, draws and losses
// means, with a perfect or nil score taken as half a game short of it so
// that the chained scale stays finite.
func eloStep(w, d, l int) float64 {
	n := float64(w + d + l)
	if n == 0 {
		return 0
	}
	s := (float64(w) + float64(d)/2) / n
	s = min(max(s, 0.5/n), 1-0.5/n)
	return -400 * math.Log10(1/s-1)
}

// baselines lists the configured baseline players. Specs are separated by
// commas, which also separate a spec's options: a part with "=" and no
// ":" is an option of the spec before it ("alphabeta:depth=2,tt=16").
func (c Config) baselines() []string {
	var out []string
	for _, part := range strings.Split(c.EvalBaselines, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case len(out) > 0 && strings.Contains(part, "=") && !strings.Contains(part, ":"):
			out[len(out)-1] += "," + part
		default:
			out = append(out, part)
		}
	}
	return out
}
