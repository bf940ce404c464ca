// Package plugin describes what a game offers to the generic code besides
// its rules: the names of its seats, its classical search, its built-in
// net, its perft conventions, its board in a terminal and on the web page,
// its position-string help. A game's plug-in package (games/trench,
// games/trichess, ...) fills in a Plugin; package games lists them. A
// capability a game lacks is nil, and generic code says so.
//
// This package imports only the rules contract, so that every package,
// down to record and bot, may ask for a game's capabilities.
package plugin

import (
	"fmt"

	"trench/engine"
)

// Plugin is one game as the generic code knows it.
type Plugin struct {
	// Rules is the game's rules (its engine.Game).
	Rules engine.Game
	// Title is the game's name for people, e.g. "Trench".
	Title string
	// Seats names the seats in seat order, in lower case (Trichess's
	// "white", "red", "black"); nil names them as DefaultSeatName says.
	Seats []string
	// Playable says whether people can play the game in trench play,
	// serve and engine.
	Playable bool
	// PositionHelp describes the game's position strings for people.
	PositionHelp string
	// DefaultNet is the net built into the binary for the game, or nil.
	DefaultNet *Net
	// PlaysWithoutNet says that the bot people play (trench play, serve
	// and engine) searches without DefaultNet unless given a net, since
	// the search without it measured stronger at equal time.
	PlaysWithoutNet bool
	// Classical is the game's hand-written search engine, or nil.
	Classical Classical
	// Perft counts move sequences with the game's fast position type, or
	// is nil.
	Perft *Perft
	// Terminal draws the game in a terminal, or is nil.
	Terminal TerminalView
	// Web encodes the game's positions for the web page, or is nil.
	Web WebBoard
	// ExpectedPoints converts a player's value in [-1, 1] to the points
	// it expects from the game's scoring (Trichess's titles), or is nil
	// when the game's evaluations are told as win, draw and loss.
	ExpectedPoints func(value float64) float64
	// RulesResult describes a game the rules ended in the game's own
	// words, or is nil when the outcome's summary says it.
	RulesResult func(final engine.State) string
}

// Name is the game's name, e.g. "trench".
func (p *Plugin) Name() string { return p.Rules.Name() }

// DefaultSeatName names seat s of a game of players players that names
// none: "black" and "white" for two players, else "player N".
func DefaultSeatName(s, players int) string {
	if players == 2 && (s == 0 || s == 1) {
		return [2]string{"black", "white"}[s]
	}
	return fmt.Sprintf("player %d", s)
}

// Net is a net built into the binary.
type Net struct {
	// Name labels the net in messages and errors.
	Name string
	// Data returns the checkpoint file's image, readable by
	// checkpoints.Decode; callers must not modify it.
	Data func() []byte
}
