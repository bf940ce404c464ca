// Package training runs the AlphaZero loop in a run directory: self-play
// with the latest net writes shards of positions, a trainer samples them
// from a sliding window and writes checkpoints, which self-play picks up at
// its next game boundary. Everything is resumable: a run directory holds
// its config, checkpoints, shards and metrics, and rerunning continues it.
//
// A run directory:
//
//	run.json             the marker: a conv-net run and its game (package training/rundir)
//	config.json          the run's Config
//	checkpoints/         ckpt-NNNNNN.tnet, one per checkpoint step
//	datasets/            shard-*.npz, self-play positions
//	metrics.jsonl        one JSON object per checkpoint
//	train.lock           locked by the trainer running the run (rundir.Lock)
package training

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine"
	"trench/engine/trichess"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/excerpt"
	"trench/mcts"
	"trench/neteval"
	"trench/nn"
	"trench/players"
	"trench/searchconfig"
	"trench/selfplay"
	"trench/tactics"
	"trench/training/relabel"
	"trench/training/rundir"
)

// Config is everything that defines a training run. Its JSON names are the
// flags of "trench train".
type Config struct {
	Preset       string `json:"preset" help:"named configuration: tiny (under a minute), quick (10 minutes), long (under 3 hours), full (hours to days), or nnue (another loop: the NNUE of alpha-beta; see trench train --preset nnue --help)"`
	Game         string `json:"game" help:"the game to learn"`
	Net          string `json:"net" help:"network size preset: tiny, compact, small, medium or large"`
	PolicyKernel int    `json:"policy-kernel" help:"size of the output convolution of a spatial policy head, 1 or 3 (0: the game's default, 3 for Trench, 1 for Trichess); a 1×1 output makes the net's forward pass cheaper"`

	Workers         int     `json:"workers" help:"self-play goroutines, each with its own batched net calls"`
	GamesPerWorker  int     `json:"games-per-worker" help:"games each self-play worker plays at once"`
	Search          string  `json:"search" help:"root search: gumbel or puct"`
	FullSims        int     `json:"full-sims" help:"simulations of a full search (its policy is a training target)"`
	CheapSims       int     `json:"cheap-sims" help:"simulations of a cheap search (value target only)"`
	FullFraction    float64 `json:"full-fraction" help:"share of moves searched fully (playout cap randomization)"`
	OpeningPlies    int     `json:"opening-plies" help:"first plies sampled from the search policy, for opening diversity"`
	GumbelCScale    float64 `json:"gumbel-c-scale" help:"weight of the searched values in Gumbel's improved policy, the policy target: lower trusts a noisy search less"`
	ScoreUtility    float64 `json:"score-utility" help:"weight in [0, 1] of the net's predicted score in search values (KataGo's score utility)"`
	Quiescence      bool    `json:"quiescence" help:"play out the captures pending at the search's leaves before the net evaluates them (games whose pieces have values)"`
	MaterialValue   float64 `json:"material-value" help:"weight in [0, 1] of the material lead in search values, blended with the net's"`
	CapturePrior    float64 `json:"capture-prior" help:"weight in [0, 1] of capture-first priors in the search's priors, mixed with the net's"`
	TeacherSteps    int     `json:"teacher-steps" help:"self-play searches without the net (capture-first priors and material values, as trench play does with no net) until the newest checkpoint reaches this step, so that the net first learns to imitate that search (0: the net plays from the start)"`
	ClassicalDepth  int     `json:"classical-depth" help:"label every self-play position as its game is written with the game's classical search at this depth (Trench's alphabeta, Trichess's BRS+): its values become the position's search value, the value target's --search-value share (0: the self-play search's own root value)"`
	ClassicalEval   string  `json:"classical-eval" help:"with --classical-depth, the classical search's evaluation, one of the game's (e.g. material: the rules' piece points alone; nnue: the built-in NNUE; empty: the game's default)"`
	ClassicalPolicy bool    `json:"classical-policy" help:"with --classical-depth, the classical search's best move becomes every position's policy target, cheap searches included"`
	RelabelSteps    int     `json:"relabel-steps" help:"with --classical-depth, the classical search labels no position as it is played; instead, once --steps are trained, it relabels the window's positions and the net trains this many more steps on them alone, at --relabel-lr (0: it labels each position as played)"`
	RelabelLR       float64 `json:"relabel-lr" help:"learning rate of the --relabel-steps"`

	BatchSize       int     `json:"batch-size" help:"positions per training step"`
	LearningRate    float64 `json:"lr" help:"learning rate of SGD with Nesterov momentum"`
	LRSchedule      string  `json:"lr-schedule" help:"the learning rate over the run: constant, or cosine (a linear warm-up over the first 1% of --steps, then a half cosine from --lr down to --lr/100 at --steps)"`
	Momentum        float64 `json:"momentum" help:"Nesterov momentum"`
	WeightDecay     float64 `json:"weight-decay" help:"L2 weight decay"`
	ScoreWeight     float64 `json:"score-weight" help:"weight of the final-score loss"`
	ValueBase       string  `json:"value-base" help:"what the net's value and score heads learn: none (the whole value), or material (a correction to the material lead, so that a new net values positions as the material aid does; games whose pieces have values)"`
	PolicyBase      string  `json:"policy-base" help:"what the net's policy head learns: none (the whole logits), or capture (a correction to the capture-first priors, so that a new net's priors are the capture aid's)"`
	SearchValue     float64 `json:"search-value" help:"weight in [0, 1] of the search's root value in the value target, mixed with the game's result (0: the result alone)"`
	PolicySurprise  float64 `json:"policy-surprise" help:"share in [0, 1] of the sampling weight spread over the window's positions in proportion to their policy surprise, how far the search's policy target was from the net's prior (KataGo's policy surprise weighting; 0: uniform sampling)"`
	ReplayRatio     float64 `json:"replay-ratio" help:"times each position is trained on, on average"`
	MinPositions    int     `json:"min-positions" help:"positions to collect before training starts"`
	WindowMin       int     `json:"window-min" help:"the sliding window holds all positions up to this many"`
	WindowExponent  float64 `json:"window-exponent" help:"beyond window-min the window grows as N^exponent"`
	CheckpointEvery int     `json:"checkpoint-every" help:"training steps between checkpoints"`
	ShardGames      int     `json:"shard-games" help:"games per data shard"`
	Steps           int     `json:"steps" help:"stop after this many training steps (0: run until interrupted)"`

	EvalEvery     int     `json:"eval-every" help:"checkpoints between arena matches of the newest checkpoint against the last rated one and the baselines (0: none)"`
	EvalGames     int     `json:"eval-games" help:"games against each opponent in those matches"`
	EvalPlayer    string  `json:"eval-player" help:"how checkpoints play in those matches: policy, or mcts:sims=N"`
	FinalGames    int     `json:"final-games" help:"games of the match the run ends with once --steps are trained: the newest checkpoint playing as --eval-player (a tree search) against the same search without a net, so that the end says whether the net learned (0: none)"`
	EvalBaselines string  `json:"eval-baselines" help:"comma-separated baseline players, e.g. random,greedy,alphabeta:depth=2"`
	Gate          float64 `json:"gate" help:"self-play takes up a new net only if it scores at least this against the last rated one (0: always)"`
	Seed          uint64  `json:"seed" help:"random seed of the first net and of sampling"`
}

