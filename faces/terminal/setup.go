package terminal

import (
	"errors"
	"fmt"
	"io"

	"trench/engine"
	"trench/games/plugin"
	"trench/record"
)

// Setup is a game in the terminal as trench play's flags describe it,
// whose errors name them.
type Setup struct {
	// Game is the game played.
	Game engine.Game
	// Side (two-player games) or Seats name the human seats (see Seats).
	Side, Seats string
	// Square draws the board as a square (SquareViewTitles' games).
	Square bool
	// Color is auto, always or never (UseColor).
	Color string
	// FEN, if set, is the position to start from; Load, if set, a saved
	// game to continue. At most one is set.
	FEN, Load string
}

// Options returns the options of Play for the setup, its board drawn on
// out, without the bot and its limits.
func (s Setup) Options(out io.Writer) (Options, error) {
	g := s.Game
	view, err := View(g)
	if err != nil {
		return Options{}, err
	}
	humans, err := Seats(g, s.Side, s.Seats)
	if err != nil {
		return Options{}, err
	}
	color, err := UseColor(s.Color, out)
	if err != nil {
		return Options{}, fmt.Errorf("--color %w", err)
	}
	switch {
	case s.FEN != "" && s.Load != "":
		return Options{}, errors.New("give --fen or --load, not both")
	case s.Square && !view.SquareView():
		return Options{}, fmt.Errorf("--square draws %s boards only", SquareViewTitles())
	}
	game := record.New(g.Start())
	if s.FEN != "" {
		st, err := g.ParseState(s.FEN)
		if err != nil {
			return Options{}, fmt.Errorf("--fen: %v", err)
		}
		game = record.New(st)
	}
	if s.Load != "" {
		if game, err = LoadGame(g, s.Load); err != nil {
			return Options{}, err
		}
	}
	return Options{Game: game, Humans: humans, Style: plugin.Style{Square: s.Square, Color: color}}, nil
}
