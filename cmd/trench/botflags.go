package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/engine"
	"trench/games"
	"trench/nnue"
	"trench/searchconfig"
)

// botFlags are the flags of the bot's settings (package searchconfig,
// from its Play set), shared by play, serve and engine.
type botFlags struct {
	c  searchconfig.Config
	fs *pflag.FlagSet
}

// bindBotFlags adds a flag for every setting of the bot but those in skip.
func bindBotFlags(fs *pflag.FlagSet, skip ...string) *botFlags {
	f := &botFlags{c: searchconfig.Play(), fs: fs}
	f.c.Bind(fs, skip...)
	return f
}

// config returns the settings the flags ask for in game g, fitted to g
// (searchconfig.Config.Fit), the nets read by what they hold
// (bot.Resolve: --net with a conv net makes the bot the tree search),
// then checked.
func (f *botFlags) config(g engine.Game) (searchconfig.Config, error) {
	c := f.c
	c.Fit(g, f.fs.Changed)
	if set := nnue.SetOf(g.Name()); set != nil && f.fs.Changed("nnue") && f.c.ReadsNNUE() && !c.ReadsNNUE() {
		// Fit dropped the net --nnue names (another game's): say why,
		// as the loader does.
		if _, _, err := set.LoadRef(f.c.NNUE); err != nil {
			return c, fmt.Errorf("--nnue: %w", err)
		}
	}
	c, err := bot.Resolve(c, f.fs.Changed)
	if err != nil {
		return c, err
	}
	return c, c.Flags(f.fs)
}

// limits returns the search limits the flags ask for in game g: those
// of the kind g's bot has (config).
func (f *botFlags) limits(g engine.Game) (bot.Limits, error) {
	c, err := f.config(g)
	if err != nil {
		return bot.Limits{}, err
	}
	return bot.LimitsOf(c)
}

// maker reads the settings and the net the flags name for g into the
// maker of its bots (bot.NewMaker): with tactics.Fallback for --net
// none, or when the default net is asked for a game that has none.
func (f *botFlags) maker(g engine.Game, stderr io.Writer) (*bot.Maker, error) {
	c, err := f.config(g)
	if err != nil {
		return nil, err
	}
	return bot.NewMaker(g, c, bot.LoadNets(g, stderr))
}

// bindGameFlag adds --game to the commands that play the games people
// can play.
func bindGameFlag(fs *pflag.FlagSet) *string {
	names := games.PlayableNames()
	return fs.String("game", names[0], "the game: "+strings.Join(names, " or "))
}

// playableGame returns the game called name if people can play it here.
func playableGame(name string) (engine.Game, error) {
	g, err := games.PlayableByName(name)
	if err != nil {
		return nil, fmt.Errorf("--game: %w", err)
	}
	return g, nil
}
