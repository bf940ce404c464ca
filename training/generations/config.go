// Package generations runs the NNUE's training loop in a run directory,
// generation after generation: alpha-beta with the newest accepted net
// (the rules' evaluation, alphabeta.Rules, in generation 0: nothing
// hand-written) plays games into position shards (package
// nnue/datagen); a net is trained on the newest positions across
// generations (package nnue/train); an SPRT gate at a fixed node budget
// decides whether it replaces the net that played; matches against
// fixed anchors rate it. "trench train --preset nnue" runs it.
//
// A run directory:
//
//	run.json           the marker: an NNUE run of Trench (package training/rundir)
//	nnue.json          the run's Config
//	data/              shard-gNNNNNN-JJJJJJ-wWW.pos, generation N's positions
//	nets/gen-NNNNNN.nnue  generation N's trained net
//	trainer-gNNNNNN.state the trainer's state while generation N trains
//	gen-NNNNNN.json    generation N's finished phases (losses, gate, anchors)
//	metrics.jsonl      one JSON Metrics a generation
//	train.lock         locked by the process running the run (rundir.Lock)
//
// With Options.Remote, workers on other machines play games too
// (training/natsrun): their shards, data/shard-gNNNNNN-r-….pos, count
// towards the generation's positions.
//
// Everything resumes: a killed run keeps the shards written, training
// goes on from the last saved trainer state, and a finished gate or
// anchor match is not played again.
package generations

import (
	"encoding/json"
	"errors"
	"fmt"

	"trench/arena"
	"trench/internal/searchlimits"
	"trench/nnue"
	"trench/nnue/data"
	"trench/nnue/datagen"
	"trench/nnue/train"
	"trench/training/rundir"
)

// PresetName is the preset that selects this loop in trench train.
const PresetName = "nnue"

