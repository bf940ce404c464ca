package nnue

import (
	"math/bits"

	"trench/engine/trichess"
)

// TrichessEvaluator evaluates the positions of one Trichess search path
// with a Trichess net, as Evaluator does Trench's: three accumulators a
// ply, one a seat (White's, Red's, Black's), each child's derived from
// its parent's by the features the move changes when it is first
// evaluated. Seat s's value reads s's accumulator with the first H
// output weights, the next seat's with the next H, the previous seat's
// with the last H. A TrichessEvaluator is not safe for concurrent use;
// several may share one Net, which they never change.
type TrichessEvaluator struct {
	path
	feats [TrichessMaxActive]int32
}

// NewTrichessEvaluator returns an evaluator with net, which must not
// change while it is in use, or an error if it is not a Trichess net,
// its sizes disagree, a weight is not finite or the weights are too
// large for its 16-bit accumulators.
func NewTrichessEvaluator(net *Net) (*TrichessEvaluator, error) {
	pa, err := newPath(net, Trichess)
	if err != nil {
		return nil, err
	}
	return &TrichessEvaluator{path: pa}, nil
}

// SetRoot makes p the position at ply 0, computing its accumulators from
// scratch.
func (e *TrichessEvaluator) SetRoot(p *trichess.Position) {
	e.grow(0)
	for c := trichess.White; c <= trichess.Black; c++ {
		e.refresh(0, int(c), TrichessFeatures(p, c, e.feats[:0]))
	}
	e.stack[0].ready = true
}

// Push makes child, parent (the position at ply) after the legal move
// m, the position at ply+1. Its accumulators are computed when it is
// first evaluated. In each perspective the move turns off the piece on
// its from-square, the piece it captures or the rook it castles with,
// and turns on the piece on its to-square (a freed piece after a
// liberation) and the castled rook; the counters that change (the
// materials of the mover and of the player it captures, the protections
// those change, the castling rights it loses, the quiet bucket, the
// player to move) turn off their old features and on their new ones: at
// most 9 features on and 12 off.
func (e *TrichessEvaluator) Push(ply int, parent, child *trichess.Position, m trichess.Move) {
	en := e.push(ply)
	me := parent.SideToMove()
	from, to := m.From(), m.To()
	_, kind, _ := parent.PieceAt(from)
	victim, victimKind, capture := parent.PieceAt(to)
	_, landed, _ := child.PieceAt(to)
	rookFrom, rookTo := trichess.NoSquare, trichess.NoSquare
	if kind == trichess.King && from == trichess.SquareAt(me, 4, 0) {
		switch to {
		case trichess.SquareAt(me, 6, 0):
			rookFrom, rookTo = trichess.SquareAt(me, 7, 0), trichess.SquareAt(me, 5, 0)
		case trichess.SquareAt(me, 2, 0):
			rookFrom, rookTo = trichess.SquareAt(me, 0, 0), trichess.SquareAt(me, 3, 0)
		}
	}
	pc, cc := trichessCounters(parent), trichessCounters(child)
	pp := pc.protections()
	protected, castling := pp^cc.protections(), pc.castling^cc.castling
	next := child.SideToMove()
	for c := trichess.White; c <= trichess.Black; c++ {
		d := &en.d[c]
		d.removed[0] = trichessPieceFeature(c, me, kind, from)
		d.added[0] = trichessPieceFeature(c, me, landed, to)
		nAdd, nSub := 1, 1
		if capture {
			d.removed[nSub] = trichessPieceFeature(c, victim, victimKind, to)
			nSub++
		}
		if rookFrom >= 0 {
			d.removed[nSub] = trichessPieceFeature(c, me, trichess.Rook, rookFrom)
			d.added[nAdd] = trichessPieceFeature(c, me, trichess.Rook, rookTo)
			nSub++
			nAdd++
		}
		if pc.quiet != cc.quiet {
			d.removed[nSub] = int32(tcQuietBase + int(pc.quiet))
			d.added[nAdd] = int32(tcQuietBase + int(cc.quiet))
			nSub++
			nAdd++
		}
		if me != next {
			d.removed[nSub] = tcMoverFeature(c, me)
			d.added[nAdd] = tcMoverFeature(c, next)
			nSub++
			nAdd++
		}
		// The counters that changed, seat by seat: each seat's place
		// from c gives its features.
		for x := trichess.White; x <= trichess.Black; x++ {
			if pc.material[x] != cc.material[x] {
				base := tcMaterialBase + trichessRel(c, x)*(tcMaxMaterial+1)
				d.removed[nSub] = int32(base + int(pc.material[x]))
				d.added[nAdd] = int32(base + int(cc.material[x]))
				nSub++
				nAdd++
			}
		}
		for b := protected; b != 0; b &= b - 1 {
			i := bits.TrailingZeros8(b)
			f := int32(tcProtectedBase + 2*trichessRel(c, trichess.Color(i/2)) + i%2)
			if pp&(1<<i) != 0 {
				d.removed[nSub] = f
				nSub++
			} else {
				d.added[nAdd] = f
				nAdd++
			}
		}
		for b := castling; b != 0; b &= b - 1 {
			i := bits.TrailingZeros8(b)
			f := int32(tcCastleBase + 2*trichessRel(c, trichess.Color(i/2)) + i%2)
			if pc.castling&(1<<i) != 0 {
				d.removed[nSub] = f
				nSub++
			} else {
				d.added[nAdd] = f
				nAdd++
			}
		}
		d.nAdd, d.nSub = uint8(nAdd), uint8(nSub)
	}
}

// Value is seat c's value at ply (set by SetRoot or Push): a logit, the
// net's output read from c's side.
func (e *TrichessEvaluator) Value(ply int, c trichess.Color) float32 {
	return e.value(ply, int(c))
}

// Values is every seat's value at ply, by seat (White, Red, Black), for
// a search that backs up a value per player (max^n).
func (e *TrichessEvaluator) Values(ply int) [3]float32 {
	return [3]float32{e.value(ply, 0), e.value(ply, 1), e.value(ply, 2)}
}

// Output is the value of p's side to move, p the position at ply.
func (e *TrichessEvaluator) Output(ply int, p *trichess.Position) float32 {
	return e.value(ply, int(p.SideToMove()))
}

// Evaluate scores p, the position at ply, for the side to move in
// centipoints: Centipoints of Output.
func (e *TrichessEvaluator) Evaluate(ply int, p *trichess.Position) int {
	return Centipoints(e.Output(ply, p))
}
