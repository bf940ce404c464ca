package arena

import (
	"fmt"

	"trench/players"
)

// NetGamesAtOnce is the games played at once by default when a player has
// a net and none is limited by time: their evaluations are batched across
// games, so more games make fuller batches.
const NetGamesAtOnce = 16

// GamesAtOnce is how many games an arena plays at once, and why.
type GamesAtOnce struct {
	// Games is the number of games played at once.
	Games int
	// Asked is the number asked for, 0 for the default.
	Asked int
	// Reason says why, e.g. "time-limited players, 1 thread each, 2 cores".
	Reason string
}

// String reads e.g. "2 games at once: time-limited players, 1 thread
// each, 2 cores", with the number asked for when it was lowered.
func (g GamesAtOnce) String() string {
	games := fmt.Sprintf("%d games", g.Games)
	if g.Games == 1 {
		games = "1 game"
	}
	if g.Asked > g.Games {
		games += fmt.Sprintf(" (not the %d asked)", g.Asked)
	}
	return games + " at once: " + g.Reason
}

// PlanGames decides how many games to play at once with ps on cores
// cores, asked being the number asked for (0 for the default). A player
// given a time per move must have its cores to itself, or it searches
// less than the time it was given: with a time-limited player the games
// at once are at most cores divided by the threads of the busiest player
// (players of one game move in turn), and at least 1. Otherwise they are
// as asked, or by default NetGamesAtOnce when a player has a net, else
// one per core.
func PlanGames(asked int, ps []*players.Maker, cores int) GamesAtOnce {
	cores = max(1, cores)
	timed, nets := false, false
	most, least := 1, 0
	for _, p := range ps {
		t := max(1, p.Threads)
		most = max(most, t)
		if least == 0 || t < least {
			least = t
		}
		timed = timed || p.Timed
		nets = nets || p.Net != nil
	}
	g := GamesAtOnce{Asked: asked}
	switch {
	case timed:
		limit := max(1, cores/most)
		each := fmt.Sprintf("%s each", plural(most, "thread"))
		if least != most {
			each = fmt.Sprintf("up to %s a player", plural(most, "thread"))
		}
		g.Games, g.Reason = limit, fmt.Sprintf("time-limited players, %s, %s", each, plural(cores, "core"))
		if asked > 0 && asked <= limit {
			g.Games, g.Reason = asked, "as asked ("+g.Reason+" allow "+fmt.Sprint(limit)+")"
		}
	case asked > 0:
		g.Games, g.Reason = asked, "as asked"
	case nets:
		g.Games, g.Reason = NetGamesAtOnce, "net players, their evaluations batched across games"
	default:
		g.Games, g.Reason = cores, fmt.Sprintf("one per core, %s", plural(cores, "core"))
	}
	return g
}

// plural is n with its noun, e.g. "1 core", "2 cores".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
