// Package searchconfig declares, once, the settings of a search player:
// the bot of trench play, serve and engine, the arena's mcts player (and
// so training's evaluation matches), and what self-play searches with.
// Each setting is a field of Config whose tags give its key, its old
// names, its help, and its range or values; the defaults, which differ
// between those uses, are the named sets of defaults.go, each with its
// reason.
//
// Every surface reads into a Config through one reader here: command
// flags (Bind), the arena's spec options (Set, which also takes the old
// keys, so that existing commands and arena logs still read), the web
// server's options (package web holds a Config) and the engine protocol's
// "go" (Set, for the limits). A new setting is one more field: each reader
// finds it by its tags.
//
// Package bot builds a bot from a Config (bot.OptionsFor), its guard and
// endgame included; this package imports neither bot nor any net, so
// that training can read the self-play settings without them.
package searchconfig

import (
	"fmt"
	"strings"
	"time"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/settings"
	"trench/mcts"
	"trench/nnue"
	"trench/tactics"
)

// Config is a search player's settings, read by package settings from
// its fields' tags: key, the name of its flag and spec option; alias, old
// spec keys still read, separated by "|"; help, for people; min and max,
// its range (numbers, durations, or the names of this package's bounds:
// MaxThreads, MaxSims, MaxNodes, Levels); values, the words a string
// field takes, separated by "|".
type Config struct {
	Kind              string        `key:"kind" values:"mcts|alphabeta" help:"the search: mcts, a tree search guided by the net; or alphabeta, the classical full-width alpha-beta search (Trench and Trichess) with the evaluation eval names"`
	Eval              string        `key:"eval" values:"hand|rules|nnue" help:"the alphabeta kind's evaluation: hand (the hand-written one), rules (the score difference alone) or nnue (the efficiently updatable net that nnue names)"`
	NNUE              string        `key:"nnue" help:"the efficiently updatable net of the alphabeta kind's eval nnue and of the mcts kind's value nnue or qnnue: a net file, a run directory of trench train --preset nnue (its newest accepted net) or \"default\" (the one built in)"`
	Net               string        `key:"net" help:"the mcts kind's net: a checkpoint file, a run directory (its newest checkpoint), \"default\" (the one built in for the game) or \"none\" (no net: capture-first priors and a material evaluation)"`
	Value             string        `key:"value" values:"net|nnue|qnnue|hand|qhand" help:"the mcts kind's values at the leaves: net (the net's, or with net none the material evaluation), nnue (the efficiently updatable net nnue names, at the leaf), qnnue (that net at the end of the classical search's quiescence search of the leaf, its captures resolved), hand or qhand (the classical search's hand-written evaluation, at the leaf or after quiescence); the priors stay the net's (with net none, capture-first priors), and the tactical aids apply to these values as to the net's"`
	Level             int           `key:"level" min:"1" max:"Levels" help:"strength level: simulations per move for mcts, nodes per move for alphabeta; sims, nodes or time replace it"`
	Sims              int           `key:"sims" min:"0" max:"MaxSims" help:"the mcts kind's simulations per move (0: the level's; with a time, whichever ends first)"`
	Nodes             int           `key:"nodes" min:"0" max:"MaxNodes" help:"the alphabeta kind's nodes per move, quiescence included (0: the level's; with a time, whichever ends first)"`
	Time              time.Duration `key:"time" min:"0" max:"1h" help:"time per move, e.g. 2s (0: no time limit; with simulations or nodes, whichever ends first)"`
	Threads           int           `key:"threads" min:"1" max:"MaxThreads" help:"search goroutines sharing one tree (the alphabeta kind searches on one thread whatever this says)"`
	Search            string        `key:"search" alias:"algo" values:"puct|gumbel" help:"root search: puct, or gumbel (sequential halving over the net's likeliest moves)"`
	PolicyTemperature float64       `key:"policy-temperature" alias:"ptemp" min:"0.1" max:"10" help:"temperature of the net's priors: above 1 flattens them"`
	CPUCT             float64       `key:"cpuct" min:"0" max:"20" help:"PUCT's exploration constant"`
	FPU               float64       `key:"fpu" min:"0" max:"2" help:"first-play urgency reduction below the root: an unvisited move is valued its parent's value less this times the root of the visited moves' summed priors"`
	RootFPU           float64       `key:"root-fpu" alias:"rootfpu" min:"0" max:"2" help:"the first-play urgency reduction at the root"`
	MinimaxWeight     float64       `key:"minimax-weight" alias:"mmw" min:"0" max:"1" help:"weight of a node's minimax value blended into its mean value"`
	Solver            bool          `key:"solver" help:"prove won and lost positions in the tree and play by the proof"`
	Quiescence        bool          `key:"quiescence" alias:"quiesce" help:"play out the captures pending at the search's leaves before the net evaluates them (games whose pieces have values)"`
	QuiescenceValue   string        `key:"quiescence-value" alias:"qvalue" values:"net|shift" help:"the value of a leaf played out by quiescence: net (the net's at the quiet position) or shift (the leaf's net value shifted by the material won)"`
	MaterialValue     float64       `key:"material-value" alias:"mat" min:"0" max:"1" help:"weight of the material lead in search values, blended with the net's"`
	CapturePrior      float64       `key:"capture-prior" alias:"cprior" min:"0" max:"1" help:"weight of capture-first priors in the search's priors, mixed with the net's"`
	Guard             float64       `key:"guard" min:"0" max:"0.5" help:"share of a time limit in which the classical search checks the bot's move and replaces one that loses by force (0: no check; games without a classical search play without it unless asked; the alphabeta kind, the classical search already, ignores it)"`
	GuardDepth        int           `key:"guard-depth" alias:"guarddepth" min:"1" max:"64" help:"depth of the guard's checks under a limit of simulations"`
	Endgame           float64       `key:"endgame" min:"0" max:"1000" help:"score from which the classical search chooses the moves, with the whole time, once either player has it (0: the tree search chooses every move); for the alphabeta kind, the score from which it searches with the hand-written evaluation, within the same limits (0: with eval's throughout)"`
	EndgameDepth      int           `key:"endgame-depth" alias:"endgamedepth" min:"1" max:"64" help:"depth of the endgame's searches under a limit of simulations (the mcts kind's)"`
	Symmetries        bool          `key:"symmetries" alias:"sym" help:"average every evaluation over the board's symmetries, at that many times the work"`
}