// Presets lists the named configurations.
var Presets = []string{"tiny", "quick", "long", "full"}

// Preset returns a named configuration: "tiny" finishes in under a minute
// (tests), "quick" learns something real in 10 minutes on two cores,
// "long" is quick's recipe run for under 3 hours, "full" runs for hours
// to days.
func Preset(name string) (Config, error) {
	sp := searchconfig.SelfPlay()
	c := Config{
		Preset: name, Game: games.Default().Name(), Search: sp.Search,
		Workers: 2, OpeningPlies: 8, GumbelCScale: mcts.DefaultParams().GumbelCScale, ScoreUtility: neteval.DefaultScoreUtility,
		Quiescence: sp.Quiescence, MaterialValue: sp.MaterialValue, CapturePrior: sp.CapturePrior,
		Momentum: 0.9, WeightDecay: 1e-4, ScoreWeight: 0.5,
		WindowExponent: 0.65, Seed: 1, LRSchedule: "constant", ValueBase: "none", PolicyBase: "none",
	}
	switch name {
	case "tiny":
		c.Net, c.GamesPerWorker = "tiny", 8
		c.FullSims, c.CheapSims, c.FullFraction = 8, 4, 0.5
		c.BatchSize, c.LearningRate = 32, 0.02
		c.ReplayRatio, c.MinPositions, c.WindowMin = 2, 300, 2000
		c.CheckpointEvery, c.ShardGames, c.Steps = 10, 4, 30
		c.EvalEvery, c.EvalGames, c.EvalPlayer, c.EvalBaselines = 2, 2, "policy", "random"
	case "quick", "long":
		// Searches of 32/8 simulations and a decaying rate from 0.04
		// learn more in 10 minutes than 64/16 at a constant 0.02 did in
		// 15, and half the value target from the search's root value
		// makes values that help the search where the results alone
		// hurt it; its games are shorter and self-play slower, so 7,000
		// steps fit the 10 minutes (docs/experiments.md, 2026-11-27).
		c.Net, c.GamesPerWorker = "compact", 32
		c.FullSims, c.CheapSims, c.FullFraction = 32, 8, 0.25
		c.BatchSize, c.LearningRate, c.LRSchedule = 128, 0.04, "cosine"
		c.ReplayRatio, c.MinPositions, c.WindowMin = 4, 4000, 20000
		c.CheckpointEvery, c.ShardGames, c.Steps = 100, 16, 7000
		c.EvalEvery, c.EvalGames, c.EvalPlayer, c.EvalBaselines = 5, 20, "mcts:sims=16", "random,greedy,mcts:net=none,sims=16,alphabeta:depth=1"
		c.FinalGames = 100
		c.ValueBase, c.SearchValue = "material", 0.5
		if name == "long" {
			// The same recipe, its cosine stretched over 120,000 steps:
			// 2h17m at the quick preset's pace on the 2-core AVX2
			// machine, rated every 5,000 steps so that the matches stay
			// a small share of the time. Then alpha-beta with the
			// built-in NNUE at depth 3 relabels the window's positions,
			// values and moves, and the net trains 9,000 steps on them
			// at a low rate: the same net taught so scored 65.8%
			// against the shipped conv net where its own targets gave
			// 48.0%, and the preset's run, 2h40m52s in all, scored
			// 79.8% (docs/experiments.md, 2026-11-27).
			c.CheckpointEvery, c.EvalEvery, c.Steps = 500, 10, 120000
			c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy = 3, searchconfig.EvalNNUE, true
			c.RelabelSteps, c.RelabelLR = 9000, 0.001
		}
	case "full":
		c.Net, c.GamesPerWorker = "medium", 64
		c.FullSims, c.CheapSims, c.FullFraction = 200, 40, 0.25
		c.BatchSize, c.LearningRate = 256, 0.02
		c.ReplayRatio, c.MinPositions, c.WindowMin = 4, 20000, 100000
		c.CheckpointEvery, c.ShardGames, c.Steps = 500, 32, 0
		c.EvalEvery, c.EvalGames, c.EvalPlayer, c.EvalBaselines = 4, 40, "mcts:sims=32", "random,greedy,mcts:net=none,sims=32,alphabeta:depth=2"
		c.ValueBase = "material"
	default:
		return Config{}, fmt.Errorf("unknown preset %s (want one of %s)", excerpt.Quote(name), strings.Join(Presets, ", "))
	}
	return c, nil
}

