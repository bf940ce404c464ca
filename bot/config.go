package bot

import (
	"errors"
	"io"

	"trench/engine"
	"trench/neteval"
	"trench/searchconfig"
)

// OptionsFor returns the options of a bot for game g with settings c
// (package searchconfig): its search's parameters, threads, tactical
// aids and symmetry averaging, and its own guard and endgame, which are
// made here and nowhere else. A guard or endgame asked of a game without
// a classical search is an error; Config.Fit drops the defaults' first.
func OptionsFor(g engine.Game, c searchconfig.Config) (Options, error) {
	if err := c.Validate(); err != nil {
		return Options{}, err
	}
	p := c.Params()
	aids := c.Tactics()
	o := Options{Params: &p, Threads: c.Threads, Tactics: &aids, AverageSymmetries: c.Symmetries}
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

// LimitsOf returns the limits of one search that c asks for: its
// simulations and time when either is set, else its level's.
func LimitsOf(c searchconfig.Config) (Limits, error) {
	sims, t, err := c.LimitsOf()
	if err != nil {
		return Limits{}, err
	}
	l := Limits{Sims: sims, Time: t}
	return l, l.Validate()
}

// Load makes a bot for g with settings c (OptionsFor), searching with
// the net c.Net names (see neteval.LoadNet), and warns on warn of the checkpoints
// passed over on the way. The net searchconfig.NoNet, or the built-in net of a game
// that has none (tic-tac-toe), searches with Fallback instead.
func Load(g engine.Game, c searchconfig.Config, warn io.Writer) (*Bot, error) {
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
