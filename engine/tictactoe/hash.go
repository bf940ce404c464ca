package tictactoe

import "trench/engine"

// zobrist[p][i] is the hash key of player p's mark on square i; zobristO is
// the key of O to move. They come from a fixed stream (engine.Keys).
var zobrist, zobristO = func() ([2][9]uint64, uint64) {
	next := engine.NewKeys(0x7269636b746163).Next
	var k [2][9]uint64
	for p := range k {
		for i := range k[p] {
			k[p][i] = next()
		}
	}
	return k, next()
}()