// FitGame fits a preset's configuration to its game: the baselines
// that can play it (the preset's fixed opponents, random, greedy, the
// search with no net at the evaluation's simulations and the classical
// alphabeta where the game has it, then suit every game), no value base
// where its pieces have no values (tic-tac-toe), no classical teacher
// where it has no classical search, and Trichess's own recipe for the
// quick and long presets. Flags.Config lays the settings the user gave
// over the result.
func (c *Config) FitGame() error {
	g, err := games.ByName(c.Game)
	if err != nil {
		return err
	}
	loader := players.NewLoader(g)
	defer loader.Close()
	var kept []string
	for _, b := range c.baselines() {
		if _, err := loader.Load(b); err == nil {
			kept = append(kept, b)
		}
	}
	c.EvalBaselines = strings.Join(kept, ",")
	if !tactics.HasMaterial(g) {
		c.ValueBase = "none"
	}
	if games.ClassicalOf(g) == nil {
		c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy, c.RelabelSteps, c.RelabelLR = 0, "", false, 0, 0
	}
	if g.Name() == trichess.Game.Name() && (c.Preset == "quick" || c.Preset == "long") {
		// Trichess's net learns little from its own games (the quick
		// preset's net: a lead of −0.56 against the search without
		// it): BRS+ at depth 2 with the hand-written evaluation labels
		// every position as it is played, values and moves, and is
		// the whole value target. Self-play then only picks the
		// positions, and 16/4 simulations do, with 4,000 steps (5m43s
		// on two cores with the AVX2 kernel). On the same 300 games the
		// net taught by the rules' piece points led the search without
		// it by +0.15 [−0.07, +0.38], the net taught by the
		// hand-written evaluation by +0.55 [+0.31, +0.78]
		// (docs/experiments.md, 2026-11-27). The long
		// preset stretches the same recipe and needs no relabelling
		// phase.
		c.ClassicalDepth, c.ClassicalEval, c.ClassicalPolicy, c.SearchValue = 2, plugin.EvalHand, true, 1
		c.RelabelSteps, c.RelabelLR = 0, 0
		c.FullSims, c.CheapSims = 16, 4
		if c.Preset == "quick" {
			c.Steps = 4000
		}
	}
	return nil
}

