package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trench/engine"
	"trench/excerpt"
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

  trench                 identify: "id name ...", "id net ...", then "trenchok"
  isready                answers "readyok"
  newgame                forget the search tree
  position startpos [moves M1 M2 ...]
  position fen POSITION [moves M1 M2 ...]
                         set the position (the game's position string: 6
                         fields for Trench, 5 for Trichess), then play the
                         moves
  go [sims N] [time MS] [level N]
                         search the position (default: level 6); prints
                         "info ..." lines as it goes, then "bestmove MOVE"
                         ("bestmove none" when the game is over)
  stop                   end the search now; it answers bestmove
  show                   print the position string and the board
  moves                  list the legal moves: "moves d4d5 d4e4 ..."
  quit                   leave

While a search runs, isready, stop and quit are obeyed at once (quit ends
the search as stop does, then leaves); every other command waits for the
search to end and is obeyed after its bestmove. The end of the input
ends a running search at once, as quit does: to let a piped search run to
its limit, follow go with a command that waits, such as show. A line
longer than 1 MiB is answered "error line too long" and skipped.

An info line reads
  info sims 400 visits 412 time 1830 wdl 512 93 395 value 0.117 points 1.4 pv d4d5 e5e4 c4c5
with the simulations of this search, the root's visits (kept ones
included), milliseconds, win/draw/loss per mille and the value (win minus
loss) for the side to move, its expected final score difference, and the
principal variation. Trichess's info lines add, before pv, "values" and
every player's value in seat order (White, Red, Black). A command that
cannot be obeyed is answered "error MESSAGE" and changes nothing.

With --game trichess it plays Trichess: moves and squares in its notation
(We2We4), and without --net a material search (no Trichess net is built
in), which "id net" says.

Examples:
  printf 'position startpos moves d4d5\ngo sims 200\nshow\n' | trench engine
  trench engine --net runs/first
  printf 'position startpos moves We2We4\ngo sims 100\nshow\n' | trench engine --game trichess
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %s", excerpt.Quote(args[0]))}
			}
			g, err := playableGame(*gameName)
			if err != nil {
				return &exitError{2, err}
			}
			limits, err := bf.limits()
			if err != nil {
				return &exitError{2, err}
			}
			view, err := terminal.View(g)
			if err != nil {
				return &exitError{2, err}
			}
			session, err := protocol.New(protocol.Config{
				Game:   g,
				NewBot: func() (protocol.Bot, error) { return bf.load(g, stderr) },
				Limits: limits,
				Board:  func(w io.Writer, s engine.State) { view.Draw(w, plugin.Style{}, s, nil) },
			})
			if err != nil {
				return &exitError{2, err}
			}
			return session.Run(stdin, stdout)
		}
	},
}
