package nnue

import (
	"math/bits"

	"trench/engine/trench"
)

// Evaluator evaluates the positions of one Trench search path with a
// net, keeping each ply's two accumulators (Black's, then White's) and
// deriving a child's from its parent's by the features the move changes,
// when the child is first evaluated. It remembers the values of recent
// positions by their search keys, which decide the features. It has the
// methods of alphabeta.Evaluator. An Evaluator is not safe for
// concurrent use; several may share one Net, which they never change.
type Evaluator struct {
	path
	feats  [MaxActive]int32
	values valueTable
}

// valueSlots is the number of values an Evaluator remembers, a power of
// two: 256 KiB of them.
const valueSlots = 1 << 15

// valueTable remembers evaluations by search key, one in each of its slots
// (a power of two of them): the key's top 32 bits above the value's 32,
// in the slot of the key's low bits, the last one put there; 0 is empty.
// Keys that agree in those bits and in the top 32 share a value: with
// 2¹⁵ slots, one pair of positions in 2⁴⁷.
type valueTable []uint64

// get is the value put for key, if its slot still holds it.
func (v valueTable) get(key uint64) (int, bool) {
	x := v[key&uint64(len(v)-1)]
	if x == 0 || x>>32 != key>>32 {
		return 0, false
	}
	return int(int32(uint32(x))), true
}

// put remembers y, which fits 32 bits, for key.
func (v valueTable) put(key uint64, y int) {
	v[key&uint64(len(v)-1)] = key>>32<<32 | uint64(uint32(int32(y)))
}

// NewEvaluator returns an evaluator with net, which must not change
// while it is in use, or an error if it is not a Trench net, its sizes
// disagree, a weight is not finite or the weights are too large for its
// 16-bit accumulators.
func NewEvaluator(net *Net) (*Evaluator, error) {
	pa, err := newPath(net, Trench)
	if err != nil {
		return nil, err
	}
	return &Evaluator{path: pa, values: make(valueTable, valueSlots)}, nil
}

// SetRoot makes p the position at ply 0, computing its accumulators from
// scratch.
func (e *Evaluator) SetRoot(p *trench.Position) {
	e.grow(0)
	for c := trench.Black; c <= trench.White; c++ {
		e.refresh(0, int(c), Features(p, c, e.feats[:0]))
	}
	e.stack[0].ready = true
}

// Push makes child, parent (the position at ply) after the legal move
// m, the position at ply+1. Its accumulators are computed when it is
// first evaluated. In each perspective the move turns on at most 3
// features (the piece's new square, the mover's score and the quiet
// bucket) and off at most 8 (its old square, the pieces it takes, those
// on its route, at most a General's reach of 5, the mover's old score
// and the old quiet bucket). The pieces' features are listed from
// Black's side and turned for White's (whiteView).
func (e *Evaluator) Push(ply int, parent, child *trench.Position, m trench.Move) {
	en := e.push(ply)
	b, w := &en.d[trench.Black], &en.d[trench.White]
	us, them := parent.SideToMove(), parent.SideToMove().Other()
	_, kind, _ := parent.PieceAt(m.From())
	b.removed[0] = pieceFeature(trench.Black, us, kind, int(m.From()))
	b.added[0] = pieceFeature(trench.Black, us, kind, int(m.To()))
	w.removed[0], w.added[0] = whiteView(b.removed[0]), whiteView(b.added[0])
	nAdd, nSub := 1, 1
	if captured := parent.Captured(m); captured != 0 {
		for k := trench.Soldier; k <= trench.General; k++ {
			for bb := parent.Pieces(them, k) & captured; bb != 0; bb &= bb - 1 {
				f := pieceFeature(trench.Black, them, k, bits.TrailingZeros64(bb))
				b.removed[nSub], w.removed[nSub] = f, whiteView(f)
				nSub++
			}
		}
	}
	for c := trench.Black; c <= trench.White; c++ {
		// c's score is c's own score feature and the other side's
		// opponent's score feature.
		pOwn, pOpp := scoreFeatures(parent.Score(c), parent.Score(c))
		cOwn, cOpp := scoreFeatures(child.Score(c), child.Score(c))
		if pOwn != cOwn {
			own, opp := b, w
			if c == trench.White {
				own, opp = w, b
			}
			own.removed[nSub], own.added[nAdd] = pOwn, cOwn
			opp.removed[nSub], opp.added[nAdd] = pOpp, cOpp
			nSub++
			nAdd++
		}
	}
	if pq, cq := quietFeature(parent.QuietPlies()), quietFeature(child.QuietPlies()); pq != cq {
		b.removed[nSub], b.added[nAdd] = pq, cq
		w.removed[nSub], w.added[nAdd] = pq, cq
		nSub++
		nAdd++
	}
	b.nAdd, b.nSub = uint8(nAdd), uint8(nSub)
	w.nAdd, w.nSub = uint8(nAdd), uint8(nSub)
}

// Output is the net's output for p, the position at ply (set by SetRoot
// or Push): a logit, σ(y) the side to move's chance of winning.
func (e *Evaluator) Output(ply int, p *trench.Position) float32 {
	return e.value(ply, int(p.SideToMove()))
}

// Evaluate scores p, the position at ply (set by SetRoot or Push), for
// the side to move in centipoints: Centipoints of Output, or the value
// remembered for p's search key.
func (e *Evaluator) Evaluate(ply int, p *trench.Position) int {
	key := p.SearchKey()
	if y, ok := e.values.get(key); ok {
		return y
	}
	y := Centipoints(e.Output(ply, p))
	e.values.put(key, y)
	return y
}
