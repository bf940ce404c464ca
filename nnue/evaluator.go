package nnue

import (
	"math/bits"

	"trench/engine/trench"
)

// Evaluator evaluates the positions of one Trench search path with a
// net, keeping each ply's two accumulators (Black's, then White's) and
// deriving a child's from its parent's by the features the move changes,
// when the child is first evaluated. It has the methods of
// alphabeta.Evaluator. An Evaluator is not safe for concurrent use;
// several may share one Net, which they never change.
type Evaluator struct {
	path
	feats [MaxActive]int32
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
	return &Evaluator{path: pa}, nil
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
// and the old quiet bucket).
func (e *Evaluator) Push(ply int, parent, child *trench.Position, m trench.Move) {
	en := e.push(ply)
	us, them := parent.SideToMove(), parent.SideToMove().Other()
	from, to := int(m.From()), int(m.To())
	_, kind, _ := parent.PieceAt(m.From())
	captured := parent.Captured(m)
	for c := trench.Black; c <= trench.White; c++ {
		d := &en.d[c]
		add, sub := &d.added, &d.removed
		nAdd, nSub := 0, 0
		sub[nSub] = pieceFeature(c, us, kind, from)
		add[nAdd] = pieceFeature(c, us, kind, to)
		nSub++
		nAdd++
		if captured != 0 {
			for k := trench.Soldier; k <= trench.General; k++ {
				for bb := parent.Pieces(them, k) & captured; bb != 0; bb &= bb - 1 {
					sub[nSub] = pieceFeature(c, them, k, bits.TrailingZeros64(bb))
					nSub++
				}
			}
		}
		po, pt := scoreFeatures(parent.Score(c), parent.Score(c.Other()))
		co, ct := scoreFeatures(child.Score(c), child.Score(c.Other()))
		if po != co {
			sub[nSub], add[nAdd] = po, co
			nSub++
			nAdd++
		}
		if pt != ct {
			sub[nSub], add[nAdd] = pt, ct
			nSub++
			nAdd++
		}
		if pq, cq := quietFeature(parent.QuietPlies()), quietFeature(child.QuietPlies()); pq != cq {
			sub[nSub], add[nAdd] = pq, cq
			nSub++
			nAdd++
		}
		d.nAdd, d.nSub = uint8(nAdd), uint8(nSub)
	}
}

// Output is the net's output for p, the position at ply (set by SetRoot
// or Push): a logit, σ(y) the side to move's chance of winning.
func (e *Evaluator) Output(ply int, p *trench.Position) float32 {
	return e.value(ply, int(p.SideToMove()))
}

// Evaluate scores p, the position at ply (set by SetRoot or Push), for
// the side to move in centipoints: Centipoints of Output.
func (e *Evaluator) Evaluate(ply int, p *trench.Position) int {
	return Centipoints(e.Output(ply, p))
}
