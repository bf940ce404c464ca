package trichess

import (
	"math/rand/v2"
	"testing"
)

// midgame returns a position after 45 random plies from the start.
func midgame(b *testing.B) *State {
	r := rand.New(rand.NewPCG(5, 6))
	s := Game.Start().(*State)
	for range 45 {
		actions := s.LegalActions(nil)
		if len(actions) == 0 {
			b.Fatal("the random game ended early")
		}
		s.Play(actions[r.IntN(len(actions))])
	}
	return s
}

func BenchmarkGenerateMovesStart(b *testing.B) {
	p := StartPosition()
	buf := make([]Move, 0, MaxMoves)
	for b.Loop() {
		buf = p.GenerateMoves(buf[:0])
	}
}

func BenchmarkGenerateMovesMidgame(b *testing.B) {
	p := midgame(b).Position
	buf := make([]Move, 0, MaxMoves)
	b.ResetTimer()
	for b.Loop() {
		buf = p.GenerateMoves(buf[:0])
	}
}

func BenchmarkPlay(b *testing.B) {
	p := midgame(b).Position
	moves := p.GenerateMoves(nil)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		c := p
		c.Play(moves[i%len(moves)])
		i++
	}
}

// BenchmarkStatePlay is what search does per node: clone, play, list the
// legal actions (which judges the end).
func BenchmarkStatePlay(b *testing.B) {
	s := midgame(b)
	actions := s.LegalActions(nil)
	dst := make([]int, 0, MaxMoves)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		c := s.Clone().(*State)
		c.Play(actions[i%len(actions)])
		dst = c.LegalActions(dst)
		i++
	}
}

func BenchmarkEncodeFeatures(b *testing.B) {
	s := midgame(b)
	dst := make([]float32, FeatureShape.Size())
	b.ResetTimer()
	for b.Loop() {
		s.EncodeFeatures(dst)
	}
}

func BenchmarkPerft4(b *testing.B) {
	p := StartPosition()
	for b.Loop() {
		Perft(&p, 4)
	}
}