// Validate reports the first unusable setting.
func (c Config) Validate() error {
	if _, err := games.ByName(c.Game); err != nil {
		return err
	}
	if c.Search != "gumbel" && c.Search != "puct" {
		return fmt.Errorf("search %s: want gumbel or puct", excerpt.Quote(c.Search))
	}
	if _, err := c.SelfPlay(); err != nil {
		return err
	}
	switch c.LRSchedule {
	case "constant":
	case "cosine":
		if c.Steps < 1 {
			return errors.New("--lr-schedule cosine needs --steps: it ends at the last step")
		}
	default:
		return fmt.Errorf("--lr-schedule %s: want constant or cosine", excerpt.Quote(c.LRSchedule))
	}
	if _, err := c.NetValueBase(); err != nil {
		return err
	}
	if _, err := c.NetPolicyBase(); err != nil {
		return err
	}
	checks := []struct {
		ok   bool
		name string
		v    any
	}{
		{c.BatchSize >= 1, "batch-size", c.BatchSize},
		{c.LearningRate > 0, "lr", c.LearningRate},
		{c.Momentum >= 0 && c.Momentum < 1, "momentum", c.Momentum},
		{c.WeightDecay >= 0, "weight-decay", c.WeightDecay},
		{c.ScoreWeight >= 0, "score-weight", c.ScoreWeight},
		{c.MaterialValue >= 0 && c.MaterialValue <= 1, "material-value", c.MaterialValue},
		{c.CapturePrior >= 0 && c.CapturePrior <= 1, "capture-prior", c.CapturePrior},
		{c.SearchValue >= 0 && c.SearchValue <= 1, "search-value", c.SearchValue},
		{c.PolicySurprise >= 0 && c.PolicySurprise <= 1, "policy-surprise", c.PolicySurprise},
		{c.GumbelCScale > 0, "gumbel-c-scale", c.GumbelCScale},
		{c.ReplayRatio > 0, "replay-ratio", c.ReplayRatio},
		{c.MinPositions >= 1, "min-positions", c.MinPositions},
		{c.WindowMin >= 1, "window-min", c.WindowMin},
		{c.WindowExponent > 0 && c.WindowExponent <= 1, "window-exponent", c.WindowExponent},
		{c.CheckpointEvery >= 1, "checkpoint-every", c.CheckpointEvery},
		{c.ShardGames >= 1, "shard-games", c.ShardGames},
		{c.Steps >= 0, "steps", c.Steps},
		{c.TeacherSteps >= 0, "teacher-steps", c.TeacherSteps},
		{c.ClassicalDepth >= 0, "classical-depth", c.ClassicalDepth},
		{c.RelabelSteps >= 0, "relabel-steps", c.RelabelSteps},
		{c.RelabelSteps == 0 || c.RelabelLR > 0, "relabel-lr", c.RelabelLR},
		{c.ScoreUtility >= 0 && c.ScoreUtility <= 1, "score-utility", c.ScoreUtility},
		{c.EvalEvery >= 0, "eval-every", c.EvalEvery},
		{c.EvalEvery == 0 || c.EvalGames >= 2, "eval-games", c.EvalGames},
		{c.FinalGames >= 0, "final-games", c.FinalGames},
		{c.Gate >= 0 && c.Gate < 1, "gate", c.Gate},
		{c.Gate == 0 || c.EvalEvery > 0, "gate", c.Gate},
	}
	for _, ch := range checks {
		if !ch.ok {
			return fmt.Errorf("--%s %v is out of range", ch.name, ch.v)
		}
	}
	g, _ := games.ByName(c.Game)
	if _, _, err := c.ClassicalTeacher(g); err != nil {
		return err
	}
	if c.RelabelSteps > 0 && (c.ClassicalDepth == 0 || c.Steps == 0) {
		return errors.New("--relabel-steps trains on the classical teacher's labels once --steps are trained: give --classical-depth and --steps")
	}
	if c.EvalEvery > 0 || c.FinalGames > 0 {
		if err := c.checkEvalPlayers(g); err != nil {
			return err
		}
	}
	if c.FinalGames > 0 {
		if _, err := c.noNetPlayer(); err != nil {
			return err
		}
	}
	_, err := c.NetConfig(g)
	return err
}

