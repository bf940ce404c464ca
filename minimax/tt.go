package minimax

// Bounds stored with a transposition-table score.
const (
	boundExact uint8 = iota + 1
	boundLower       // the score is at least this (a beta cut-off)
	boundUpper       // the score is at most this (no move raised alpha)
)

// entry is one slot of the transposition table. A depth of 0 is a leaf's
// value, with no move.
type entry struct {
	key    uint64
	score  int32
	action int32
	depth  int8
	bound  uint8
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
func (s *Searcher) probe(key uint64) (entry, bool) {
	en := s.tt[key&s.ttMask]
	return en, en.key == key && en.bound != 0
}

// store writes an entry, replacing the slot's entry unless that one is of
// the same position and deeper, and the new one is a bound or a leaf's
// value (which would lose the deeper entry's move).
func (s *Searcher) store(key uint64, depth int, score int32, bound uint8, action int) {
	slot := &s.tt[key&s.ttMask]
	if slot.key == key && int(slot.depth) > depth && (bound != boundExact || depth == 0) {
		return
	}
	*slot = entry{key: key, score: score, action: int32(action), depth: int8(depth), bound: bound}
}
