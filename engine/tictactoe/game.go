// Package tictactoe is tic-tac-toe over the engine contract: a small solved
// game for testing search and training. Player 0 plays X and moves first;
// player 1 plays O. Squares are numbered 0..8 row by row from the top left,
// and an action is the square the mover marks.
package tictactoe

import "trench/engine"

// Game is tic-tac-toe. Its zero value is ready to use.
type Game struct{}

var _ engine.Game = Game{}

// Name returns "tictactoe".
func (Game) Name() string { return "tictactoe" }

// Players returns 2.
func (Game) Players() int { return 2 }

// ActionCount returns 9, one action per square.
func (Game) ActionCount() int { return 9 }

// FeatureShape is 3 planes of 3×3: the mover's marks, the opponent's marks,
// and ones.
func (Game) FeatureShape() engine.Shape { return engine.Shape{Planes: 3, Height: 3, Width: 3} }

// ActionPlanes is 1: the action is the square marked
// (engine.SpatialActions).
func (Game) ActionPlanes() int { return 1 }

// Symmetries returns 8, the symmetries of the square.
func (Game) Symmetries() int { return len(symmetries) }

// Start returns the empty board with X to move.
func (Game) Start() engine.State { return &State{} }

// ParseState reads a state in the form of State.String.
func (Game) ParseState(text string) (engine.State, error) { return Parse(text) }
