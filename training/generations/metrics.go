package generations

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"trench/arena"
	"trench/internal/atomicfile"
	"trench/training/rundir"
)

// Metrics is one line of the run's metrics.jsonl, written when a
// generation is done. The fields the AlphaZero loop's lines also have
// (training.Metrics) carry the same JSON names, so that the report
// draws Elo against hours and positions for both kinds of run.
type Metrics struct {
	Time time.Time `json:"time"`
	// Elapsed is the run's time so far over every process, in seconds;
	// Hours the same in hours.
	Elapsed float64 `json:"elapsed_s"`
	Hours   float64 `json:"hours"`
	// Generation is the generation's number, from 0.
	Generation int `json:"generation"`
	// Player is what played the generation's games: "rules" or a net.
	Player string `json:"player"`
	// Teacher is the conv net whose values labelled the generation's
	// positions (Config.Teacher, generation 0 only): its file or the
	// built-in net's name and its training step; empty when the
	// search's scores did.
	Teacher string `json:"teacher,omitempty"`
	// NewPositions is the generation's positions, local and remote, on
	// disk when it ended; Positions those of every generation so far;
	// Window those training sampled from.
	NewPositions int `json:"new_positions"`
	// RemotePositions is the generation's positions that workers on
	// other machines played (Options.Remote), on disk when the generation
	// ended: more than they had sent when its data was done, if some
	// came during its training and matches.
	RemotePositions int `json:"remote_positions,omitempty"`
	Positions       int `json:"positions"`
	Window          int `json:"window"`
	// GenerateRate is the data generation's positions a second, in the
	// process that finished it (0 if it was already done).
	GenerateRate float64 `json:"generate_positions_per_s"`
	// Step is the training steps of every generation so far.
	Step uint64 `json:"step"`
	// TrainLoss is the mean loss of the generation's last training
	// steps; ValidationLoss the net's loss on the held-out games.
	TrainLoss      float64 `json:"train_loss"`
	ValidationLoss float64 `json:"validation_loss"`
	// Net is the generation's net, in the run's nets folder; SHA256 the
	// hex SHA-256 of its file, so that a copy can be told for it.
	Net    string `json:"net"`
	SHA256 string `json:"sha256,omitempty"`
	// Parent is the net, in the nets folder, whose weights the
	// generation's training started from; empty for fresh weights.
	Parent string `json:"parent,omitempty"`
	// Gate is the SPRT of the net against Player.
	Gate *Gate `json:"gate"`
	// Arena holds the gate's standing (VsPrevious, against Player) and
	// the anchors' (VsBaselines), each from the new net's side.
	Arena *arena.Summary `json:"arena,omitempty"`
	// Elo is the net's rating on the run's scale, the rules' evaluation
	// at 0, when the gate accepted it: the accepted net before it plus
	// their gate's difference.
	Elo *float64 `json:"elo,omitempty"`
	// Rejected tells that the gate kept the previous player.
	Rejected bool `json:"rejected,omitempty"`
}

// Gate is the result of a generation's SPRT.
type Gate struct {
	// LLR, Lower and Upper are the test's log-likelihood ratio and
	// bounds at the end; Decision is "H1 accepted", "H0 accepted" or
	// "undecided".
	LLR, Lower, Upper float64
	Decision          string
	// Pairs is the game pairs played, or for Trichess the opening
	// groups of three games.
	Pairs int
	// Accepted tells that the new net replaces the player: H1 accepted,
	// or the test undecided at its last pair with a positive LLR; or,
	// the head-to-head not showing it worse, Anchor.Better.
	Accepted bool
	// Anchor is the gate's second way (gate.go): the new net and the
	// player against the hand-written evaluation, and the anchor net if
	// the run has one, on the same openings. Nil when it was not needed
	// (the SPRT accepted the new net, or showed it worse) or is off
	// (--gate-anchor-z 0). With two anchors it is their combination,
	// and ByAnchor holds each.
	Anchor   *AnchorComparison  `json:",omitempty"`
	ByAnchor []AnchorComparison `json:",omitempty"`
}

// progress is a generation's finished phases, saved after each so that
// a resumed run does not redo them.
type progress struct {
	// Trained is set once the net is saved, with its losses.
	Trained                   bool
	TrainLoss, ValidationLoss float64
	Window                    int
	GenerateRate              float64
	// Teacher is the conv net that labels the generation's positions,
	// recorded when it is loaded.
	Teacher      string
	Gate         *Gate
	GateStanding *arena.Standing
	// Anchors holds each anchor match played, by opponent; GatePairs
	// the new net's score in each pair (pairScores) against each anchor
	// the gate's second way counts, by the anchor's name.
	Anchors   []arena.Standing
	GatePairs map[string][]float64
	// Elapsed is the run's time in seconds when the progress was saved,
	// so that a generation stopped and resumed counts the time it spent
	// before the stop.
	Elapsed float64
}

