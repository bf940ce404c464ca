package main

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/pflag"

	"trench/terminal"
)

// stdin is where play and engine read their input; tests replace it.
var stdin io.Reader = os.Stdin

var playCommand = command{
	name:    "play",
	summary: "play against the bot in the terminal",
	usage: `Usage:
  trench play [--game trench|trichess] [--side COLOUR | --seats COLOURS]
              [--level N | --sims N | --time D] [--net REF] [flags]

Plays a game against the bot in the terminal.

Trench (the default): the board is drawn as a diamond with the trench
across the middle (Black's corner a1 at the bottom), or as a square with
--square. Black's pieces are upper-case (P S K C G), White's lower-case;
with colour, Black's are red and White's cyan. Empty trench squares are
"-". You play one side (--side black or white).

Trichess (--game trichess): the board is drawn as the hexagon it is, the
three sections around the centre: White's back rank at the bottom, Red's
upper right, Black's upper left, file letters outside every back rank and
rank digits outside the side edges. A piece is its owner's letter and its
kind (wK, rP, bN); empty squares are "." in White's section, ":" in
Red's and "+" in Black's, and with colour each section is drawn in its
player's colour. --seats says which seats are human (e.g. --seats red, or
--seats white,black for two humans); the bot plays the others. No net
for Trichess is built in: give --net (a checkpoint or run directory from
trench train --game trichess), or the bot searches with a material
evaluation and says so.

` + terminal.Commands + `
After each of its moves the bot shows its evaluation and main line: in
Trench win/draw/loss chances and the expected final score difference
from its side; in Trichess every player's expected points (seigneur 3,
chevalier 2, vassal 1, serf 0) and value. In Trench alphabeta checks each
of the bot's moves (--guard, 0.1 of a time limit, depth 4 under
simulations; 0 turns it off) and replaces one after which you would win
by force; the bot then says so ("check:"). From the moment either player
has 15 points (--endgame; 0 turns it off) alphabeta chooses the bot's
moves itself, with the whole time, or to depth 5 under simulations, and
the bot says so ("endgame:").

Examples:
  trench play
  trench play --side white --level 6
  trench play --time 3s --square --color never
  trench play --net runs/first --load game.txt
  trench play --game trichess --seats red --level 2
  trench play --game trichess --seats white,black --net runs/trichess
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		var ts terminal.Setup
		fs.StringVar(&ts.Side, "side", "", "Trench: your colour, black (moves first, the default) or white")
		fs.StringVar(&ts.Seats, "seats", "", "the human seats, comma-separated (Trichess: white, red, black; default white)")
		fs.BoolVar(&ts.Square, "square", false, "Trench: draw the board as a square instead of a diamond")
		fs.StringVar(&ts.Color, "color", "auto", "colours: auto (when the output is a terminal), always or never")
		fs.StringVar(&ts.FEN, "fen", "", "start from this position string instead of the start")
		fs.StringVar(&ts.Load, "load", "", "continue the game saved in this file")
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := playableGame(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			ts.Game = g
			opts, err := ts.Options(stdout)
			if err != nil {
				return usage("%w", err)
			}
			if opts.Limits, err = bf.limits(); err != nil {
				return usage("%w", err)
			}
			if opts.Bot, err = bf.load(g, stderr); err != nil {
				return usage("%w", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return terminal.Play(ctx, stdin, stdout, opts)
		}
	},
}
