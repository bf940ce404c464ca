package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"trench/arena"
	"trench/engine"
	"trench/excerpt"
	"trench/players"
)

// multiArena is a trench arena run of a game of three or more players.
type multiArena struct {
	game                     engine.Game
	specs                    []string
	games, plies, parallel   int
	openings, record, anchor string
	seed                     uint64
	anchorElo                float64
	quiet                    bool
}

// runMultiArena checks the arguments, loads the players, plays the games
// and reports them.
func runMultiArena(a multiArena, stdout, stderr io.Writer) error {
	g := a.game
	seats := g.Players()
	switch {
	case len(a.specs) < seats:
		return &exitError{2, fmt.Errorf("%s needs at least %d players, got %d (run \"trench arena --help\")", g.Name(), seats, len(a.specs))}
	case a.games < 1:
		return &exitError{2, fmt.Errorf("--games must be 1 or more, got %d", a.games)}
	case a.plies < 0:
		return &exitError{2, fmt.Errorf("--opening-plies must not be negative, got %d", a.plies)}
	case a.parallel < 0 || a.parallel > 1024:
		return &exitError{2, fmt.Errorf("--parallel must be in 0..1024, got %d", a.parallel)}
	}
	seatings := len(arena.Permutations(seats))
	cfg := arena.MultiConfig{Game: g, Groups: (a.games + seatings - 1) / seatings, OpeningPlies: a.plies, Parallel: a.parallel, Seed: a.seed}
	labels := arena.Labels(a.specs)
	anchor := 0
	if a.anchor != "" {
		anchor = -1
		for i := range a.specs {
			if labels[i] == a.anchor || anchor < 0 && a.specs[i] == a.anchor {
				anchor = i
			}
		}
		if anchor < 0 {
			return &exitError{2, fmt.Errorf("--anchor %s is none of the players (%s)", excerpt.Quote(a.anchor), strings.Join(labels, ", "))}
		}
	}
	if a.openings != "" {
		f, err := os.Open(a.openings)
		if err != nil {
			return &exitError{2, fmt.Errorf("--openings: %w", err)}
		}
		cfg.Openings, err = arena.ReadOpenings(f, a.openings, g)
		f.Close()
		if err != nil {
			return &exitError{2, fmt.Errorf("--openings: %w", err)}
		}
	}
	loader := players.NewLoader(g)
	loader.Warnings = stderr
	defer loader.Close()
	for _, spec := range a.specs {
		m, err := loader.Load(spec)
		if err != nil {
			return &exitError{2, err}
		}
		cfg.Players = append(cfg.Players, m)
	}
	atOnce := arena.PlanGames(cfg.Parallel, cfg.Players, runtime.GOMAXPROCS(0))
	cfg.Parallel = atOnce.Games
	total := arena.MultiGames(len(a.specs), seats, cfg.Groups)
	if total > arena.MaxMultiGames {
		return &exitError{2, fmt.Errorf("%d players at %d seats with --games %d make too many games", len(a.specs), seats, a.games)}
	}
	if a.record != "" {
		f, err := openRecords(a.record)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.Records = f
	}
	tables := total / (cfg.Groups * seatings)
	fmt.Fprintf(stdout, "%s: %d players at %d seats, %s of %d games (%s × %d seatings), openings %s, seed %d\n",
		g.Name(), len(a.specs), seats, plural(tables, "table"), cfg.Groups*seatings, plural(cfg.Groups, "opening"), seatings, multiOpeningText(cfg, a.openings), cfg.Seed)
	fmt.Fprintln(stdout, atOnce)
	var finish func()
	cfg.Progress, finish = gamesBar(stderr, total, a.quiet)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	res, err := arena.RunMulti(ctx, cfg)
	finish()
	if res != nil {
		printMultiArena(stdout, res, anchor, a.anchorElo, time.Since(start))
		printNets(stdout, cfg.Players)
	}
	if err != nil {
		return err
	}
	if a.record != "" {
		fmt.Fprintf(stdout, "games appended to %s\n", a.record)
	}
	return nil
}