// Config is everything that defines a run. Its JSON names are the flags
// of "trench train --preset nnue"; help describes each.
type Config struct {
	Preset      string `json:"preset" help:"named configuration: nnue"`
	Game        string `json:"game" help:"the game: trench or trichess (each has its own defaults below)"`
	Generations int    `json:"generations" help:"stop after this many generations (0: run until interrupted)"`

	Positions     int     `json:"positions" help:"new positions each generation plays"`
	Workers       int     `json:"workers" help:"goroutines playing games, each with its own engine"`
	SoftNodes     uint64  `json:"soft-nodes" help:"node budget of a move in data generation: no new iteration of iterative deepening starts after this many nodes"`
	HardNodes     uint64  `json:"hard-nodes" help:"the search of a move in data generation is cut after this many nodes"`
	RandomPlies   int     `json:"random-plies" help:"uniformly random plies opening each game"`
	RandomMoves   int     `json:"random-moves" help:"plies after the random opening in which each move is random with probability --random-chance"`
	RandomChance  float64 `json:"random-chance" help:"probability of a random move in those plies"`
	OpeningDepth  int     `json:"opening-depth" help:"depth of the search judging a random opening (0: none)"`
	OpeningMargin int     `json:"opening-margin" help:"openings that search scores beyond this many centipoints (100 a point) are dropped as lopsided"`
	ShardGames    int     `json:"shard-games" help:"games per data shard and worker"`
	Teacher       string  `json:"teacher" help:"label generation 0's positions with this conv net's values instead of the rules' search scores: a checkpoint file, a run directory (its newest checkpoint) or default (the built-in net); empty: the search's scores (Trench only)"`

	Hidden       int     `json:"hidden" help:"hidden units of the net"`
	Linear       bool    `json:"linear" help:"give a fresh net the linear path: one weight a feature added to each seat's value, which carries material without the hidden units"`
	FromScratch  bool    `json:"from-scratch" help:"train each generation's net from fresh weights instead of the previous generation's"`
	Window       int     `json:"window" help:"training samples from the newest this many positions, across generations"`
	Steps        int     `json:"steps" help:"training steps each generation"`
	BatchSize    int     `json:"batch-size" help:"positions per training step"`
	LearningRate float64 `json:"lr" help:"AdamW's learning rate, lowered along a half cosine to 5% over each generation's steps"`
	WeightDecay  float64 `json:"weight-decay" help:"AdamW's decoupled weight decay"`
	Lambda       float64 `json:"lambda" help:"weight in [0, 1] of the game's result in the target, the rest going to the search's score"`
	LateFrom     int     `json:"late-from" help:"from this generation on, train with --late-lr and --late-lambda instead of --lr and --lambda (0: never)"`
	LateLR       float64 `json:"late-lr" help:"the learning rate from generation --late-from on"`
	LateLambda   float64 `json:"late-lambda" help:"the result's weight in the target from generation --late-from on"`
	TDLambda     float64 `json:"td-lambda" help:"in (0, 1): the game's result in the target (--lambda's part) becomes the position's λ-return: the search's values of the game's later positions, each weighted this many times the one before it, then the result (0: the result alone)"`
	Holdout      float64 `json:"holdout" help:"share of games held out for the validation loss"`
	SaveEvery    int     `json:"save-every" help:"training steps between saves of the trainer's state"`
	TrainThreads int     `json:"train-threads" help:"goroutines a training step is split over (changes the sums' order, so the run's nets)"`

	GateNodes   uint64  `json:"gate-nodes" help:"nodes a move, hard limit, of both players in the gate and the anchor matches"`
	GatePairs   int     `json:"gate-pairs" help:"most game pairs of the gate, an SPRT of the new net against the one that played, undecided at the end rejected (Trichess: most opening groups of three games of the gate's lead test)"`
	GateElo0    float64 `json:"gate-elo0" help:"the SPRT's null hypothesis: the new net is this many Elo better"`
	GateElo1    float64 `json:"gate-elo1" help:"the SPRT's alternative: the new net is this many Elo better"`
	GateAlpha   float64 `json:"gate-alpha" help:"the SPRT's false-positive rate"`
	GateBeta    float64 `json:"gate-beta" help:"the SPRT's false-negative rate"`
	GateLead0   float64 `json:"gate-lead0" help:"Trichess's gate, a sequential test of the new net's lead (points a game above the mean of the two others) in each seat in turn against two copies of the player: the null hypothesis"`
	GateLead1   float64 `json:"gate-lead1" help:"Trichess's gate: the alternative hypothesis, the new net leads by this many points a game"`
	GateAnchorZ float64 `json:"gate-anchor-z" help:"a new net the SPRT does not accept, nor show worse (its Elo interval per pair reaching 0), passes too if on the same openings it scores better against the hand-written evaluation at --gate-nodes than the player does, by more than this many standard errors of the paired difference (0: the SPRT alone)"`
	AnchorPairs int     `json:"anchor-pairs" help:"game pairs of each anchor match (Trichess: opening groups of three games, the new net in each seat against two copies of the anchor): against the hand-written evaluation at --gate-nodes every generation, and the anchors below"`
	AnchorMS    int     `json:"anchor-ms" help:"also play the hand-written evaluation with this many milliseconds a move on both sides (0: not)"`
	MCTSAnchor  string  `json:"mcts-anchor" help:"also play this player spec, e.g. mcts:time=200ms (the shipped bot), the new net moving at --anchor-ms or else --gate-nodes (empty: not)"`
	AnchorNet   string  `json:"anchor-net" help:"also play alpha-beta with this fixed net at --gate-nodes every generation, and count it beside the hand-written evaluation in the gate's second way: a net file, a generation run's newest accepted net, or default (the net built into this binary, the one shipped before the run); the run keeps its own copy, anchor.nnue, from its start (empty: not)"`
	MatchPlies  int     `json:"match-plies" help:"random plies opening each pair of the gate and anchor matches"`

	Seed uint64 `json:"seed" help:"random seed of the games, the nets and sampling"`
}

