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
	usage:   helpText("perft"),
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
