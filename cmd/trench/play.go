package main

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/pflag"

	"trench/faces/terminal"
)

// stdin is where play and engine read their input; tests replace it.
var stdin io.Reader = os.Stdin

var playCommand = command{
	name:    "play",
	summary: "play against the bot in the terminal",
	usage:   helpWith("play", terminal.Commands),
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
			if opts.Limits, err = bf.limits(g); err != nil {
				return usage("%w", err)
			}
			m, err := bf.maker(g, stderr)
			if err != nil {
				return usage("%w", err)
			}
			if opts.Bot, err = m.New(0, nil); err != nil {
				return usage("%w", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return terminal.Play(ctx, stdin, stdout, opts)
		}
	},
}