// Preset returns the named configuration, "nnue", the only one, for
// game: trench or trichess.
func Preset(name, game string) (Config, error) {
	if name != PresetName {
		return Config{}, fmt.Errorf("unknown NNUE preset %q (want %s)", name, PresetName)
	}
	d := datagen.DefaultConfig()
	c := Config{
		Preset: name, Game: trenchName, Generations: 0,
		Positions: 250_000, Workers: 2, SoftNodes: d.SoftNodes, HardNodes: d.HardNodes,
		RandomPlies: d.RandomPlies, RandomMoves: d.RandomMoves, RandomChance: d.RandomChance,
		OpeningDepth: d.OpeningDepth, OpeningMargin: d.OpeningMargin, ShardGames: d.ShardGames,
		// No teacher: generation 0 learns the rules' search scores, so that
		// the preset trains from nothing in its own time. The built-in conv
		// net teaches better (+143 Elo at generation 0) but took 3 hours to
		// train; the quick preset's conv net, trained in 6 minutes, taught
		// worse than the rules (−139; docs/experiments.md, 2026-11-26).
		Teacher: "",
		Hidden:  128, Window: 4_000_000, Steps: 5_000, BatchSize: 1024,
		// Weight decay 0.3, not the trainer's 0.01: a net trained one
		// generation with it beat the same generation trained with 0.01
		// by +50 Elo [+19, +81] at equal nodes, its validation loss
		// lower (docs/experiments.md, 2026-11-28).
		LearningRate: 1e-3, WeightDecay: 0.3, Lambda: 0.3, Holdout: 0.02, SaveEvery: 500, TrainThreads: 2,
		// The late settings are off (late-from 0). Their values are the
		// ones that won when run r5's generation 23 was trained again
		// with each (docs/experiments.md, 2026-11-29).
		LateFrom: 0, LateLR: 1e-4, LateLambda: 0.1,
		GateNodes: 20_000, GatePairs: 200, GateElo0: 0, GateElo1: 10, GateAlpha: 0.05, GateBeta: 0.05, GateAnchorZ: 1.645,
		GateLead0: 0, GateLead1: 0.25,
		AnchorPairs: 50, MatchPlies: 8, Seed: 1,
	}
	switch game {
	case trenchName:
	case trichessName:
		// A Trichess game is about as long as a Trench game and its
		// search sees fewer nodes a second: smaller budgets, and
		// matches of opening groups of three games.
		c.Game = trichessName
		c.SoftNodes, c.HardNodes = 2_000, 8_000
		c.RandomPlies, c.RandomMoves, c.OpeningDepth = 6, 12, 2
		// Run t9's recipe, which made the shipped Trichess net: Trench's
		// 250,000 positions, 5,000 steps and weight decay 0.3, the linear
		// path, and half of each target the λ-return over the game's
		// later search values. It led the hand-written evaluation by
		// +0.33 a game at equal nodes from 2 hours on. At 1.45 hours
		// its player led two copies of the hand-written evaluation by
		// +0.18 a game where the preset's earlier settings (60,000
		// positions, 500 steps, λ 0, weight decay 0.01), whose gate had
		// let no net play, trailed by 0.12 (docs/experiments.md,
		// 2026-12-08).
		c.Window, c.Steps, c.WeightDecay, c.Linear = 2_000_000, 5_000, 0.3, true
		c.Lambda, c.TDLambda = 0.5, 0.8
		c.GateNodes, c.GatePairs, c.AnchorPairs, c.MatchPlies = 5_000, 80, 30, 6
		c.GateAnchorZ = 0
	default:
		return Config{}, fmt.Errorf("the NNUE preset trains %s or %s, not %q", trenchName, trichessName, game)
	}
	return c, nil
}

// The games the loop trains.
const (
	trenchName   = "trench"
	trichessName = "trichess"
)

