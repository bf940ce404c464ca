package arena

import (
	"context"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// BenchmarkRun measures the arena's own cost around the games: random
// players, whose moves cost little, one game at a time.
func BenchmarkRun(b *testing.B) {
	for _, bc := range []struct {
		name   string
		game   engine.Game
		specs  []string
		groups int
	}{
		{"two-seats", trench.Game, []string{"random", "random"}, 32},
		{"three-seats", trichess.Game, []string{"random", "random", "random"}, 8},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ps := load(b, bc.game, bc.specs...)
			games := 0
			for b.Loop() {
				res, err := Run(context.Background(), Config{Game: bc.game, Players: ps, Groups: bc.groups, OpeningPlies: 8, Parallel: 1, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				games += len(res.Outcomes)
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