func multiOpeningText(cfg arena.MultiConfig, file string) string {
	if file != "" {
		return fmt.Sprintf("%d positions from %s", len(cfg.Openings), file)
	}
	return fmt.Sprintf("%d random plies", cfg.OpeningPlies)
}

// printMultiArena reports a multi-player match: points, titles, endings,
// the pairwise table and the rating.
func printMultiArena(w io.Writer, res *arena.MultiResult, anchor int, anchorElo float64, elapsed time.Duration) {
	fmt.Fprintf(w, "%d games in %s\n", len(res.Outcomes), elapsed.Round(time.Second))
	if len(res.Outcomes) == 0 {
		return
	}
	labels := arena.Labels(res.Names)
	width := len("player")
	for _, l := range labels {
		width = max(width, len(l))
	}
	fmt.Fprintf(w, "\nendings:")
	for i, c := range res.Endings() {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %d", sep, c.Name, c.N)
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "\npoints per game, 95%% intervals per game and per opening group:\n")
	fmt.Fprintf(w, "  %-*s %6s  %-22s %-22s", width, "player", "games", "per game", "per group")
	titles := res.Titles(-1)
	for _, t := range titles {
		fmt.Fprintf(w, " %*s", max(len(t.Name), 5), t.Name)
	}
	fmt.Fprintln(w)
	for p, l := range labels {
		perGame, perGroup := res.Points(p)
		fmt.Fprintf(w, "  %-*s %6d  %-22s %-22s", width, l, perGame.N, perGame, intervalText(perGroup))
		mine := res.Titles(p)
		for i, t := range titles {
			fmt.Fprintf(w, " %*d", max(len(t.Name), 5), mine[i].N)
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\npairwise: the share of games the row finished ahead of the column (ties half)\n")
	fmt.Fprintf(w, "  %-*s", width, "")
	for _, l := range labels {
		fmt.Fprintf(w, " %*s", max(len(l), 6), l)
	}
	fmt.Fprintln(w)
	pw := res.Pairwise()
	for a, l := range labels {
		fmt.Fprintf(w, "  %-*s", width, l)
		for b, lb := range labels {
			cell := "-"
			if a != b && pw[a][b].Games > 0 {
				cell = fmt.Sprintf("%.1f%%", 100*pw[a][b].Score)
			}
			fmt.Fprintf(w, " %*s", max(len(lb), 6), cell)
		}
		fmt.Fprintln(w)
	}

	ratings, err := res.Ratings(anchor, anchorElo)
	if err != nil {
		fmt.Fprintf(w, "\nno rating: %v\n", err)
		return
	}
	fmt.Fprintf(w, "\nElo by maximum likelihood on the pairwise results (%s fixed at %g; each pair counts one virtual draw;\n95%% intervals by bootstrap over opening groups):\n", labels[anchor], anchorElo)
	for i, r := range ratings {
		interval := "[no interval: one opening group per table]"
		switch {
		case i == anchor:
			interval = "(anchor)"
		case !math.IsInf(r.Low, 0) && !math.IsInf(r.High, 0):
			interval = fmt.Sprintf("[%+.1f, %+.1f]", r.Low, r.High)
		}
		fmt.Fprintf(w, "  %-*s %+7.1f %s\n", width, labels[i], r.Elo, interval)
	}
}

// intervalText is a per-group estimate's interval, without its mean
// (the per-game column shows it).
func intervalText(e arena.Estimate) string {
	switch {
	case e.N == 0:
		return "-"
	case math.IsInf(e.Low, 0):
		return fmt.Sprintf("no interval (%d group)", e.N)
	}
	return fmt.Sprintf("[%.2f, %.2f]", e.Low, e.High)
}

// plural is "1 table" or "n tables".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
