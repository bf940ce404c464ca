package reanalysis

import (
	"errors"
	"fmt"
	"io"
	"os"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/internal/excerpt"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
	"trench/training"
	"trench/training/relabel"
)

// MaxWorkers bounds the shards reanalysed at once (Teacher.Workers, and
// an NNUE run's branch).
const MaxWorkers = 256

// Teacher is what gives a run's positions their new targets, as trench
// reanalyse's flags (named in its errors) choose: exactly one of a net
// (Net, searched with Sims simulations when Sims > 0), the game's
// classical search (ClassicalDepth > 0) or the games' own λ-returns
// (Returns, with Lambda).
type Teacher struct {
	// Net is a conv net's checkpoint file or run directory, or "default";
	// or an NNUE's net file or run directory, the evaluation of the
	// classical search (with ClassicalDepth).
	Net string
	// Sims > 0 searches each position with the net and the tactical aids
	// of the run From (the quick preset's when From has no config).
	Sims int
	// From is the run directory whose positions are reanalysed.
	From string
	// ClassicalDepth is the classical search's depth, in plies.
	ClassicalDepth int
	// ClassicalEval names the classical search's evaluation, one of the
	// game's (e.g. Trichess's material, the rules' piece points alone);
	// "" for its default, or the NNUE's when Net names one.
	ClassicalEval string
	// ClassicalScale is the lead valued tanh(1) in a two-player game.
	ClassicalScale float64
	// Returns gives each position its game's λ-return, Lambda in [0, 1].
	Returns bool
	Lambda  float64
	// Policy also replaces the policy targets with the teacher's.
	Policy bool
	// Workers is the shards reanalysed at once.
	Workers int
}

// Validate reports the first setting that cannot teach game g, naming
// its flag.
func (t Teacher) Validate(g engine.Game) error {
	nnueNet, err := t.nnue()
	if err != nil {
		return err
	}
	if nnueNet && t.ClassicalDepth == 0 {
		return fmt.Errorf("--net %s is an NNUE, which teaches through the classical search: give --classical-depth", excerpt.Quote(t.Net))
	}
	teachers := 0
	for _, on := range []bool{t.Net != "" && !nnueNet, t.ClassicalDepth != 0, t.Returns} {
		if on {
			teachers++
		}
	}
	switch {
	case teachers != 1:
		return errors.New("give exactly one teacher: --net, --classical-depth or --td-lambda")
	case t.Returns && !(t.Lambda >= 0 && t.Lambda <= 1):
		return fmt.Errorf("--td-lambda must be in [0, 1], got %v", t.Lambda)
	case t.Returns && (t.Policy || t.Sims > 0):
		return errors.New("--td-lambda gives values from the stored games; it cannot go with --policy or --sims")
	case t.ClassicalDepth < 0:
		return fmt.Errorf("--classical-depth must not be negative, got %d", t.ClassicalDepth)
	case t.ClassicalDepth > 0 && t.Sims > 0:
		return errors.New("--sims searches with a net; it cannot go with --classical-depth")
	case t.ClassicalEval != "" && t.ClassicalDepth == 0:
		return errors.New("--classical-eval chooses the classical search's evaluation: give --classical-depth")
	case t.Sims < 0 || t.Sims > searchconfig.MaxSims:
		return fmt.Errorf("--sims must be in 0..%d, got %d", searchconfig.MaxSims, t.Sims)
	case t.Workers < 1 || t.Workers > MaxWorkers:
		return fmt.Errorf("--workers must be in 1..%d, got %d", MaxWorkers, t.Workers)
	}
	if err := relabel.CheckClassicalScale(t.ClassicalScale); err != nil {
		return fmt.Errorf("--classical-%w", err)
	}
	if t.ClassicalDepth > 0 {
		if err := relabel.CheckClassicalDepth(g, t.ClassicalDepth); err != nil {
			return fmt.Errorf("--classical-%w", err)
		}
	}
	return nil
}

// nnue reports whether Net names an NNUE, an error naming --net when it
// names nothing that loads. The built-in net's name is the built-in
// NNUE when the classical search teaches, else the built-in conv net.
func (t Teacher) nnue() (bool, error) {
	switch t.Net {
	case "":
		return false, nil
	case shipped.Ref:
		return t.ClassicalDepth > 0, nil
	}
	h, err := checkpoints.Identify(t.Net)
	if err != nil {
		return false, fmt.Errorf("--net: %w", err)
	}
	return h.NNUE(), nil
}

// Describe says who teaches, e.g. "their games' λ-returns (λ 0.9)", for
// the λ-returns; Evaluators describes the others.
func (t Teacher) Describe() string {
	return fmt.Sprintf("their games' λ-returns (λ %g)", t.Lambda)
}

// Evaluators returns the evaluators of a net's or the classical search's
// teacher of game g for Relabel, one for each worker, and a description
// of the teacher; warnings about the net's run directory go to warn.
func (t Teacher) Evaluators(g engine.Game, warn io.Writer) (func() mcts.Evaluator, string, error) {
	if t.ClassicalDepth > 0 {
		return t.classical(g)
	}
	net, err := neteval.LoadNet(g, t.Net)
	if err != nil {
		return nil, "", err
	}
	net.WarnPassed(warn)
	ev, err := neteval.NewWithScoreUtility(g, net.Inference, 0)
	if err != nil {
		return nil, "", fmt.Errorf("net %s: %w", excerpt.Quote(t.Net), err)
	}
	if t.Sims == 0 {
		return func() mcts.Evaluator { return ev }, fmt.Sprintf("%s (its own evaluation)", net), nil
	}
	cfg, err := training.LoadConfig(t.From)
	if errors.Is(err, os.ErrNotExist) {
		cfg, err = training.Preset("quick")
	}
	if err != nil {
		return nil, "", err
	}
	aided := cfg.SearchEvaluator(g, ev)
	return func() mcts.Evaluator {
		return &Searcher{Evaluator: aided, Params: mcts.DefaultParams(), Sims: t.Sims}
	}, fmt.Sprintf("%s (a %d-simulation search)", net, t.Sims), nil
}

// classical returns the classical search's evaluators, searching
// ClassicalDepth plies with the evaluation ClassicalEval names or the
// NNUE Net names, one for each worker.
func (t Teacher) classical(g engine.Game) (func() mcts.Evaluator, string, error) {
	flag := "--classical-eval"
	if t.Net != "" {
		flag = "--net"
		if t.ClassicalEval != "" && t.ClassicalEval != searchconfig.EvalNNUE {
			return nil, "", fmt.Errorf("--classical-eval %s reads no net; --net names the NNUE of --classical-eval nnue", excerpt.Quote(t.ClassicalEval))
		}
	}
	newTeacher, doc, err := relabel.ClassicalTeacher(g, t.ClassicalDepth, t.ClassicalEval, t.Net, t.ClassicalScale)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", flag, err)
	}
	evaluators := make(chan mcts.Evaluator, t.Workers)
	for range t.Workers {
		c, err := newTeacher()
		if err != nil {
			return nil, "", err
		}
		evaluators <- c
	}
	return func() mcts.Evaluator { return <-evaluators }, doc, nil
}