// progressPath is generation g's progress file.
func progressPath(dir string, g int) string {
	return filepath.Join(dir, fmt.Sprintf("gen-%06d.json", g))
}

// loadProgress reads generation g's progress, empty if it has none.
func loadProgress(dir string, g int) (progress, error) {
	var p progress
	raw, err := os.ReadFile(progressPath(dir, g))
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("%s: %w", progressPath(dir, g), err)
	}
	return p, nil
}

// save writes generation g's progress atomically, at the run's time
// elapsed.
func (p *progress) save(dir string, g int, elapsed float64) error {
	p.Elapsed = elapsed
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return atomicfile.Write(progressPath(dir, g), append(raw, '\n'))
}

// anchor returns the anchor match against opponent, if played.
func (p *progress) anchor(opponent string) (arena.Standing, bool) {
	for _, s := range p.Anchors {
		if s.Opponent == opponent {
			return s, true
		}
	}
	return arena.Standing{}, false
}

// summary is the generation's line for the console.
func (m Metrics) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "generation %d · %.2f h · %d new positions (%d in all, window %d) · loss %.4f, validation %.4f",
		m.Generation, m.Hours, m.NewPositions, m.Positions, m.Window, m.TrainLoss, m.ValidationLoss)
	if m.SHA256 != "" {
		parent := m.Parent
		if parent == "" {
			parent = "fresh weights"
		}
		fmt.Fprintf(&b, "\n  net %s (sha256 %s), trained from %s", m.Net, m.SHA256, parent)
	}
	if m.Teacher != "" {
		fmt.Fprintf(&b, "\n  positions labelled by the teacher %s", m.Teacher)
	}
	if m.Gate != nil {
		verdict := "rejected: the previous player stays"
		if m.Gate.Accepted {
			verdict = "accepted"
		}
		if a := m.Gate.Anchor; a != nil && a.Better {
			verdict = "accepted against the anchor"
		}
		unit := "pairs"
		if m.Arena != nil && m.Arena.VsPrevious != nil && m.Arena.VsPrevious.Lead != nil {
			unit = "opening groups"
		}
		fmt.Fprintf(&b, "\n  gate vs %s: LLR %.2f (%.2f, %.2f), %d %s, %s", m.Player, m.Gate.LLR, m.Gate.Lower, m.Gate.Upper, m.Gate.Pairs, unit, verdict)
		if m.Arena != nil && m.Arena.VsPrevious != nil {
			fmt.Fprintf(&b, " · score %.0f%%, Elo %s%s", 100*m.Arena.VsPrevious.Score, m.Arena.VsPrevious.Elo, leadText(*m.Arena.VsPrevious))
		}
		if a := m.Gate.Anchor; a != nil {
			fmt.Fprintf(&b, "\n  gate vs %s on the same %d pairs: %.1f%% against the player's %.1f%%, difference %+.1f%% ± %.1f%% (better asks > %.2f standard errors)",
				a.Opponent, a.Pairs, 100*a.New, 100*a.Player, 100*a.Diff, 100*a.SE, a.Z)
			for _, e := range m.Gate.ByAnchor {
				fmt.Fprintf(&b, "\n    vs %s alone: %.1f%% against %.1f%%, difference %+.1f%% ± %.1f%%", e.Opponent, 100*e.New, 100*e.Player, 100*e.Diff, 100*e.SE)
			}
		}
	}
	if m.Arena != nil {
		for _, s := range m.Arena.VsBaselines {
			fmt.Fprintf(&b, "\n  vs %s: %d-%d-%d, Elo %s%s", s.Opponent, s.Wins, s.Draws, s.Losses, s.Elo, leadText(s))
		}
	}
	if m.Elo != nil {
		fmt.Fprintf(&b, "\n  Elo on the run's scale (rules = 0): %+.0f", *m.Elo)
	}
	return b.String()
}

// leadText is ", lead L [low, high] a game" for a standing with a lead
// (a game of three), "" without.
func leadText(s arena.Standing) string {
	if s.Lead == nil {
		return ""
	}
	return fmt.Sprintf(", lead %+.2f [%+.2f, %+.2f] a game", s.Lead.Mean, s.Lead.Low, s.Lead.High)
}

// ReadMetrics reads the run's metrics lines (rundir.ReadMetrics: a torn
// last line is skipped and counted), decoded as this loop's Metrics.
func ReadMetrics(dir string) ([]Metrics, int, error) {
	return rundir.ReadMetrics[Metrics](dir)
}
