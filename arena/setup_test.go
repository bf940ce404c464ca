package arena

import (
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/players"
)

// TestSetupLoad checks a match's setup: the groups, the anchor and the
// players loaded, and every setting refused with its flag named.
func TestSetupLoad(t *testing.T) {
	ok := Setup{Game: trench.Game, Players: []string{"random", "greedy"}, Games: 3, OpeningPlies: 2, Anchor: "greedy"}
	loader := players.NewLoader(trench.Game)
	defer loader.Close()
	cfg, anchor, err := ok.Load(loader)
	if err != nil || cfg.Groups != 2 || anchor != 1 || len(cfg.Players) != 2 {
		t.Fatalf("Load: %d groups, anchor %d, %d players, %v", cfg.Groups, anchor, len(cfg.Players), err)
	}
	with := func(f func(*Setup)) Setup { s := ok; f(&s); return s }
	for _, tc := range []struct {
		name string
		s    Setup
		want string
	}{
		{"one player", with(func(s *Setup) { s.Players = s.Players[:1] }), "needs at least 2 players"},
		{"no games", with(func(s *Setup) { s.Games = 0 }), "--games must be 1 or more"},
		{"plies", with(func(s *Setup) { s.OpeningPlies = -1 }), "--opening-plies must not be negative"},
		{"parallel", with(func(s *Setup) { s.Parallel = MaxParallel + 1 }), "--parallel must be in 0..1024"},
		{"anchor", with(func(s *Setup) { s.Anchor = "nobody" }), `--anchor "nobody" is none of the players`},
		{"sprt players", with(func(s *Setup) {
			s.Players, s.SPRT = []string{"random", "greedy", "random"}, &SPRT{Elo1: 10, Alpha: 0.05, Beta: 0.05}
		}), "--sprt needs exactly two players"},
		{"openings", with(func(s *Setup) { s.OpeningsFile = "/no/such/book.txt" }), "--openings: "},
		{"a spec", with(func(s *Setup) { s.Players = []string{"greedy", "nosuch"} }), `unknown kind "nosuch"`},
	} {
		if _, _, err := tc.s.Load(loader); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	tri := Setup{Game: trichess.Game, Players: []string{"random", "random", "greedy"}, Games: 7}
	tl := players.NewLoader(trichess.Game)
	defer tl.Close()
	if cfg, _, err := tri.Load(tl); err != nil || cfg.Groups != 2 {
		t.Errorf("Trichess: %d groups (%v), want 2 groups of 6 seatings", cfg.Groups, err)
	}
}
