package alphabeta

import "trench/engine/trench"

// quietKeys make the table's key depend on the quiet-ply count, which the
// position's Zobrist hash leaves out but which decides draws.
var quietKeys [trench.QuietLimit + 1]uint64

func init() {
	state := uint64(0x616c706861626574)
	for i := range quietKeys {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		quietKeys[i] = z ^ z>>31
	}
}

// ttKey is the table key of p.
func ttKey(p *trench.Position) uint64 {
	q := p.QuietPlies()
	if q > trench.QuietLimit {
		q = trench.QuietLimit
	}
	return p.Hash() ^ quietKeys[q]
}
