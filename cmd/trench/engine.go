package main

import (
	"io"

	"github.com/spf13/pflag"

	"trench/engine"
	"trench/faces/protocol"
	"trench/faces/terminal"
	"trench/games/plugin"
)

var engineCommand = command{
	name:    "engine",
	summary: "speak a text protocol on stdin/stdout for GUIs and other programs",
	usage:   helpWith("engine", protocol.Reference),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := playableGame(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			limits, err := bf.limits(g)
			if err != nil {
				return usage("%w", err)
			}
			view, err := terminal.View(g)
			if err != nil {
				return usage("%w", err)
			}
			m, err := bf.maker(g, stderr)
			if err != nil {
				return usage("%w", err)
			}
			session, err := protocol.New(protocol.Config{
				Game:   g,
				NewBot: func() (protocol.Bot, error) { return m.New(0, nil) },
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
