package nnue

import (
	"fmt"
	"math/bits"

	"trench/engine/trench"
)

// maxAdded and maxRemoved bound the features a move turns on and off in
// one perspective: on, the piece's new square, the mover's score and the
// quiet bucket; off, its old square, the pieces it takes (those on its
// route, at most a General's reach of 5), the mover's old score and the
// old quiet bucket.
const (
	maxAdded   = 3
	maxRemoved = 8
)

// entry is one ply of an Evaluator's stack: its two accumulators (at
// acc[2·ply·H:], Black's then White's) are ready, or follow from the
// parent's by the features listed.
type entry struct {
	ready   bool
	nAdd    uint8
	nSub    uint8
	added   [2][maxAdded]int32
	removed [2][maxRemoved]int32
}

// Evaluator evaluates the positions of one search path with a net,
// keeping each ply's accumulators and deriving a child's from its
// parent's by the features the move changes, when the child is first
// evaluated. It has the methods of alphabeta.Evaluator. An Evaluator is
// not safe for concurrent use; several may share one Net, which they
// never change.
type Evaluator struct {
	net   *Net
	k     *kernels
	stack []entry
	acc   []float32
	feats [maxActive]int32
}

// NewEvaluator returns an evaluator with net, which must not change
// while it is in use, or an error if the net's sizes disagree or a
// weight is not finite.
func NewEvaluator(net *Net) (*Evaluator, error) {
	if err := net.check(); err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	return &Evaluator{net: net, k: best}, nil
}

// grow makes room for ply.
func (e *Evaluator) grow(ply int) {
	for len(e.stack) <= ply {
		e.stack = append(e.stack, entry{})
		e.acc = append(e.acc, make([]float32, 2*e.net.Hidden)...)
	}
}

// accumulator is perspective c's accumulator at ply.
func (e *Evaluator) accumulator(ply int, c trench.Color) []float32 {
	h := e.net.Hidden
	off := (2*ply + int(c)) * h
	return e.acc[off : off+h : off+h]
}

// SetRoot makes p the position at ply 0, computing its accumulators from
// scratch.
func (e *Evaluator) SetRoot(p *trench.Position) {
	e.grow(0)
	for c := trench.Black; c <= trench.White; c++ {
		acc := e.accumulator(0, c)
		feats := Features(p, c, e.feats[:0])
		e.k.refresh(acc, e.net.FTBias, e.net.FT, feats)
	}
	e.stack[0].ready = true
}

// Push makes child, parent (the position at ply) after the legal move
// m, the position at ply+1. Its accumulators are computed when it is
// first evaluated.
func (e *Evaluator) Push(ply int, parent, child *trench.Position, m trench.Move) {
	e.grow(ply + 1)
	en := &e.stack[ply+1]
	en.ready = false
	us, them := parent.SideToMove(), parent.SideToMove().Other()
	from, to := int(m.From()), int(m.To())
	_, kind, _ := parent.PieceAt(m.From())
	captured := parent.Captured(m)
	nAdd, nSub := 0, 0
	for c := trench.Black; c <= trench.White; c++ {
		nAdd, nSub = 0, 0
		add, sub := &en.added[c], &en.removed[c]
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
	}
	en.nAdd, en.nSub = uint8(nAdd), uint8(nSub)
}

// materialize makes ply's accumulators ready from its nearest ready
// ancestor's.
func (e *Evaluator) materialize(ply int) {
	from := ply
	for !e.stack[from].ready {
		from--
	}
	for i := from + 1; i <= ply; i++ {
		en := &e.stack[i]
		for c := trench.Black; c <= trench.White; c++ {
			e.k.update(e.accumulator(i, c), e.accumulator(i-1, c), e.net.FT,
				en.added[c][:en.nAdd], en.removed[c][:en.nSub])
		}
		en.ready = true
	}
}

// Output is the net's output for p, the position at ply (set by SetRoot
// or Push): a logit, σ(y) the side to move's chance of winning.
func (e *Evaluator) Output(ply int, p *trench.Position) float32 {
	if !e.stack[ply].ready {
		e.materialize(ply)
	}
	us := p.SideToMove()
	h := e.net.Hidden
	return e.net.OutBias + e.k.dot(e.accumulator(ply, us), e.net.Out[:h]) +
		e.k.dot(e.accumulator(ply, us.Other()), e.net.Out[h:])
}

// Evaluate scores p, the position at ply (set by SetRoot or Push), for
// the side to move in centipoints: Centipoints of Output.
func (e *Evaluator) Evaluate(ply int, p *trench.Position) int {
	return Centipoints(e.Output(ply, p))
}