// The kinds of search (Config.Kind).
const (
	// MCTS is the tree search guided by the net (package mcts).
	MCTS = "mcts"
	// AlphaBeta is the classical alpha-beta search (package
	// alphabeta) with an evaluation (Config.Eval).
	AlphaBeta = "alphabeta"
)

// EvalNNUE, as Config.Eval, evaluates with the efficiently updatable net
// Config.NNUE names: the classical searches' name for it.
const EvalNNUE = plugin.EvalNNUE

// The mcts kind's leaf values (Config.Value).
const (
	// ValueNet takes the values of the net (or of the material
	// evaluation with NoNet).
	ValueNet = "net"
	// ValueNNUE takes the values of the efficiently updatable net
	// Config.NNUE names, at the leaf.
	ValueNNUE = "nnue"
	// ValueQNNUE takes that net's values at the end of the classical
	// search's quiescence search of the leaf.
	ValueQNNUE = "qnnue"
	// ValueHand takes the values of the classical search's hand-written
	// evaluation (plugin.EvalHand), at the leaf.
	ValueHand = "hand"
	// ValueQHand takes them at the end of the quiescence search.
	ValueQHand = "qhand"
)

// NoNet, as Config.Net, searches without a net: capture-first priors
// and a material evaluation (tactics.Fallback).
const NoNet = "none"

// MaxThreads bounds Config.Threads: the goroutines of one search.
const MaxThreads = 256

// MaxSims, MaxNodes and MaxTime bound what a single search may be asked
// for.
const (
	MaxSims  = 1 << 20
	MaxNodes = 1 << 30
	MaxTime  = time.Hour
)

// levelSims maps the named levels 1..len(levelSims) to the mcts kind's
// simulations per move. Level 1 plays the net's first choice after one
// simulation.
var levelSims = []int{1, 8, 32, 100, 200, 400, 800, 1600}

// levelNodes maps the same levels to the alphabeta kind's nodes per
// move, quiescence included: from a search of a few plies (the node
// limit is checked every 1024 nodes) up to about 1.5 s on one core at
// the 2 million nodes a CPU second docs/nnue.md measured, each level
// about three times the one before (level 6, the default, about 0.15 s).
var levelNodes = []int{1000, 3000, 10000, 30000, 100000, 300000, 1000000, 3000000}

