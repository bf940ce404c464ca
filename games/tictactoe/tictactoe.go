// Package tictactoe plugs tic-tac-toe into the generic code: the small
// solved game that tests training end to end offers its rules alone (its
// seats are the two-player default, black and white), and people cannot
// play it in trench play, serve or engine.
package tictactoe

import (
	"trench/engine/tictactoe"
	"trench/games/plugin"
)

// Plugin is tic-tac-toe's plug-in.
var Plugin = &plugin.Plugin{
	Rules: tictactoe.Game{},
	Title: "Tic-tac-toe",
	PositionHelp: "A tic-tac-toe position string is the three rows from the top, " +
		"separated by \"/\", with x, o or . per square, then a space and the mover " +
		"(x or o); the start is \".../.../... x\".",
}
