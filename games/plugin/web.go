package plugin

import "trench/engine"

// WebBoard encodes a game's positions for the web page.
type WebBoard interface {
	// Pieces maps the names of the occupied squares of s to their pieces'
	// codes, as the page draws them (Trench: a letter, upper-case for
	// Black; Trichess: owner and kind, e.g. "wK").
	Pieces(s engine.State) map[string]string
	// Moves lists the legal moves of s.
	Moves(s engine.State) []WebMove
	// Move describes action played in prev, or reports false.
	Move(prev engine.State, action int) (WebMove, bool)
	// Status gives the counters the page shows under the board.
	Status(s engine.State) WebStatus
}

// WebMove is one move with its squares and what it takes.
type WebMove struct {
	Move, From, To string
	// Captures names the squares of the pieces it takes, in order.
	Captures []string
}

// WebStatus is what the page shows of a position besides its pieces.
type WebStatus struct {
	// Scores are the players' points in seat order.
	Scores []int
	// Material is each player's material on the board, if the game
	// shows it; Checks the seats in check.
	Material []int
	Checks   []int
	// QuietPlies counts towards QuietLimit; WinScore, if not 0, is the
	// score that wins; MoveNumber counts rounds from 1.
	QuietPlies, QuietLimit, WinScore, MoveNumber int
}