// Levels is the number of named strength levels.
var Levels = len(levelSims)

// LevelSims returns the mcts kind's simulations per move at strength
// level n (1..Levels).
func LevelSims(n int) (int, error) {
	if n < 1 || n > len(levelSims) {
		return 0, fmt.Errorf("level %d is not in 1..%d", n, len(levelSims))
	}
	return levelSims[n-1], nil
}

// LevelNodes returns the alphabeta kind's nodes per move at strength
// level n (1..Levels).
func LevelNodes(n int) (int, error) {
	if n < 1 || n > len(levelNodes) {
		return 0, fmt.Errorf("level %d is not in 1..%d", n, len(levelNodes))
	}
	return levelNodes[n-1], nil
}

// LevelListOf describes the levels' limits of kind (MCTS or AlphaBeta),
// e.g. "1=1, 2=8, 3=32" (simulations) or "1=1000, 2=3000" (nodes).
func LevelListOf(kind string) string {
	per := levelSims
	if kind == AlphaBeta {
		per = levelNodes
	}
	parts := make([]string, len(per))
	for i, n := range per {
		parts[i] = fmt.Sprintf("%d=%d", i+1, n)
	}
	return strings.Join(parts, ", ")
}

// LevelList describes the levels' limits of both kinds, e.g. "mcts
// simulations 1=1, 2=8, ...; alphabeta nodes 1=1000, ...".
func LevelList() string {
	return "mcts simulations " + LevelListOf(MCTS) + "; alphabeta nodes " + LevelListOf(AlphaBeta)
}

// declared is Config's settings as its tags declare them, with the
// bounds a tag may name and the levels' limits as the note of level.
var declared = settings.Must[Config](settings.Options{
	Bounds: map[string]float64{
		"MaxThreads": MaxThreads,
		"MaxSims":    MaxSims,
		"MaxNodes":   MaxNodes,
		"Levels":     float64(len(levelSims)),
	},
	Notes: map[string]string{"level": LevelList()},
})

// Keys lists the settings' keys in declaration order.
func Keys() []string { return declared.Keys() }

// Canonical returns the key that key names, itself or an old name of it
// (e.g. "mat" for "material-value"), and whether there is one.
func Canonical(key string) (string, bool) { return declared.Canonical(key) }

// Set sets the setting that key names (its key or an old name) from its
// text form: a number, a duration such as 2s, a word of its values, or
// for a yes/no setting 1, 0, true or false. The value must be in the
// setting's range. Errors name the key and the value.
func (c *Config) Set(key, value string) error { return declared.Set(c, key, value) }

// Validate reports the first setting out of its range or values, naming
// its key.
func (c Config) Validate() error { return c.validate("") }

// ValidateFlags is Validate with the keys named as flags (--key).
func (c Config) ValidateFlags() error { return c.validate("--") }

func (c Config) validate(prefix string) error {
	if err := declared.Validate(c, prefix); err != nil {
		return err
	}
	switch {
	case c.Kind == AlphaBeta && c.Sims > 0:
		return fmt.Errorf("%ssims limits the mcts kind; the alphabeta kind searches by %snodes", prefix, prefix)
	case c.Kind != AlphaBeta && c.Nodes > 0:
		return fmt.Errorf("%snodes limits the alphabeta kind; the %s kind searches by %ssims", prefix, c.Kind, prefix)
	case c.Kind == AlphaBeta && c.Value != ValueNet:
		return fmt.Errorf("%svalue %s sets the mcts kind's leaf values; the alphabeta kind evaluates with %seval", prefix, c.Value, prefix)
	}
	return nil
}

// CheckLimits refuses a level given together with simulations, nodes
// or a time, given saying which keys were given.
func CheckLimits(given func(key string) bool, prefix string) error {
	if given("level") && (given("sims") || given("nodes") || given("time")) {
		return fmt.Errorf("give %slevel or %ssims/%snodes/%stime, not both", prefix, prefix, prefix, prefix)
	}
	return nil
}

