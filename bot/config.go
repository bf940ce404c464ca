package bot

import (
	"errors"
	"fmt"
	"io"

	"trench/engine"
	"trench/games"
	"trench/neteval"
	"trench/searchconfig"
)

// OptionsFor returns the options of a bot for game g with settings c
// (package searchconfig): its search's parameters, threads, tactical
// aids and symmetry averaging, its leaf values (Values: the NNUE read
// here), and its own guard and endgame, which are made here and nowhere
// else. A guard, endgame or NNUE asked of a game without a classical
// search is an error; Config.Fit drops the defaults' first.
func OptionsFor(g engine.Game, c searchconfig.Config) (Options, error) {
	if err := c.Validate(); err != nil {
		return Options{}, err
	}
	if c.Kind == searchconfig.AlphaBeta {
		return Options{}, errors.New("bot: a bot of the alphabeta kind takes no tree search's options (see NewAlphaBeta)")
	}
	p := c.Params()
	aids := c.Tactics()
	o := Options{Params: &p, Threads: c.Threads, Tactics: &aids, AverageSymmetries: c.Symmetries}
	values, err := Values(g, c)
	if err != nil {
		return Options{}, err
	}
	o.Values = values
	if c.Guard > 0 {
		gd, err := NewGuard(g, c.Guard, c.GuardDepth)
		if err != nil {
			return Options{}, err
		}
		o.Guard = gd
	}
	if c.Endgame > 0 {
		e, err := NewEndgame(g, c.Endgame, c.EndgameDepth)
		if err != nil {
			return Options{}, err
		}
		o.Endgame = e
	}
	return o, nil
}

// Values reads the leaf values of the mcts kind that c asks for in game
// g (searchconfig.Config.Value): nil for value net, the net's own; for
// nnue and qnnue the values of the efficiently updatable net c.NNUE
// names (a net file, a generation run directory's newest accepted net,
// or "default", the one built in), at the leaf or after the classical
// search's quiescence. Its errors name the setting, among them that g
// (Trichess) has no such net.
func Values(g engine.Game, c searchconfig.Config) (*neteval.Values, error) {
	switch c.Value {
	case searchconfig.ValueNet:
		return nil, nil
	case searchconfig.ValueNNUE, searchconfig.ValueQNNUE:
	default:
		return nil, fmt.Errorf("value must be %s, %s or %s, got %q", searchconfig.ValueNet, searchconfig.ValueNNUE, searchconfig.ValueQNNUE, c.Value)
	}
	cl := games.ClassicalOf(g)
	if !games.HasEvaluation(g, searchconfig.EvalNNUE) {
		return nil, fmt.Errorf("value %s: %s has no efficiently updatable net (%s has); give value %s", c.Value, g.Name(), games.EvaluationNames(searchconfig.EvalNNUE), searchconfig.ValueNet)
	}
	ev, err := cl.Evaluation(searchconfig.EvalNNUE, c.NNUERef())
	if err != nil {
		return nil, fmt.Errorf("value %s: %w", c.Value, err)
	}
	return &neteval.Values{Evaluation: ev, Quiescence: c.Value == searchconfig.ValueQNNUE}, nil
}

// LimitsOf returns the limits of one search that c asks for: its
// simulations, nodes and time when any is set, else its level's
// (simulations for the mcts kind, nodes for alphabeta).
func LimitsOf(c searchconfig.Config) (Limits, error) {
	sims, nodes, t, err := c.LimitsOf()
	if err != nil {
		return Limits{}, err
	}
	l := Limits{Sims: sims, Nodes: nodes, Time: t}
	return l, l.Validate()
}

// Load makes a bot for g with settings c: of the alphabeta kind with
// the evaluation c asks for (Evaluation, NewAlphaBeta), else an mcts bot
// (OptionsFor) searching with the net c.Net names (see neteval.LoadNet), and warns on warn of the checkpoints
// passed over on the way. The net searchconfig.NoNet, or the built-in net of a game
// that has none (tic-tac-toe), searches with Fallback instead.
func Load(g engine.Game, c searchconfig.Config, warn io.Writer) (*Bot, error) {
	if c.Kind == searchconfig.AlphaBeta {
		ev, err := Evaluation(g, c)
		if err != nil {
			return nil, err
		}
		return NewAlphaBeta(g, ev, c)
	}
	opts, err := OptionsFor(g, c)
	if err != nil {
		return nil, err
	}
	if c.Net == searchconfig.NoNet {
		return New(g, nil, opts)
	}
	net, err := neteval.LoadNet(g, c.Net)
	if errors.Is(err, neteval.ErrNoDefaultNet) {
		return New(g, nil, opts)
	}
	if err != nil {
		return nil, err
	}
	net.WarnPassed(warn)
	return New(g, net, opts)
}
