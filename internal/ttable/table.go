// Package ttable is the transposition table of the depth-first
// alpha-beta searches (package alphabeta and package minimax), with
// scores of wins that keep their distance wherever they are met.
package ttable

// Bound says what a stored score is.
type Bound uint8

// The bounds of a stored score; the zero Bound marks an empty slot.
const (
	Exact Bound = iota + 1 // the score is the node's value
	Lower                  // the score is at least this (a beta cut-off)
	Upper                  // the score is at most this (no move raised alpha)
)

// Entry is one slot of a transposition table: a position's key, its score
// from the node (see ToTable), the best move found, the depth searched (0
// for a leaf's value) and the bound. M is the search's move type.
type Entry[M any] struct {
	Key   uint64
	Score int32
	Move  M
	Depth int8
	Bound Bound
}

// Table is a transposition table of 2^bits slots, each position in the
// slot its key's low bits choose.
type Table[M any] struct {
	slots []Entry[M]
	mask  uint64
}

// NewTable returns an empty table of 2^bits slots.
func NewTable[M any](bits int) *Table[M] {
	n := 1 << bits
	return &Table[M]{slots: make([]Entry[M], n), mask: uint64(n - 1)}
}

// Clear empties the table.
func (t *Table[M]) Clear() { clear(t.slots) }

// Probe returns the entry for key, if the table holds it.
func (t *Table[M]) Probe(key uint64) (Entry[M], bool) {
	en := t.slots[key&t.mask]
	return en, en.Key == key && en.Bound != 0
}

// Store writes an entry, replacing the slot's entry unless that one is of
// the same position and deeper, and the new one is a bound or a leaf's
// value (which would lose the deeper entry's move).
func (t *Table[M]) Store(key uint64, depth int, score int32, bound Bound, move M) {
	slot := &t.slots[key&t.mask]
	if slot.Key == key && int(slot.Depth) > depth && (bound != Exact || depth == 0) {
		return
	}
	*slot = Entry[M]{Key: key, Score: score, Move: move, Depth: int8(depth), Bound: bound}
}

// Cuts reports whether the entry's score s (from this node, FromTable)
// decides the node searched within alpha and beta: an exact score, or a
// bound beyond the window.
func (e Entry[M]) Cuts(s, alpha, beta int) bool {
	return e.Bound == Exact || e.Bound == Lower && s >= beta || e.Bound == Upper && s <= alpha
}

// ToTable and FromTable convert scores between "from the root" and "from
// this node", ply plies below the root, so that a stored win (a score
// beyond ±winBound, nearer wins higher) keeps its distance wherever it is
// met.
func ToTable(score, ply, winBound int) int32 {
	switch {
	case score > winBound:
		score += ply
	case score < -winBound:
		score -= ply
	}
	return int32(score)
}

// FromTable is the inverse of ToTable.
func FromTable(score int32, ply, winBound int) int {
	s := int(score)
	switch {
	case s > winBound:
		s -= ply
	case s < -winBound:
		s += ply
	}
	return s
}