// NetConfig returns the architecture of the run's new net for game g:
// the --net preset as g lays out its actions, with --policy-kernel, the
// seats and the bases the settings ask for.
func (c Config) NetConfig(g engine.Game) (nn.Config, error) {
	nc, err := nn.PresetFor(c.Net, g)
	if err != nil {
		return nc, err
	}
	if p := g.Players(); p > 2 {
		// Zero-sum two-player games need one seat's outcome; with
		// more players the net predicts each seat's.
		nc.Seats = p
	}
	switch {
	case c.PolicyKernel == 0:
	case c.PolicyKernel != 1 && c.PolicyKernel != 3:
		return nc, fmt.Errorf("--policy-kernel %d: want 1 or 3", c.PolicyKernel)
	case nc.PolicyPlanes == 0:
		return nc, fmt.Errorf("--policy-kernel %d: the nets of %s have a dense policy head, without an output convolution", c.PolicyKernel, g.Name())
	default:
		nc.PolicyKernel = c.PolicyKernel
	}
	if nc.ValueBase, err = c.NetValueBase(); err != nil {
		return nc, err
	}
	if nc.PolicyBase, err = c.NetPolicyBase(); err != nil {
		return nc, err
	}
	return nc, nc.Validate()
}

// NetValueBase returns the nn.Config.ValueBase of the run's new net, or
// an error naming --value-base when the setting is unknown or the game
// has no material to base values on.
func (c Config) NetValueBase() (string, error) {
	switch c.ValueBase {
	case "none", "":
		return nn.ValueBaseNone, nil
	case "material":
		g, err := games.ByName(c.Game)
		if err != nil {
			return "", err
		}
		if !tactics.HasMaterial(g) {
			return "", fmt.Errorf("--value-base material: the pieces of %s have no values; use --value-base none", g.Name())
		}
		return nn.ValueBaseMaterial, nil
	}
	return "", fmt.Errorf("--value-base %s: want none or material", excerpt.Quote(c.ValueBase))
}

// NetPolicyBase returns the nn.Config.PolicyBase of the run's new net,
// or an error naming --policy-base when the setting is unknown.
func (c Config) NetPolicyBase() (string, error) {
	switch c.PolicyBase {
	case "none", "":
		return nn.PolicyBaseNone, nil
	case "capture":
		return nn.PolicyBaseCapture, nil
	}
	return "", fmt.Errorf("--policy-base %s: want none or capture", excerpt.Quote(c.PolicyBase))
}

// checkEvalPlayers loads the arena's players as its matches do, so that
// a spec they would refuse is refused before the run starts: each
// baseline, and the checkpoints' player with no net (the match gives it
// the checkpoint's).
func (c Config) checkEvalPlayers(g engine.Game) error {
	loader := players.NewLoader(g)
	defer loader.Close()
	if c.EvalPlayer != "" {
		s, err := players.ParseSpec(c.EvalPlayer)
		if err != nil {
			return fmt.Errorf("--eval-player: %w", err)
		}
		if slices.ContainsFunc(s.Options, func(o players.Option) bool { return o.Key == "net" }) {
			return fmt.Errorf("--eval-player %q: the checkpoint is its net; drop net=", c.EvalPlayer)
		}
		switch s.Kind {
		case "policy":
			if len(s.Options) > 0 {
				return fmt.Errorf("--eval-player %q: policy takes no options here", c.EvalPlayer)
			}
		case "bot", "mcts":
			if slices.ContainsFunc(s.Options, func(o players.Option) bool { return o.Key == "kind" && o.Value != searchconfig.MCTS }) {
				return fmt.Errorf("--eval-player %q: the checkpoint's net is searched by kind mcts; drop kind=", c.EvalPlayer)
			}
			s.Options = append(s.Options, players.Option{Key: "net", Value: searchconfig.NoNet})
			if _, err := loader.Load(s.String()); err != nil {
				return fmt.Errorf("--eval-player: %w", err)
			}
		default:
			return fmt.Errorf("--eval-player %q: want policy or bot[:KEY=VALUE,...] (or its old name mcts), the players that play a checkpoint's net", c.EvalPlayer)
		}
	}
	for _, b := range c.baselines() {
		if _, err := loader.Load(b); err != nil {
			return fmt.Errorf("--eval-baselines: %w", err)
		}
	}
	return nil
}

