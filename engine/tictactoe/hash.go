package tictactoe

// zobrist[p][i] is the hash key of player p's mark on square i; zobristO is
// the key of O to move. They come from a fixed splitmix64 sequence.
var zobrist, zobristO = func() ([2][9]uint64, uint64) {
	x := uint64(0x7269636b746163)
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	var k [2][9]uint64
	for p := range k {
		for i := range k[p] {
			k[p][i] = next()
		}
	}
	return k, next()
}()