// LimitsOf returns the simulations, nodes and time of one search the
// settings ask for: Sims, Nodes and Time when any is set, else Level's
// simulations (the mcts kind) or nodes (the alphabeta kind).
func (c Config) LimitsOf() (sims, nodes int, t time.Duration, err error) {
	if c.Sims > 0 || c.Nodes > 0 || c.Time > 0 {
		return c.Sims, c.Nodes, c.Time, nil
	}
	if c.Kind == AlphaBeta {
		nodes, err = LevelNodes(c.Level)
		return 0, nodes, 0, err
	}
	sims, err = LevelSims(c.Level)
	return sims, 0, 0, err
}

// Fit drops, from the settings for game g, the defaults that suit Trench
// but that g cannot serve, unless the setting was given (given says which
// keys were; nil: none): the guard and the endgame, which need a
// two-player game with a classical search, and the NNUE's leaf values
// (value net instead), which need an efficiently updatable net of g's:
// the one built in, or a file of g's. The alphabeta kind, where g's
// classical search lacks the evaluation asked for (or the NNUE it names
// is another game's), searches with that search's own default
// evaluation (the hand-written one) unless eval was given; where g
// has no classical search, or eval was given, it becomes mcts (its nodes
// dropped) unless kind was given. A game whose bot plays without its
// built-in net (plugin.Plugin.PlaysWithoutNet) gets net none.
func (c *Config) Fit(g engine.Game, given func(key string) bool) {
	if given == nil {
		given = func(string) bool { return false }
	}
	if p := games.Of(g); p != nil && p.PlaysWithoutNet && !given("net") {
		c.Net = NoNet
	}
	cl := games.ClassicalOf(g)
	if cl != nil && g.Players() == 2 {
		return
	}
	nnueServed := c.nnueServed(g)
	if c.Kind == AlphaBeta && (!games.HasEvaluation(g, c.Eval) || c.Eval == EvalNNUE && !nnueServed) {
		switch {
		case cl != nil && !given("eval"):
			c.Eval = cl.Evaluations()[0]
		case !given("kind"):
			c.Kind = MCTS
			if !given("nodes") {
				c.Nodes = 0
			}
		}
	}
	if !given("guard") {
		c.Guard = 0
	}
	if !given("endgame") {
		c.Endgame = 0
	}
	if !given("value") && !nnueServed {
		c.Value = ValueNet
	}
}

// nnueServed reports whether g's classical search can read the NNUE c
// names: the one built in (every game with an NNUE evaluation ships
// one, shipped.BuiltInNNUE), or a file not known to be another game's
// (the loader names what is wrong with a file it cannot read).
func (c Config) nnueServed(g engine.Game) bool {
	if !games.HasEvaluation(g, EvalNNUE) {
		return false
	}
	ref := c.NNUERef()
	if ref == shipped.Ref {
		return true
	}
	fs, err := nnue.FileSet(ref)
	return err != nil || fs == nil || fs.Game == g.Name()
}

// NNUERef is the net NNUE names for nnue.LoadRef, shipped.Ref (the one
// built in) when it is empty.
func (c Config) NNUERef() string {
	if c.NNUE == "" {
		return shipped.Ref
	}
	return c.NNUE
}

// ReadsNNUE reports whether the bot c sets out reads the net NNUE names:
// the alphabeta kind with eval nnue, the mcts kind with value nnue or
// qnnue.
func (c Config) ReadsNNUE() bool {
	if c.Kind == AlphaBeta {
		return c.Eval == EvalNNUE
	}
	return c.Value == ValueNNUE || c.Value == ValueQNNUE
}

// Params returns the tree search's parameters.
func (c Config) Params() mcts.Params {
	p := mcts.DefaultParams()
	if c.Search == "gumbel" {
		p.Algorithm = mcts.Gumbel
		// A player plays its best move: no Gumbel noise at the root.
		p.GumbelScale = 0
	}
	p.PolicyTemperature = c.PolicyTemperature
	p.CPUCT = c.CPUCT
	p.FPUReduction, p.RootFPUReduction = c.FPU, c.RootFPU
	p.MinimaxWeight = c.MinimaxWeight
	p.Solver = c.Solver
	return p
}

// Tactics returns the search's tactical aids (package tactics).
func (c Config) Tactics() tactics.Settings {
	return tactics.Settings{Quiescence: c.Quiescence, ShiftValues: c.QuiescenceValue == "shift",
		Material: c.MaterialValue, CapturePrior: c.CapturePrior}
}
