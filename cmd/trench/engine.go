package main

import (
	"io"

	"github.com/spf13/pflag"

	"trench/engine"
	"trench/games/plugin"
	"trench/protocol"
	"trench/terminal"
)

var engineCommand = command{
	name:    "engine",
	summary: "speak a text protocol on stdin/stdout for GUIs and other programs",
	usage: `Usage:
  trench engine [--game trench|trichess] [--net REF] [--threads N]

Reads commands from standard input, one a line, and answers on standard
output, in the manner of UCI and GTP:

` + protocol.Reference + `
With --game trichess it plays Trichess: moves and squares in its notation
(We2We4), and without --net with the built-in Trichess net, which "id
net" names.

Examples:
  printf 'position startpos moves d4d5\ngo sims 200\nshow\n' | trench engine
  trench engine --net runs/first
  printf 'position startpos moves We2We4\ngo sims 100\nshow\n' | trench engine --game trichess
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := playableGame(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			limits, err := bf.limits()
			if err != nil {
				return usage("%w", err)
			}
			view, err := terminal.View(g)
			if err != nil {
				return usage("%w", err)
			}
			session, err := protocol.New(protocol.Config{
				Game:   g,
				NewBot: func() (protocol.Bot, error) { return bf.load(g, stderr) },
				Limits: limits,
				Board:  func(w io.Writer, s engine.State) { view.Draw(w, plugin.Style{}, s, nil) },
			})
			if err != nil {
				return usage("%w", err)
			}
			return session.Run(stdin, stdout)
		}
	},
}
