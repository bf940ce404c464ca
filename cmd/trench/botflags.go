package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/engine"
	"trench/games"
)

// botFlags are the flags that choose the bot's net and strength, shared
// by play, serve and engine.
type botFlags struct {
	net     *string
	level   *int
	sims    *int
	time    *time.Duration
	threads *int
	guard   *float64
	endgame *float64
	fs      *pflag.FlagSet
}

// maxThreads bounds --threads.
const maxThreads = 256

// defaultThreads is --threads's default for play, serve and engine: one
// search goroutine per core, all sharing the tree.
var defaultThreads = min(runtime.NumCPU(), maxThreads)

func bindBotFlags(fs *pflag.FlagSet) *botFlags {
	return &botFlags{
		fs:      fs,
		net:     fs.String("net", bot.DefaultNet, `the net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in for the game)`),
		level:   fs.Int("level", bot.DefaultLevel, fmt.Sprintf("strength level 1..%d (simulations per move: %s)", bot.Levels, bot.LevelList())),
		sims:    fs.Int("sims", 0, "simulations per move (overrides --level)"),
		time:    fs.Duration("time", 0, "time per move, e.g. 2s (overrides --level; with --sims, whichever ends first)"),
		threads: fs.Int("threads", defaultThreads, "search threads sharing one tree; the default is this machine's core count"),
		guard:   bindGuardFlag(fs),
		endgame: bindEndgameFlag(fs),
	}
}

// bindGuardFlag adds --guard to the commands whose bot people play.
func bindGuardFlag(fs *pflag.FlagSet) *float64 {
	return fs.Float64("guard", bot.DefaultGuardShare, fmt.Sprintf("share of a time limit (0..0.5; or depth %d under simulations) in which the classical engine checks the bot's move and replaces one that loses by force; 0 turns the check off (games without a classical engine play without it)", bot.DefaultGuardDepth))
}

// checkGuardShare refuses a --guard outside 0..0.5.
func checkGuardShare(share float64) error {
	if !(share >= 0 && share <= 0.5) {
		return fmt.Errorf("--guard must be in 0..0.5, got %g", share)
	}
	return nil
}

// guardFor returns the guard --guard asks for in game g (classicalFor).
func guardFor(fs *pflag.FlagSet, share float64, g engine.Game) (*bot.Guard, error) {
	if err := checkGuardShare(share); err != nil {
		return nil, err
	}
	return classicalFor(fs, "guard", share, g, func() (*bot.Guard, error) {
		return bot.NewGuard(g, share, bot.DefaultGuardDepth)
	})
}

// classicalFor returns what build makes of the game's classical engine for
// the bot flag --flag: nil when its value is 0, or when game g has no
// classical engine and the flag was left at its default; build's error
// names the flag.
func classicalFor[T any](fs *pflag.FlagSet, flag string, value float64, g engine.Game, build func() (*T, error)) (*T, error) {
	if value == 0 || (games.ClassicalOf(g) == nil && !fs.Changed(flag)) {
		return nil, nil
	}
	x, err := build()
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flag, err)
	}
	return x, nil
}

// bindEndgameFlag adds --endgame to the commands whose bot people play.
func bindEndgameFlag(fs *pflag.FlagSet) *float64 {
	return fs.Float64("endgame", bot.DefaultEndgamePoints, fmt.Sprintf("score from which the classical engine chooses the bot's moves, with the whole time (or to depth %d under simulations), once either player has it; 0: the tree search chooses every move (games without a classical engine play without it)", bot.DefaultEndgameDepth))
}

// checkEndgamePoints refuses a negative --endgame.
func checkEndgamePoints(points float64) error {
	if !(points >= 0) {
		return fmt.Errorf("--endgame must be 0 or more, got %g", points)
	}
	return nil
}

// endgameFor returns the endgame --endgame asks for in game g
// (classicalFor).
func endgameFor(fs *pflag.FlagSet, points float64, g engine.Game) (*bot.Endgame, error) {
	if err := checkEndgamePoints(points); err != nil {
		return nil, err
	}
	return classicalFor(fs, "endgame", points, g, func() (*bot.Endgame, error) {
		return bot.NewEndgame(g, points, bot.DefaultEndgameDepth)
	})
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

// load makes a bot for g with the net the flags name (bot.Load): with
// bot.Fallback when the default net is asked for a game that has none.
func (f *botFlags) load(g engine.Game, stderr io.Writer) (*bot.Bot, error) {
	if *f.threads < 1 || *f.threads > maxThreads {
		return nil, fmt.Errorf("--threads must be in 1..%d, got %d", maxThreads, *f.threads)
	}
	guard, err := guardFor(f.fs, *f.guard, g)
	if err != nil {
		return nil, err
	}
	endgame, err := endgameFor(f.fs, *f.endgame, g)
	if err != nil {
		return nil, err
	}
	return bot.Load(g, *f.net, stderr, bot.Options{Threads: *f.threads, Guard: guard, Endgame: endgame})
}