// Validate reports the first unusable setting, named by its flag.
func (c Config) Validate() error {
	if c.Preset != PresetName {
		return fmt.Errorf("--preset %q: want %s", c.Preset, PresetName)
	}
	switch {
	case c.Game != trenchName && c.Game != trichessName:
		return fmt.Errorf("--game %q: the NNUE preset trains %s or %s", c.Game, trenchName, trichessName)
	case c.Game == trichessName && c.Teacher != "":
		return errors.New("--teacher: Trichess's generation 0 learns the rules' search scores; a teacher labels Trench's positions only")
	case c.Game == trichessName && c.GateAnchorZ != 0:
		return errors.New("--gate-anchor-z: Trichess's gate is its lead test alone; the second way through the anchor is Trench's")
	}
	if err := c.leadTest().Validate(); err != nil {
		return fmt.Errorf("gate (--gate-lead0, --gate-lead1): %w", err)
	}
	if err := c.Datagen().Validate(); err != nil {
		return fmt.Errorf("data generation: %w", err)
	}
	early, late := c.TrainConfig(0), c.TrainConfig(c.LateFrom)
	if err := early.Validate(); err != nil {
		return fmt.Errorf("training: %w", err)
	}
	if c.LateFrom > 0 {
		if err := late.Validate(); err != nil {
			return fmt.Errorf("training from generation --late-from %d: %w", c.LateFrom, err)
		}
	}
	if err := c.SPRT().Validate(); err != nil {
		return fmt.Errorf("gate: %w", err)
	}
	if c.TDLambda > 0 && c.Lambda == 0 {
		return errors.New("--td-lambda gives the result's part of the target to the λ-returns: it needs --lambda above 0")
	}
	checks := []struct {
		ok   bool
		name string
		v    any
	}{
		{c.Generations >= 0, "generations", c.Generations},
		{c.Positions >= 1, "positions", c.Positions},
		{c.Hidden >= nnue.MinHidden && c.Hidden <= nnue.MaxHidden, "hidden", c.Hidden},
		{c.Window >= 1, "window", c.Window},
		{c.Steps >= 1, "steps", c.Steps},
		{c.BatchSize >= 1, "batch-size", c.BatchSize},
		{c.Holdout >= 0 && c.Holdout < 1, "holdout", c.Holdout},
		{c.TDLambda >= 0 && c.TDLambda < 1, "td-lambda", c.TDLambda},
		{c.LateFrom >= 0, "late-from", c.LateFrom},
		{c.SaveEvery >= 1, "save-every", c.SaveEvery},
		{c.GateNodes >= 1, "gate-nodes", c.GateNodes},
		{c.GatePairs >= 1, "gate-pairs", c.GatePairs},
		{c.GateAnchorZ >= 0, "gate-anchor-z", c.GateAnchorZ},
		{c.AnchorPairs >= 1, "anchor-pairs", c.AnchorPairs},
		{c.AnchorMS >= 0, "anchor-ms", c.AnchorMS},
		{c.MatchPlies >= 0 && c.MatchPlies <= 40, "match-plies", c.MatchPlies},
	}
	for _, ch := range checks {
		if !ch.ok {
			return fmt.Errorf("--%s %v is out of range", ch.name, ch.v)
		}
	}
	if c.MCTSAnchor != "" {
		if err := checkSpec(c.Game, c.MCTSAnchor); err != nil {
			return fmt.Errorf("--mcts-anchor: %w", err)
		}
	}
	return nil
}

// Datagen returns the data generation's settings.
func (c Config) Datagen() datagen.Config {
	return datagen.Config{
		Workers: c.Workers, SoftNodes: c.SoftNodes, HardNodes: c.HardNodes,
		RandomPlies: c.RandomPlies, RandomMoves: c.RandomMoves, RandomChance: c.RandomChance,
		OpeningDepth: c.OpeningDepth, OpeningMargin: c.OpeningMargin,
		ShardGames: c.ShardGames, TableBits: 18, Seed: c.Seed,
	}
}

// NetSet is the feature set of the run's nets, its game's: the nets
// that play its generations.
func (c Config) NetSet() *nnue.FeatureSet { return recipeFor(c.Game).set() }

// NewShardPlayer returns a player of the run's game that plays games
// with dc's settings and player (nil: the rules' evaluation, which
// generation 0 plays with) into shards, as the run's own data
// generation does: what plays its games outside the trainer's process.
func (c Config) NewShardPlayer(dc datagen.Config, player *nnue.Net) (ShardPlayer, error) {
	return recipeFor(c.Game).shardPlayer(dc, player)
}

// CheckShard decodes a shard of the run's game, checking its framing
// and every record; a shard of the other game is refused (data's
// ErrMagic).
func (c Config) CheckShard(shard []byte) error { return recipeFor(c.Game).checkShard(shard) }

