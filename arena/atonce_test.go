package arena

import (
	"testing"

	"trench/players"
)

func TestPlanGames(t *testing.T) {
	net := &players.SharedNet{}
	timed := func(threads int) *players.Maker { return &players.Maker{Timed: true, Threads: threads, Net: net} }
	bySims := &players.Maker{Threads: 1, Net: net}
	classical := &players.Maker{}
	tests := []struct {
		name   string
		asked  int
		ps     []*players.Maker
		cores  int
		games  int
		reason string
	}{
		{"timed, default", 0, []*players.Maker{timed(1), {Timed: true}}, 2, 2, "2 games at once: time-limited players, 1 thread each, 2 cores"},
		{"timed, too many asked", 16, []*players.Maker{timed(1), bySims}, 2, 2, "2 games (not the 16 asked) at once: time-limited players, 1 thread each, 2 cores"},
		{"timed, fewer asked", 1, []*players.Maker{timed(1), timed(1)}, 2, 1, "1 game at once: as asked (time-limited players, 1 thread each, 2 cores allow 2)"},
		{"timed, two threads", 0, []*players.Maker{timed(2), classical}, 2, 1, "1 game at once: time-limited players, up to 2 threads a player, 2 cores"},
		{"timed, threads over cores", 0, []*players.Maker{timed(4), timed(4)}, 2, 1, "1 game at once: time-limited players, 4 threads each, 2 cores"},
		{"timed, many cores", 0, []*players.Maker{timed(2), timed(2)}, 16, 8, "8 games at once: time-limited players, 2 threads each, 16 cores"},
		{"timed, one core", 0, []*players.Maker{{Timed: true}, classical}, 1, 1, "1 game at once: time-limited players, 1 thread each, 1 core"},
		{"by simulations, nets", 0, []*players.Maker{bySims, classical}, 2, NetGamesAtOnce, "16 games at once: net players, their evaluations batched across games"},
		{"by simulations, asked", 5, []*players.Maker{bySims, bySims}, 2, 5, "5 games at once: as asked"},
		{"classical", 0, []*players.Maker{classical, classical}, 2, 2, "2 games at once: one per core, 2 cores"},
		{"no cores reported", 0, []*players.Maker{classical}, 0, 1, "1 game at once: one per core, 1 core"},
	}
	for _, tt := range tests {
		g := PlanGames(tt.asked, tt.ps, tt.cores)
		if g.Games != tt.games || g.String() != tt.reason {
			t.Errorf("%s: %d, %q; want %d, %q", tt.name, g.Games, g, tt.games, tt.reason)
		}
		if again := PlanGames(g.Games, tt.ps, tt.cores); again.Games != g.Games {
			t.Errorf("%s: planning %d again gives %d", tt.name, g.Games, again.Games)
		}
	}
}
