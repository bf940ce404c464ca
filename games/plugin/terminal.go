package plugin

import (
	"io"

	"trench/engine"
)

// TerminalView draws a game's positions in a terminal and reads its
// squares, for trench play (and the engine's show command).
type TerminalView interface {
	// Example is a move to show in the greeting.
	Example() string
	// Help lists the moves' notation and the commands.
	Help() string
	// SquareView reports whether the game has a second drawing, the
	// square board that Style.Square asks for.
	SquareView() bool
	// Draw writes the board with marks (keyed by square number).
	Draw(w io.Writer, st Style, s engine.State, marks map[int]Mark)
	// Status is the line under the board: scores, counters, whose turn;
	// humans says which seats people play.
	Status(s engine.State, humans []bool) string
	// LastMove marks the move action played in prev.
	LastMove(prev engine.State, action int) map[int]Mark
	// PieceMoves marks and describes the legal moves of the piece on the
	// square named text.
	PieceMoves(s engine.State, text string) (map[int]Mark, []string, error)
	// Normalize puts a typed move or square into the game's notation
	// (e.g. Trichess's capital section letters).
	Normalize(text string) string
}

// Style says how a board is drawn in a terminal.
type Style struct {
	// Square draws the game's square view (TerminalView.SquareView)
	// instead of its usual one.
	Square bool
	// Color uses ANSI colours besides the letters' case.
	Color bool
}

// Mark is how a square is highlighted.
type Mark uint8

// The highlights of a square.
const (
	MarkNone    Mark = iota
	MarkFrom         // the piece whose moves are shown, or the last move's origin
	MarkTarget       // an empty square a move can stop on
	MarkCapture      // an enemy piece a move can take
	MarkLast         // the last move's destination
)

// ANSI codes the boards share.
const (
	AnsiReset   = "\x1b[0m"
	AnsiMark    = "\x1b[1;32m" // move targets: bold green
	AnsiCapture = "\x1b[1;7m"  // pieces a move would take: reverse video
	AnsiDim     = "\x1b[2m"
)

// Frame is a square's text on a terminal board: glyph between the
// brackets of its mark (<> from, [] capture, () last move, spaces
// otherwise), in colour when the style has colour, and reversed for a
// capture.
func Frame(st Style, m Mark, glyph, colour string) string {
	left, right := " ", " "
	switch m {
	case MarkFrom:
		left, right = "<", ">"
	case MarkCapture:
		left, right = "[", "]"
	case MarkLast:
		left, right = "(", ")"
	}
	if !st.Color {
		return left + glyph + right
	}
	if m == MarkCapture {
		colour += AnsiCapture
	}
	return left + colour + glyph + AnsiReset + right
}
