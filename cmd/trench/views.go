package main

import (
	"io"

	"trench/engine"
	"trench/games/plugin"
	"trench/terminal"
)

// gameView is the board the engine command's show draws: the game's
// terminal view.
type gameView struct{ view plugin.TerminalView }

// boardStyle is how show draws the board.
type boardStyle = plugin.Style

// newView returns the terminal view of g.
func newView(g engine.Game) (gameView, error) {
	v, err := terminal.View(g)
	return gameView{v}, err
}

// draw writes the board of s with marks.
func (v gameView) draw(w io.Writer, st boardStyle, s engine.State, marks map[int]plugin.Mark) {
	v.view.Draw(w, st, s, marks)
}
