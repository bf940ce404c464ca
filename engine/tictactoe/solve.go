package tictactoe

import (
	"math/bits"
	"sync"
)

// solved caches the value for the mover of every position reached, keyed by
// the two mark masks.
var solved sync.Map // uint32 → int8

// Solve returns the game-theoretic value of s for each player (+1 win, 0
// draw, -1 loss under perfect play) and the mover's actions that achieve
// it, in increasing order. A finished game has no best actions.
func Solve(s *State) (values []float32, best []int) {
	if s.Over() {
		return s.Result(nil), nil
	}
	v := int8(-2)
	for _, a := range s.LegalActions(nil) {
		c := *s
		c.Play(a)
		switch w := -negamax(&c); {
		case w > v:
			v, best = w, append(best[:0], a)
		case w == v:
			best = append(best, a)
		}
	}
	values = make([]float32, 2)
	values[s.toMove], values[1-s.toMove] = float32(v), float32(-v)
	return values, best
}

// negamax returns the value of s for its mover.
func negamax(s *State) int8 {
	if s.winner != 0 {
		return -1 // the previous mover made a line
	}
	if s.Over() {
		return 0
	}
	key := uint32(s.marks[0]) | uint32(s.marks[1])<<16
	if v, ok := solved.Load(key); ok {
		return v.(int8)
	}
	v := int8(-1)
	for empty := full &^ (s.marks[0] | s.marks[1]); empty != 0 && v < 1; empty &= empty - 1 {
		c := *s
		c.Play(bits.TrailingZeros16(empty))
		v = max(v, -negamax(&c))
	}
	solved.Store(key, v)
	return v
}