// noNetPlayer is the final match's opponent: --eval-player, a tree
// search, without a net.
func (c Config) noNetPlayer() (string, error) {
	s, err := players.ParseSpec(c.EvalPlayer)
	if err != nil || s.Kind != "bot" && s.Kind != "mcts" {
		return "", fmt.Errorf("--final-games %d: the match is the checkpoint's tree search against the same without a net, so --eval-player must be a tree search (mcts:sims=N), not %q", c.FinalGames, c.EvalPlayer)
	}
	s.Options = append(s.Options, players.Option{Key: "net", Value: searchconfig.NoNet})
	return s.String(), nil
}

// SelfPlay returns the self-play configuration.
func (c Config) SelfPlay() (selfplay.Config, error) {
	p := c.searchSettings().Params()
	if c.Search == "gumbel" {
		// Self-play explores: Gumbel noise at the root.
		p.GumbelScale = 1
		p.GumbelCScale = c.GumbelCScale
	} else {
		p.DirichletAlpha, p.DirichletFraction = 0.3, 0.25
	}
	sc := selfplay.Config{
		Workers: c.Workers, GamesPerWorker: c.GamesPerWorker,
		FullSims: c.FullSims, CheapSims: c.CheapSims, FullFraction: c.FullFraction,
		OpeningPlies: c.OpeningPlies, LeavesPerTree: 1, Search: p, Seed: c.Seed,
	}
	return sc, sc.Validate()
}

// searchSettings returns the settings of self-play's search:
// searchconfig.SelfPlay's, with the run's root search and tactical aids.
func (c Config) searchSettings() searchconfig.Config {
	sp := searchconfig.SelfPlay()
	sp.Search, sp.Quiescence, sp.MaterialValue, sp.CapturePrior = c.Search, c.Quiescence, c.MaterialValue, c.CapturePrior
	return sp
}

// Tactics returns the tactical aids of self-play's search.
func (c Config) Tactics() tactics.Settings { return c.searchSettings().Tactics() }

// SearchEvaluator returns the evaluator self-play's searches of game g
// run over ev, a net's evaluator or tactics.Fallback: the evaluator
// chain (neteval.Chain) with the run's tactical aids.
func (c Config) SearchEvaluator(g engine.Game, ev mcts.Evaluator) mcts.Evaluator {
	chained, _ := neteval.Chain(g, ev, nil, c.Tactics(), false)
	return chained
}

// selfPlayNet is what self-play searches with while n is the newest net:
// n itself, or, while n's checkpoint is before step --teacher-steps, the
// search with no net (tactics.Fallback) with the run's aids. The teacher's
// games keep n's name, the step they are counted at.
func (c Config) selfPlayNet(g engine.Game, n *selfplay.Net) *selfplay.Net {
	if n == nil {
		return nil
	}
	if step, ok := checkpoints.StepOf(n.Name); ok && step < uint64(c.TeacherSteps) {
		return &selfplay.Net{Name: n.Name, Eval: c.SearchEvaluator(g, tactics.Fallback{})}
	}
	return n
}

// Window returns the sliding window's parameters.
func (c Config) Window() datasets.WindowParams {
	return datasets.WindowParams{Min: c.WindowMin, Exponent: c.WindowExponent, SurpriseWeight: c.PolicySurprise}
}

// LastStep is the step a run ends at: --steps, and the --relabel-steps
// after them (0: none).
func (c Config) LastStep() int {
	if c.Steps == 0 {
		return 0
	}
	return c.Steps + c.RelabelSteps
}

