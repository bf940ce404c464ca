package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/engine/trench"
)

// botFlags are the flags that choose the engine's net and strength, shared
// by play, serve and engine.
type botFlags struct {
	net     *string
	level   *int
	sims    *int
	time    *time.Duration
	threads *int
	fs      *pflag.FlagSet
}

func bindBotFlags(fs *pflag.FlagSet) *botFlags {
	return &botFlags{
		fs:      fs,
		net:     fs.String("net", bot.DefaultNet, `the net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in)`),
		level:   fs.Int("level", bot.DefaultLevel, fmt.Sprintf("strength level 1..%d (simulations per move: %s)", bot.Levels, levelList())),
		sims:    fs.Int("sims", 0, "simulations per move (overrides --level)"),
		time:    fs.Duration("time", 0, "time per move, e.g. 2s (overrides --level; with --sims, whichever ends first)"),
		threads: fs.Int("threads", 1, "search threads"),
	}
}

// levelList describes the levels, e.g. "1=1, 2=8, ...".
func levelList() string {
	s := ""
	for n := 1; n <= bot.Levels; n++ {
		l, _ := bot.Level(n)
		if n > 1 {
			s += ", "
		}
		s += fmt.Sprintf("%d=%d", n, l.Sims)
	}
	return s
}

// limits returns the search limits the flags ask for.
func (f *botFlags) limits() (bot.Limits, error) {
	if f.fs.Changed("sims") || f.fs.Changed("time") {
		if f.fs.Changed("level") {
			return bot.Limits{}, fmt.Errorf("give --level or --sims/--time, not both")
		}
		l := bot.Limits{Sims: *f.sims, Time: *f.time}
		return l, l.Validate()
	}
	return bot.Level(*f.level)
}

// load loads the net and makes a bot.
func (f *botFlags) load() (*bot.Net, *bot.Bot, error) {
	if *f.threads < 1 || *f.threads > 256 {
		return nil, nil, fmt.Errorf("--threads must be in 1..256, got %d", *f.threads)
	}
	net, err := bot.LoadNet(trench.Game, *f.net)
	if err != nil {
		return nil, nil, err
	}
	b, err := bot.New(trench.Game, net, bot.Options{Threads: *f.threads})
	if err != nil {
		return nil, nil, err
	}
	return net, b, nil
}

// evalText describes an analysis for people, from player's side:
// "W 48% D 9% L 43%, expected +1.2 points".
func evalText(a *bot.Analysis, player int) string {
	w, d, l, diff := a.For(player)
	return fmt.Sprintf("W %.0f%% D %.0f%% L %.0f%%, expected %+.1f points", 100*w, 100*d, 100*l, diff)
}
