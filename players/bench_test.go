package players

import (
	"context"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// BenchmarkMCTSPlayer plays the first plies of a game with an mcts player
// in every seat, fresh players each game as the arena makes them, and
// reports the time per move: the search, its tree reuse and the player's
// own work around it.
func BenchmarkMCTSPlayer(b *testing.B) {
	const plies = 12
	for _, bc := range []struct {
		name string
		game engine.Game
		spec string
	}{
		{"trench default net 100 sims", trench.Game, "mcts:net=default,sims=100"},
		{"trichess no net 400 sims", trichess.Game, "mcts:net=none,sims=400"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l := NewLoader(bc.game)
			defer l.Close()
			m, err := l.Load(bc.spec)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			moves := 0
			for i := 0; b.Loop(); i++ {
				seats := make([]Player, bc.game.Players())
				for j := range seats {
					if seats[j], err = m.NewPlayer(uint64(i*len(seats) + j + 1)); err != nil {
						b.Fatal(err)
					}
				}
				s := bc.game.Start()
				for range plies {
					if s.Over() {
						break
					}
					a, err := seats[s.ToMove()].Move(ctx, s.Clone())
					if err != nil {
						b.Fatal(err)
					}
					s.Play(a)
					moves++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
		})
	}
}
