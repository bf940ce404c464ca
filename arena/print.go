package arena

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"trench/players"
)

// PrintPlan writes what a match will play, one line: the game, the
// players, tables and games, the openings (from openingsFile, or random)
// and the seed.
func PrintPlan(w io.Writer, cfg Config, openingsFile string) {
	openings := fmt.Sprintf("%d random plies", cfg.OpeningPlies)
	if openingsFile != "" {
		openings = fmt.Sprintf("%d positions from %s", len(cfg.Openings), openingsFile)
	}
	seats := cfg.Game.Players()
	seatings := Seatings(seats)
	tables := len(Combinations(len(cfg.Players), seats))
	if seats == 2 {
		fmt.Fprintf(w, "%s: %d games per meeting, %d meeting(s), openings %s, seed %d\n",
			cfg.Game.Name(), seatings*cfg.Groups, tables, openings, cfg.Seed)
		return
	}
	if cfg.Challenge {
		fmt.Fprintf(w, "%s: %s in each of %d seats in turn against copies of %s, %d games (%s × %d seats), openings %s, seed %d\n",
			cfg.Game.Name(), cfg.Players[0].Name, seats, cfg.Players[1].Name, cfg.GameCount(), plural(cfg.Groups, "opening"), seats, openings, cfg.Seed)
		return
	}
	fmt.Fprintf(w, "%s: %d players at %d seats, %s of %d games (%s × %d seatings), openings %s, seed %d\n",
		cfg.Game.Name(), len(cfg.Players), seats, plural(tables, "table"), cfg.Groups*seatings, plural(cfg.Groups, "opening"), seatings, openings, cfg.Seed)
}

// Print writes a match's result: for two seats each meeting's tally, the
// SPRT and, with more than two players, the Elo table; for more seats
// the endings, each player's points and titles, the pairwise table and
// the Elo table. The Elo table has player anchor fixed at anchorElo.
func Print(w io.Writer, res *Result, anchor int, anchorElo float64) {
	if res.Elapsed > 0 {
		fmt.Fprintf(w, "%d games in %s\n", len(res.Outcomes), res.Elapsed.Round(time.Second))
	} else {
		fmt.Fprintf(w, "%d games\n", len(res.Outcomes)) // tallied from logs, which keep no time
	}
	if res.Seats == 2 {
		printPairs(w, res, anchor, anchorElo)
		return
	}
	if len(res.Outcomes) == 0 {
		return
	}
	printPoints(w, res, anchor, anchorElo)
	if res.LeadTest != nil {
		fmt.Fprintf(w, "\nlead test %s\n", res.LeadTest)
	}
}

// printPairs writes the meetings of a game of two seats.
func printPairs(w io.Writer, res *Result, anchor int, anchorElo float64) {
	for _, m := range res.Meetings {
		a, b := res.Names[m.A], res.Names[m.B]
		fmt.Fprintf(w, "\n%s vs %s: %d games, %d pairs\n", a, b, m.Games(), m.Pairs())
		fmt.Fprintf(w, "  %s: %d wins, %d draws, %d losses, score %.1f%%\n", a, m.Wins, m.Draws, m.Losses, 100*m.Score())
		if n := float64(m.Games()); n > 0 {
			fmt.Fprintf(w, "  points captured per game: %s %.2f, %s %.2f\n", a, m.PointsA/n, b, m.PointsB/n)
		}
		fmt.Fprintf(w, "  Elo %s per game, %s per pair\n", m.Elo(), m.PairElo())
		fmt.Fprintf(w, "  pairs by %s's points (0, ½, 1, 1½, 2): %v\n", a, m.PairScores)
	}
	if res.SPRT != nil {
		fmt.Fprintf(w, "\nSPRT %s\n", res.SPRT)
	}
	if len(res.Names) <= 2 {
		return
	}
	table, err := res.Ratings(anchor, anchorElo)
	if err != nil {
		fmt.Fprintf(w, "\nno Elo table: %v\n", err)
		return
	}
	fmt.Fprintf(w, "\nElo by maximum likelihood (%s fixed at %g; each meeting counts one virtual draw):\n", res.Names[anchor], anchorElo)
	for _, r := range table {
		fmt.Fprintf(w, "  %-40s %+7.1f ± %.1f  (%d games, score %.1f%%)\n", r.Name, r.Elo, (r.High-r.Low)/2, r.Games, 100*r.Score)
	}
}

// printPoints writes the points, titles, pairwise table and rating of a
// game of more than two seats.
func printPoints(w io.Writer, res *Result, anchor int, anchorElo float64) {
	labels := Labels(res.Names)
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
		fmt.Fprintf(w, "  %-*s %6d  %-22s %-22s", width, l, perGame.N, perGame, intervalText(perGroup, "%.2f"))
		mine := res.Titles(p)
		for i, t := range titles {
			fmt.Fprintf(w, " %*d", max(len(t.Name), 5), mine[i].N)
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\nlead: points a game above the mean of the others in the same game, 95%% intervals per game and per opening group:\n")
	fmt.Fprintf(w, "  %-*s %-22s %s\n", width, "player", "per game", "per group")
	for p, l := range labels {
		perGame, perGroup := res.Lead(p)
		fmt.Fprintf(w, "  %-*s %-22s %s\n", width, l, perGame.format("%+.2f"), intervalText(perGroup, "%+.2f"))
	}
	if twice := seatedTwice(res.Names); twice != "" {
		fmt.Fprintf(w, "  (%s is given more than once: where its copies share a table and it plays deterministically, seatings that swap them replay the same game, so quote the per-group intervals)\n", twice)
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
// (the per-game column shows it), each bound printed with verb (e.g.
// "%.2f", or "%+.2f" for a lead).
func intervalText(e Estimate, verb string) string {
	switch {
	case e.N == 0:
		return "-"
	case math.IsInf(e.Low, 0):
		return fmt.Sprintf("no interval (%d group)", e.N)
	}
	return fmt.Sprintf("["+verb+", "+verb+"]", e.Low, e.High)
}

// PrintNets writes how well each net's evaluations were batched, one
// line a net the players share.
func PrintNets(w io.Writer, makers []*players.Maker) {
	seen := map[*players.SharedNet]bool{}
	for _, m := range makers {
		if m.Net == nil || seen[m.Net] {
			continue
		}
		seen[m.Net] = true
		_, batches, states := m.Net.Eval.Stats()
		if batches > 0 {
			fmt.Fprintf(w, "net %s: %d positions in %d batches (mean %.1f)\n", m.Net.Net, states, batches, float64(states)/float64(batches))
		}
	}
}

// seatedTwice is the first player name given more than once, or "".
func seatedTwice(names []string) string {
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return n
		}
	}
	return ""
}
