package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"trench/arena"
	"trench/games"
	"trench/players"
)

var arenaCommand = command{
	takesArgs: true,
	name:      "arena",
	summary:   "play matches between players and measure Elo",
	usage: `Usage:
  trench arena [flags] PLAYER PLAYER [PLAYER...]
  trench arena --replay FILE

Plays --games games between two players, or between every two of several
(a round-robin), in pairs: each opening is played twice with the colours
swapped. Games of three or more players (--game trichess) are described
below. Openings are --opening-plies random plies from the start, or the
positions of --openings FILE (one position string a line, # comments).
Random openings are often decided before the players meet; for players
far apart, "trench openings" draws a book of openings alphabeta rates level.
Games run --parallel at a time; net players share batched evaluation.
With a player limited by time per move, at most as many games run at
once as there are cores for its threads (an mcts player's threads=N, 1
by default), so that each gets the time it was given; the output says
how many games ran at once and why.

Reports each meeting's wins/draws/losses, score, points captured and the
Elo difference with a 95% interval, per game (trinomial) and per pair
(pentanomial); with --sprt, a sequential test of elo0 against elo1 that
stops as soon as it decides; for a round-robin of three or more, an Elo table by
maximum likelihood with --anchor fixed at --anchor-elo. Every game goes
to --record as a JSON line; --replay checks such a file: every move legal
and every recorded result reproduced.

With a game of k > 2 players, each opening is played once in every seating
(all k! permutations of the players over the seats: 6 games for Trichess),
--games rounded up to whole groups of k!. With more players than seats,
every k of them form a table that plays --games games. Reports each
player's mean points per game with 95% intervals (per game, and per
opening group), the titles each got, how the games ended, the pairwise
score table (the share of games each finished ahead of each other, ties
half) and an Elo fitted to it by maximum likelihood, with 95% intervals
from a bootstrap over opening groups. The SPRT flags are refused.

` + players.Usage() + `
Examples:
  trench arena --games 100 alphabeta:depth=2 greedy
  trench arena --games 200 mcts:net=runs/a,sims=100 alphabeta:time=200ms
  trench arena --sprt --elo0 0 --elo1 20 --games 2000 policy:net=runs/a policy:net=runs/a/checkpoints/ckpt-000100.tnet
  trench arena --games 40 random greedy alphabeta:depth=1 alphabeta:depth=2 --anchor random
  trench arena --openings openings.txt --record games.jsonl alphabeta:depth=3 alphabeta:depth=2
  trench arena --replay games.jsonl
  trench arena --game trichess --games 60 greedy random random
  trench arena --game trichess --games 120 mcts:net=runs/tri,sims=50 policy:net=runs/tri greedy random
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Names()[0], "the game: "+strings.Join(games.Names(), ", "))
		nGames := fs.Int("games", 100, "games per meeting of two players (rounded up to whole pairs), or per table of a game of more players (rounded up to whole seating groups)")
		openings := fs.String("openings", "", "a file of opening positions, one a line")
		plies := fs.Int("opening-plies", 8, "random plies from the start for each pair's opening (without --openings)")
		parallel := fs.Int("parallel", 0, "games played at once (default: the number of cores, 16 with net players; with a time-limited player at most the cores divided by its threads)")
		seed := fs.Uint64("seed", 0, "seed of the openings and players (default: from the clock, printed)")
		record := fs.String("record", "arena.jsonl", `append every game to this file, one JSON line each ("" for none)`)
		sprt := fs.Bool("sprt", false, "run an SPRT of elo0 against elo1 (two players), stopping when it decides")
		elo0 := fs.Float64("elo0", 0, "the SPRT's H0 Elo difference")
		elo1 := fs.Float64("elo1", 10, "the SPRT's H1 Elo difference")
		alpha := fs.Float64("alpha", 0.05, "the SPRT's false-positive rate")
		beta := fs.Float64("beta", 0.05, "the SPRT's false-negative rate")
		anchor := fs.String("anchor", "", "the player whose Elo is fixed in a round-robin's or multi-player game's table (default the first)")
		anchorElo := fs.Float64("anchor-elo", 0, "the anchored player's Elo")
		replay := fs.String("replay", "", "replay and check a game log (--record's file) instead of playing")
		quiet := fs.Bool("quiet", false, "no progress bar")
		return func(args []string, stdout, stderr io.Writer) error {
			if *replay != "" {
				if len(args) > 0 {
					return usage("--replay takes no players")
				}
				return replayLog(*replay, stdout)
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("--game: %w", err)
			}
			if g.Players() > 2 {
				for _, name := range []string{"sprt", "elo0", "elo1", "alpha", "beta"} {
					if fs.Changed(name) {
						return usage("--%s: %s has %d players; the SPRT compares two players in games of two", name, g.Name(), g.Players())
					}
				}
			}
			setup := arena.Setup{Game: g, Players: args, Games: *nGames, OpeningsFile: *openings, OpeningPlies: *plies,
				Parallel: *parallel, Seed: *seed, Anchor: *anchor}
			if !fs.Changed("seed") {
				setup.Seed = uint64(time.Now().UnixNano())
			}
			if *sprt {
				setup.SPRT = &arena.SPRT{Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta}
			}
			loader := players.NewLoader(g)
			loader.Warnings = stderr
			defer loader.Close()
			cfg, anchorIdx, err := setup.Load(loader)
			if err != nil {
				return usage("%w", err)
			}
			atOnce := arena.PlanGames(cfg.Parallel, cfg.Players, runtime.GOMAXPROCS(0))
			cfg.Parallel = atOnce.Games
			if *record != "" {
				f, err := openLog(*record)
				if err != nil {
					return err
				}
				defer f.Close()
				cfg.Log = f
			}
			arena.PrintPlan(stdout, cfg, *openings)
			fmt.Fprintln(stdout, atOnce)
			finish := func() {}
			if !*quiet {
				cfg.Progress, finish = arena.ProgressBar(stderr, arena.Games(len(args), g.Players(), cfg.Groups))
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			res, err := arena.Run(ctx, cfg)
			finish()
			if res != nil {
				arena.Print(stdout, res, anchorIdx, *anchorElo)
				arena.PrintNets(stdout, cfg.Players)
			}
			if err != nil {
				return err
			}
			if *record != "" {
				fmt.Fprintf(stdout, "games appended to %s\n", *record)
			}
			return nil
		}
	},
}

// openLog opens the --record game log for appending, which keeps the
// games of earlier runs.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, usage("--record: %w", err)
	}
	return f, nil
}

// replayLog checks every game of a game log.
func replayLog(name string, stdout io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return usage("--replay: %w", err)
	}
	defer f.Close()
	n, err := arena.Replay(f, name)
	if err != nil {
		return &exitError{1, fmt.Errorf("after %d good games: %w", n, err)}
	}
	fmt.Fprintf(stdout, "%d games replayed: every move legal, every result reproduced\n", n)
	return nil
}
