package bot

import (
	"trench/engine"
	"trench/searchconfig"
)

// OptionsFor returns the options of a bot for game g with settings c
// (package searchconfig): its search's parameters, threads, tactical
// aids and symmetry averaging, and its own guard and endgame, which are
// made here and nowhere else. A guard or endgame asked of a game without
// a classical engine is an error; Config.Fit drops the defaults' first.
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
