package alphabeta

import "trench/engine/trench"

// Bounds stored with a transposition-table score.
const (
	boundExact uint8 = iota + 1
	boundLower       // the score is at least this (a beta cut-off)
	boundUpper       // the score is at most this (no move raised alpha)
)

// ttEntry is one slot of the transposition table.
type ttEntry struct {
	key   uint64
	score int32
	move  trench.Move
	depth int8
	bound uint8
}

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

// toTT and fromTT convert win scores between "from the root" and "from
// this node", so that a stored win keeps its distance wherever it is met.
func toTT(score, ply int) int32 {
	switch {
	case score > winBound:
		score += ply
	case score < -winBound:
		score -= ply
	}
	return int32(score)
}

func fromTT(score int32, ply int) int {
	s := int(score)
	switch {
	case s > winBound:
		s -= ply
	case s < -winBound:
		s += ply
	}
	return s
}

// probe returns the entry for key, if the table holds it.
func (e *Engine) probe(key uint64) (ttEntry, bool) {
	en := e.tt[key&e.ttMask]
	return en, en.key == key && en.bound != 0
}

// store writes an entry, replacing the slot's entry unless that one is
// of the same position and deeper.
func (e *Engine) store(key uint64, depth int, score int32, bound uint8, m trench.Move) {
	slot := &e.tt[key&e.ttMask]
	if slot.key == key && int(slot.depth) > depth && bound != boundExact {
		return
	}
	*slot = ttEntry{key: key, score: score, move: m, depth: int8(depth), bound: bound}
}
