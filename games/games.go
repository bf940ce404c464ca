// Package games lists the games this program plays, each by its plug-in
// (package games/plugin), so that commands can take --game NAME and
// generic code can ask a game for its capabilities without naming it.
package games

import (
	"fmt"
	"slices"
	"strings"

	"trench/engine"
	"trench/games/plugin"
	tictactoe "trench/games/tictactoe"
	trench "trench/games/trench"
	trichess "trench/games/trichess"
	"trench/internal/excerpt"
)

// plugins are the games' plug-ins, one line per game; the first is the
// default. Trichess is the three-player game; tic-tac-toe is the small
// solved game that tests training end to end.
var plugins = []*plugin.Plugin{
	trench.Plugin,
	trichess.Plugin,
	tictactoe.Plugin,
}

// All lists the games' rules, in the order of their plug-ins; the first is
// the default.
var All = func() []engine.Game {
	all := make([]engine.Game, len(plugins))
	for i, p := range plugins {
		all[i] = p.Rules
	}
	return all
}()

// Plugins lists the games' plug-ins; the first is the default game's.
func Plugins() []*plugin.Plugin { return plugins }

// Playable lists the plug-ins of the games people can play in trench
// play, serve and engine.
func Playable() []*plugin.Plugin {
	return where(func(p *plugin.Plugin) bool { return p.Playable })
}

// where lists the plug-ins for which keep is true, in order.
func where(keep func(*plugin.Plugin) bool) []*plugin.Plugin {
	var out []*plugin.Plugin
	for _, p := range plugins {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// Default is the game commands play when given no --game.
func Default() engine.Game { return plugins[0].Rules }

// Names lists the games' names.
func Names() []string { return names(plugins) }

// PlayableNames lists the names of the games people can play.
func PlayableNames() []string { return names(Playable()) }

// ClassicalNames names the games that have a classical search, joined
// by "and", e.g. "trench".
func ClassicalNames() string {
	ps := where(func(p *plugin.Plugin) bool { return p.Classical != nil })
	return strings.Join(names(ps), " and ")
}

// ClassicalHave says which games have a classical search, for errors,
// e.g. "trench has" or "trench and trichess have".
func ClassicalHave() string {
	ps := where(func(p *plugin.Plugin) bool { return p.Classical != nil })
	if len(ps) == 1 {
		return names(ps)[0] + " has"
	}
	return strings.Join(names(ps), " and ") + " have"
}

// EvaluationNames names the games whose classical search has the
// evaluation called name (e.g. "nnue"), joined by "and".
func EvaluationNames(name string) string {
	ps := where(func(p *plugin.Plugin) bool {
		return p.Classical != nil && slices.Contains(p.Classical.Evaluations(), name)
	})
	return strings.Join(names(ps), " and ")
}

// HasEvaluation reports whether g's classical search has the evaluation
// called name.
func HasEvaluation(g engine.Game, name string) bool {
	c := ClassicalOf(g)
	return c != nil && slices.Contains(c.Evaluations(), name)
}

// PerftNames lists, sorted, the names of the games trench perft counts.
func PerftNames() []string {
	out := names(where(func(p *plugin.Plugin) bool { return p.Perft != nil }))
	slices.Sort(out)
	return out
}

// PlayableByName returns the game called name if people can play it
// here, and otherwise an error that names the games they can.
func PlayableByName(name string) (engine.Game, error) {
	p, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if !p.Playable {
		return nil, fmt.Errorf("%s cannot be played here (%s)", p.Name(), strings.Join(PlayableNames(), " or "))
	}
	return p.Rules, nil
}

func names(ps []*plugin.Plugin) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name()
	}
	return out
}

// ByName returns the game called name.
func ByName(name string) (engine.Game, error) {
	p, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return p.Rules, nil
}

// Lookup returns the plug-in of the game called name.
func Lookup(name string) (*plugin.Plugin, error) {
	for _, p := range plugins {
		if p.Name() == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("unknown game %s (known: %s)", excerpt.Quote(name), strings.Join(Names(), ", "))
}

// ClassicalOf returns g's classical search, or nil when g has none.
func ClassicalOf(g engine.Game) plugin.Classical {
	if p := Of(g); p != nil {
		return p.Classical
	}
	return nil
}

// Of returns g's plug-in, or nil for a game that has none (a test's toy
// game).
func Of(g engine.Game) *plugin.Plugin {
	for _, p := range plugins {
		if p.Name() == g.Name() {
			return p
		}
	}
	return nil
}

// SeatName is the name of player s of g: its plug-in's seat name, else
// "black" and "white" for two players, else "player N".
func SeatName(g engine.Game, s int) string {
	if p := Of(g); p != nil && s >= 0 && s < len(p.Seats) {
		return p.Seats[s]
	}
	return plugin.DefaultSeatName(s, g.Players())
}

// Title is g's name for people, e.g. "Trench".
func Title(g engine.Game) string {
	if p := Of(g); p != nil && p.Title != "" {
		return p.Title
	}
	return g.Name()
}
