package arena

import (
	"context"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// Print reports what each number of seats adds: for two, the meetings and
// a round-robin's Elo table with its margins; for more, the endings,
// points, pairwise table and the rating with its bootstrap intervals.
func TestPrint(t *testing.T) {
	for _, tc := range []struct {
		name   string
		game   engine.Game
		specs  []string
		groups int
		want   []string
		absent []string
	}{
		{"two seats", trench.Game, []string{"random", "greedy", "random"}, 2,
			[]string{
				"trench: 4 games per meeting, 3 meeting(s), openings 4 random plies, seed 3\n",
				"12 games in ",
				"\nrandom vs greedy: 4 games, 2 pairs\n",
				"\ngreedy vs random: 4 games, 2 pairs\n",
				"  pairs by random's points (0, ½, 1, 1½, 2): [",
				"\nElo by maximum likelihood (greedy fixed at 100; each meeting counts one virtual draw):\n",
				"  greedy                                    +100.0 ± 0.0  (8 games, score ",
			},
			[]string{"pairwise", "endings", "SPRT"}},
		{"three seats", trichess.Game, []string{"random", "greedy", "random"}, 2,
			[]string{
				"trichess: 3 players at 3 seats, 1 table of 12 games (2 openings × 6 seatings), openings 4 random plies, seed 3\n",
				"12 games in ",
				"\nendings: ",
				"  random#1     12  ",
				"\nlead: points a game above the mean of the others in the same game, 95% intervals per game and per opening group:\n",
				"  (random is given more than once: ",
				"\npairwise: the share of games the row finished ahead of the column (ties half)\n",
				"(greedy fixed at 100; each pair counts one virtual draw;\n",
				"  greedy    +100.0 (anchor)\n",
			},
			[]string{"meeting", " vs ", "SPRT"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Game: tc.game, Players: load(t, tc.game, tc.specs...), Groups: tc.groups, OpeningPlies: 4, Seed: 3}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			PrintPlan(&b, cfg, "")
			Print(&b, res, 1, 100)
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}
