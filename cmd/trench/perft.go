package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"trench/games"
	"trench/games/plugin"
	"trench/internal/excerpt"
)

var perftCommand = command{
	name:    "perft",
	summary: "count move sequences to check a rules engine",
	usage: `Usage:
  trench perft [--game trench|trichess] [--fen POSITION] --depth D [--divide]
  trench perft [--game trench|trichess] --file FILE

With --depth, prints "perft d N" for each depth d from 1 to D, counting legal
moves from POSITION (the game's start by default). With --divide, prints the
count below each root move at depth D first. With --file, checks every line
"position;n1;n2;n3" of FILE (blank lines and # comments skipped), prints each
mismatch, and ends with "N passed, M failed"; the exit code is 1 if any
failed and 2 if the file cannot be read.

For trichess, --file also reads the two reference move files, line by line:
"wP Wa2: Wa3 Wa4" (one piece on an empty board and where it can go) and
"r;Wa3=bB Wb1=rK ...;Bd4Bb3 ..." (a placement and every pseudo-legal move of
the side to move, by the reference board's simplified rules); a line passes
when the rules engine gives exactly the moves listed.

Examples:
  trench perft --depth 5
  trench perft --fen "4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1" --depth 3 --divide
  trench perft --file engine/trench/testdata/perft-positions.txt
  trench perft --game trichess --depth 3
  trench perft --game trichess --file engine/trichess/testdata/perft.txt
  trench perft --game trichess --file engine/trichess/testdata/pseudo-legal-positions.txt
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Default().Name(), "the game: "+strings.Join(games.PerftNames(), " or "))
		fen := fs.String("fen", "", "the position to count from (default the game's start)")
		depth := fs.Int("depth", 0, "count to this depth (1 or more)")
		divide := fs.Bool("divide", false, "print the count below each root move")
		file := fs.String("file", "", "check the counts listed in this file")
		return func(_ []string, stdout, _ io.Writer) error {
			game, err := games.Lookup(*gameName)
			if err != nil || game.Perft == nil {
				return usage("--game: unknown game %s (known: %s)", excerpt.Quote(*gameName), strings.Join(games.PerftNames(), ", "))
			}
			rules := game.Perft
			if *file != "" {
				if fs.Changed("depth") || fs.Changed("fen") || *divide {
					return usage("--file checks the depths listed in the file: drop --depth, --fen and --divide")
				}
				return perftFile(rules, *file, stdout)
			}
			if *depth < 1 {
				return usage("--depth must be 1 or more, got %d", *depth)
			}
			text := *fen
			if text == "" {
				text = rules.Start
			}
			p, err := rules.Parse(text)
			if err != nil {
				return usage("--fen: %w", err)
			}
			plugin.Count(stdout, p, *depth, *divide)
			return nil
		}
	},
}

// perftFile checks every line of a perft file (or of a reference move
// file of the game).
func perftFile(rules *plugin.Perft, name string, stdout io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return usage("%w", err)
	}
	defer f.Close()
	passed, failed, err := rules.CheckFile(f, name, stdout)
	if err != nil {
		return usage("%w", err)
	}
	if failed > 0 {
		return &exitError{1, fmt.Errorf("%d of %d positions failed", failed, passed+failed)}
	}
	return nil
}