// TrainConfig returns the optimizer's settings.
func (c Config) TrainConfig() nn.TrainConfig {
	tc := nn.DefaultTrainConfig()
	tc.Rate = nn.ConstantRate(c.LearningRate)
	if c.LRSchedule == "cosine" {
		tc.Rate = nn.CosineRate{Base: c.LearningRate, Min: c.LearningRate / 100, Warmup: uint64(c.Steps / 100), Total: uint64(c.Steps)}
	}
	if c.RelabelSteps > 0 {
		tc.Rate = nn.PhasedRate{First: tc.Rate, At: uint64(c.Steps), Then: nn.ConstantRate(c.RelabelLR)}
	}
	tc.Momentum, tc.WeightDecay, tc.ScoreWeight = c.Momentum, c.WeightDecay, c.ScoreWeight
	return tc
}

// loop is how the AlphaZero loop keeps its runs.
var loop = rundir.Loop[Config]{
	Kind: rundir.Conv, ConfigFile: rundir.ConvConfigFile, Folders: []string{"checkpoints", "datasets"},
	Game:   func(c Config) string { return c.Game },
	Decode: decodeConfig,
	Check:  Config.Validate,
	Mutable: func(name string) bool {
		return name == "steps" || name == "final-games" || strings.HasPrefix(name, "eval-")
	},
}

// Prepare creates the run directory, or resumes it (rundir.Loop.Prepare).
// For a new run it saves c. For an existing run it returns the saved
// config, with the settings named in changed (flag names) taken from c: a
// changed setting that differs from the saved one is an error wrapping
// rundir.ErrConflict, except "steps", which may be raised to train
// further, and the evaluation settings ("eval-*", "final-games"), which
// do not change what is learned. Every setting is checked before anything is written;
// a directory holding an NNUE run is refused.
func Prepare(dir string, c Config, changed []string) (Config, error) {
	return loop.Prepare(dir, c, changed)
}

// LoadConfig reads and checks a run's saved config. The error wraps
// os.ErrNotExist for a directory without one.
func LoadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, rundir.ConvConfigFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	c, err := decodeConfig(data)
	if err == nil {
		err = c.Validate()
	}
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// offWhenMissing are the settings a preset took up after runs of it were
// made, each with how it is turned off: a saved config without one was
// made without it, and resumes so, not with the preset's new value.
var offWhenMissing = map[string]func(*Config){
	"classical-depth":  func(c *Config) { c.ClassicalDepth = 0 },
	"classical-eval":   func(c *Config) { c.ClassicalEval = "" },
	"classical-policy": func(c *Config) { c.ClassicalPolicy = false },
	"relabel-steps":    func(c *Config) { c.RelabelSteps = 0 },
	"relabel-lr":       func(c *Config) { c.RelabelLR = 0 },
}

// decodeConfig reads a saved config without checking its settings.
func decodeConfig(data []byte) (Config, error) {
	var c Config
	if err := json.Unmarshal(data, &c); err != nil {
		return Config{}, err
	}
	// Settings added after the run was started are missing from its
	// file: they take its preset's values, or are off (offWhenMissing).
	if base, err := Preset(c.Preset); err == nil {
		if err := json.Unmarshal(data, &base); err != nil {
			return Config{}, err
		}
		c = base
	}
	var saved map[string]json.RawMessage
	if err := json.Unmarshal(data, &saved); err != nil {
		return Config{}, err
	}
	for name, off := range offWhenMissing {
		if _, ok := saved[name]; !ok {
			off(&c)
		}
	}
	return c, nil
}

// ClassicalTeacher returns the maker of the classical teachers that label
// self-play's positions in game g as --classical-depth,
// --classical-eval and --classical-policy ask (nil without
// --classical-depth), and a description of the teacher. Its errors name
// the flag at fault.
func (c Config) ClassicalTeacher(g engine.Game) (func() (*relabel.Classical, error), string, error) {
	if c.ClassicalDepth == 0 {
		if c.ClassicalEval != "" || c.ClassicalPolicy {
			return nil, "", errors.New("--classical-eval and --classical-policy choose the classical teacher: give --classical-depth")
		}
		return nil, "", nil
	}
	newTeacher, doc, err := relabel.ClassicalTeacher(g, c.ClassicalDepth, c.ClassicalEval, "", relabel.DefaultClassicalScale)
	if err != nil {
		return nil, "", fmt.Errorf("--classical-depth %d --classical-eval %s: %w", c.ClassicalDepth, excerpt.Quote(c.ClassicalEval), err)
	}
	if c.ClassicalPolicy {
		doc += ", its moves the policy targets"
	}
	return newTeacher, doc, nil
}
