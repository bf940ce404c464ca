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
	"trench/internal/excerpt"
	"trench/players"
)

var arenaCommand = command{
	takesArgs: true,
	name:      "arena",
	summary:   "play matches between players and measure Elo",
	usage:     helpWith("arena", players.Usage()),
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
		challenge := fs.Bool("challenge", false, "a game of three or more seats with two players: the first sits in each seat in turn against copies of the second in the others (one game a seat per opening)")
		anchor := fs.String("anchor", "", "the player whose Elo is fixed in a round-robin's or multi-player game's table (default the first)")
		anchorElo := fs.Float64("anchor-elo", 0, "the anchored player's Elo")
		replay := fs.String("replay", "", "replay and check a game log (--record's file; more logs may follow as arguments) and tally its games as one match, instead of playing")
		quiet := fs.Bool("quiet", false, "no progress bar")
		return func(args []string, stdout, stderr io.Writer) error {
			if *replay != "" {
				return replayLogs(append([]string{*replay}, args...), *anchor, *anchorElo, stdout)
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("--game: %w", err)
			}
			for _, name := range []string{"elo0", "elo1", "alpha", "beta"} {
				if fs.Changed(name) && !*sprt {
					return usage("--%s is a setting of the SPRT: give --sprt too", name)
				}
			}
			setup := arena.Setup{Game: g, Players: args, Games: *nGames, OpeningsFile: *openings, OpeningPlies: *plies,
				Parallel: *parallel, Seed: *seed, Anchor: *anchor, Challenge: *challenge}
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
				cfg.Progress, finish = arena.ProgressBar(stderr, cfg.GameCount())
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

// replayLogs checks every game of the game logs and prints the match
// they make, the logs' runs pooled, with anchor's Elo fixed at
// anchorElo. Logs that are not one match's games (other players, a
// round-robin cut short) are checked but not tallied, and it says why.
func replayLogs(names []string, anchor string, anchorElo float64, stdout io.Writer) error {
	var tally arena.Tally
	total := 0
	for _, name := range names {
		n, err := replayLog(&tally, name)
		if err != nil {
			return err
		}
		total += n
	}
	fmt.Fprintf(stdout, "%d games replayed: every move legal, every result reproduced\n", total)
	res, err := tally.Result()
	if err != nil {
		fmt.Fprintf(stdout, "not tallied: %v\n", err)
		return nil
	}
	a := 0
	if anchor != "" {
		if a = arena.PlayerIndex(res.Names, anchor); a < 0 {
			return usage("--anchor %s is none of the logs' players (%s)", excerpt.Quote(anchor), strings.Join(arena.Labels(res.Names), ", "))
		}
	}
	arena.Print(stdout, res, a, anchorElo)
	return nil
}

// replayLog adds the games of the log at name to tally.
func replayLog(tally *arena.Tally, name string) (int, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, usage("--replay: %w", err)
	}
	defer f.Close()
	n, err := tally.Add(f, name)
	if err != nil {
		return 0, &exitError{1, fmt.Errorf("after %d good games: %w", n, err)}
	}
	return n, nil
}
