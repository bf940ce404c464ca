// Package games names the games this program plays, so that commands can
// take --game NAME.
package games

import (
	"fmt"
	"strings"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/excerpt"
)

// All lists the playable games; the first is the default. Trichess is the
// three-player game; tic-tac-toe is the small solved game that tests
// training end to end.
var All = []engine.Game{trench.Game, trichess.Game, tictactoe.Game{}}

// Names lists the games' names.
func Names() []string {
	names := make([]string, len(All))
	for i, g := range All {
		names[i] = g.Name()
	}
	return names
}

// ByName returns the game called name.
func ByName(name string) (engine.Game, error) {
	for _, g := range All {
		if g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown game %s (known: %s)", excerpt.Quote(name), strings.Join(Names(), ", "))
}
