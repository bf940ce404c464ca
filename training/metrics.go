package training

import (
	"fmt"
	"strings"
	"time"

	"trench/arena"
	"trench/datasets"
	"trench/nn"
	"trench/training/rundir"
)

// Metrics is one line of a run's metrics.jsonl, written at each
// checkpoint. Losses and speeds are means over the steps since the last
// checkpoint.
type Metrics struct {
	Time          time.Time `json:"time"`
	Elapsed       float64   `json:"elapsed_s"` // the run's training time, over every process
	Step          uint64    `json:"step"`
	Samples       int64     `json:"samples"` // samples trained on the run's positions (none of a checkpoint brought in)
	Games         int       `json:"games"`
	Positions     int       `json:"positions"`
	Window        int       `json:"window"`
	GameLength    float64   `json:"game_length"`
	LossPolicy    float64   `json:"loss_policy"`
	LossValue     float64   `json:"loss_value"`
	LossScore     float64   `json:"loss_score"`
	LossL2        float64   `json:"loss_l2"`
	LossTotal     float64   `json:"loss_total"`
	PolicyEntropy float64   `json:"policy_entropy"`
	SelfPlayRate  float64   `json:"selfplay_positions_per_s"`
	TrainRate     float64   `json:"train_samples_per_s"`
	Checkpoint    string    `json:"checkpoint"`
	// FreshPositions is how many new self-play positions the period's
	// fresh losses were measured on: positions the net had not trained
	// on, as they arrived (up to 256 of each arrival). The Fresh losses
	// are the net's on them, the Aids losses those of the search's aids
	// alone (capture-first priors and material values, nn.BaseLosses):
	// a net whose fresh losses are above its aids' adds noise to them.
	FreshPositions  int     `json:"fresh_positions,omitempty"`
	FreshLossPolicy float64 `json:"fresh_loss_policy,omitempty"`
	FreshLossValue  float64 `json:"fresh_loss_value,omitempty"`
	FreshLossScore  float64 `json:"fresh_loss_score,omitempty"`
	AidsLossPolicy  float64 `json:"aids_loss_policy,omitempty"`
	AidsLossValue   float64 `json:"aids_loss_value,omitempty"`
	AidsLossScore   float64 `json:"aids_loss_score,omitempty"`
	// Arena is the checkpoint's match against the last rated checkpoint
	// and the baselines, every eval-every checkpoints.
	Arena *arena.Summary `json:"arena,omitempty"`
	// Elo is the checkpoint's rating on the run's scale, where the first,
	// random net is 0: the last rated checkpoint's plus the difference
	// their match measured.
	Elo *float64 `json:"elo,omitempty"`
	// Rejected tells that the checkpoint scored below the gate against
	// the last rated one, so self-play kept that one's net.
	Rejected bool `json:"rejected,omitempty"`
	// Recovered tells that the line was written when the run resumed,
	// for a checkpoint whose line a crash lost: the period's losses,
	// speeds and game lengths are unknown and left at zero.
	Recovered bool `json:"recovered,omitempty"`
}

// metricsLine gathers the metrics of the period since the last checkpoint.
func (r *runner) metricsLine(t *nn.Trainer, win *datasets.Window, ph phase, sum nn.Losses, steps int, period time.Duration, played int64) Metrics {
	games, positions := ph.counts(win)
	m := Metrics{
		Time: time.Now().UTC(), Elapsed: r.elapsed + time.Since(r.start).Seconds(),
		Step: t.Steps(), Samples: r.trained.Load(),
		Games: games, Positions: positions, Window: win.Size(),
	}
	if steps > 0 {
		n := float64(steps)
		m.LossPolicy, m.LossValue, m.LossScore, m.LossL2, m.LossTotal = sum.Policy/n, sum.Value/n, sum.Score/n, sum.L2/n, sum.Total/n
	}
	if s := period.Seconds(); s > 0 {
		m.SelfPlayRate = float64(played) / s
		m.TrainRate = float64(steps*r.cfg.BatchSize) / s
	}
	r.lengthsMu.Lock()
	if len(r.lengths) > 0 {
		total := 0
		for _, l := range r.lengths {
			total += l
		}
		m.GameLength = float64(total) / float64(len(r.lengths))
		r.lengths = r.lengths[:0]
	}
	r.lengthsMu.Unlock()
	return m
}

// summary is the one-line report printed at each checkpoint.
func (m Metrics) summary() string {
	return fmt.Sprintf("%s step %d · games %d · positions %d (window %d) · loss %.3f (policy %.3f value %.3f score %.3f) · entropy %.2f · self-play %.0f pos/s · training %.0f samples/s · %s",
		time.Duration(m.Elapsed*float64(time.Second)).Round(time.Second), m.Step, m.Games, m.Positions, m.Window,
		m.LossTotal, m.LossPolicy, m.LossValue, m.LossScore, m.PolicyEntropy, m.SelfPlayRate, m.TrainRate, m.Checkpoint) + m.freshSummary() + m.arenaSummary()
}

// freshSummary is the checkpoint's line of fresh losses, empty without
// new positions.
func (m Metrics) freshSummary() string {
	if m.FreshPositions == 0 {
		return ""
	}
	return fmt.Sprintf("\n  new positions (%d): policy %.3f value %.3f score %.3f · the aids alone: policy %.3f value %.3f score %.3f",
		m.FreshPositions, m.FreshLossPolicy, m.FreshLossValue, m.FreshLossScore, m.AidsLossPolicy, m.AidsLossValue, m.AidsLossScore)
}

// arenaSummary is the checkpoint's arena line, empty without a match.
func (m Metrics) arenaSummary() string {
	if m.Arena == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n  arena:")
	if v := m.Arena.VsPrevious; v != nil {
		fmt.Fprintf(&b, " vs %s %.0f%%", v.Opponent, 100*v.Score)
	}
	for _, v := range m.Arena.VsBaselines {
		fmt.Fprintf(&b, " · vs %s %.0f%%", v.Opponent, 100*v.Score)
	}
	switch {
	case m.Rejected:
		b.WriteString(" · rejected by the gate: self-play keeps the previous net")
	case m.Elo != nil:
		fmt.Fprintf(&b, " · Elo %+.0f", *m.Elo)
	}
	return b.String()
}

// AppendMetrics appends m as one line of the run's metrics file and syncs
// it (rundir.AppendMetrics). A crash can leave at most a torn last line,
// which ReadMetrics skips.
func AppendMetrics(dir string, m Metrics) error {
	return rundir.AppendMetrics(dir, m)
}

// ReadMetrics reads a run's metrics, skipping lines that do not parse (a
// line torn by a crash) and reporting how many it skipped.
func ReadMetrics(dir string) ([]Metrics, int, error) {
	return rundir.ReadMetrics[Metrics](dir)
}