// TrainConfig returns the trainer's settings for generation g: a
// cosine schedule over each generation's steps, from --late-from on at
// the late learning rate and λ.
func (c Config) TrainConfig(g int) train.Config {
	tc := train.DefaultConfig()
	tc.LearningRate, tc.WeightDecay, tc.Lambda = c.LearningRate, c.WeightDecay, c.Lambda
	if c.LateFrom > 0 && g >= c.LateFrom {
		tc.LearningRate, tc.Lambda = c.LateLR, c.LateLambda
	}
	tc.Schedule, tc.Steps = train.CosineSchedule, c.Steps
	tc.Threads = c.TrainThreads
	tc.Linear = c.Linear
	return tc
}

// ScoreScale is the trainer's scale from a search's score in
// centipoints to an expected result, the same in every generation.
func (c Config) ScoreScale() float64 { return c.TrainConfig(0).ScoreScale }

// windowConfig is the training window's settings.
func (c Config) windowConfig() data.WindowConfig {
	return data.WindowConfig{Newest: c.Window, Holdout: c.Holdout, Seed: c.Seed, TDLambda: c.TDLambda, ScoreScale: c.ScoreScale()}
}

// SPRT returns the gate's test.
func (c Config) SPRT() arena.SPRT {
	return arena.SPRT{Elo0: c.GateElo0, Elo1: c.GateElo1, Alpha: c.GateAlpha, Beta: c.GateBeta}
}

// leadTest returns Trichess's gate test.
func (c Config) leadTest() arena.LeadSPRT {
	return arena.LeadSPRT{Lead0: c.GateLead0, Lead1: c.GateLead1, Alpha: c.GateAlpha, Beta: c.GateBeta}
}

// gateLimits are both players' limits in the gate and the node-budget
// anchor.
func (c Config) gateLimits() searchlimits.Limits { return searchlimits.Limits{Nodes: c.GateNodes} }

// DecodeConfig reads a run's saved config: the preset's settings for
// its game, as far as the saved ones do not replace them. Runs from
// before Trichess's loop name no game, and are Trench's.
func DecodeConfig(raw []byte) (Config, error) {
	var named struct{ Game string }
	if err := json.Unmarshal(raw, &named); err != nil {
		return Config{}, err
	}
	if named.Game == "" {
		named.Game = trenchName
	}
	saved, err := Preset(PresetName, named.Game)
	if err != nil {
		return Config{}, err
	}
	return saved, json.Unmarshal(raw, &saved)
}

// loop is how the generation loop keeps its runs.
var loop = rundir.Loop[Config]{
	Kind: rundir.NNUE, ConfigFile: rundir.NNUEConfigFile, Folders: []string{dataDir, netsDir},
	Game:   func(c Config) string { return c.Game },
	Decode: DecodeConfig,
	Check:  Config.Validate,
	CheckNew: func(c Config) error {
		if c.AnchorNet != "" {
			if _, _, err := recipeFor(c.Game).set().LoadRef(c.AnchorNet); err != nil {
				return fmt.Errorf("--anchor-net: %w", err)
			}
		}
		if c.Teacher == "" {
			return nil
		}
		_, err := LoadTeacher(c.Teacher, c.ScoreScale())
		return err
	},
	Mutable: func(name string) bool {
		return name == "generations" || name == "anchor-ms" || name == "mcts-anchor"
	},
}

// Prepare creates the run directory with c, or resumes it
// (rundir.Loop.Prepare): for an existing run it returns the saved
// config with the settings named in changed (flag names) taken from c.
// A changed setting that differs from the saved one is an error
// wrapping rundir.ErrConflict, except "generations", which may be
// raised to go on, and the extra anchors ("anchor-ms", "mcts-anchor"),
// which change no net nor the gate's choice (--anchor-pairs does: the
// gate's second way compares the first anchor's pairs). A directory
// holding a conv-net run is refused.
func Prepare(dir string, c Config, changed []string) (Config, error) {
	return loop.Prepare(dir, c, changed)
}
