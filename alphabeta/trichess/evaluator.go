package trichess

import (
	"fmt"

	"trench/engine/trichess"
	"trench/nnue"
)

// Evaluator evaluates the positions of one search path. The search tells
// it the root, then every move it plays, counting plies as moves played
// from the root (BRS's layer of opponents plays two a search ply), so
// that an evaluator may keep state along the path (an efficiently
// updatable net's accumulators). A Searcher owns its evaluator: one
// evaluator must not serve two searchers.
type Evaluator interface {
	// SetRoot makes p the position at ply 0.
	SetRoot(p *trichess.Position)
	// Push makes child, parent (the position at ply) after the legal
	// move m, the position at ply+1.
	Push(ply int, parent, child *trichess.Position, m trichess.Move)
	// Leads is each player's lead in p, the position at ply, in
	// centipoints, by seat. p is not known to be over: the quiescence
	// search stands pat without looking for a mate past its first
	// plies, so p may be one.
	Leads(ply int, p *trichess.Position) Values
}

// leader is an Evaluator that gives one player's lead for less than all
// three (a net: one seat's value reads three accumulators, all three's
// nine), for BRS and Paranoid, which follow the root player's alone.
type leader interface {
	// Lead is Leads(ply, p)[c].
	Lead(ply int, p *trichess.Position, c trichess.Color) int
}

// Hand is the hand-written evaluation, Evaluate's leads, as an
// Evaluator: the default.
type Hand struct{}

// SetRoot does nothing: Evaluate needs no state.
func (Hand) SetRoot(*trichess.Position) {}

// Push does nothing: Evaluate needs no state.
func (Hand) Push(int, *trichess.Position, *trichess.Position, trichess.Move) {}

// Leads is Evaluate(p).Leads().
func (Hand) Leads(_ int, p *trichess.Position) Values { return Evaluate(p).Leads() }

// String names the evaluation: hand.
func (Hand) String() string { return "hand" }

// Material is the evaluation the rules alone give, with nothing learnt
// or hand-tuned: each player's material at the rules' piece points. It
// is the evaluation of the first generation of a net's training.
type Material struct{}

// SetRoot does nothing: the evaluation needs no state.
func (Material) SetRoot(*trichess.Position) {}

// Push does nothing: the evaluation needs no state.
func (Material) Push(int, *trichess.Position, *trichess.Position, trichess.Move) {}

// Leads is the leads of each player's material, pieceWeight a point.
func (Material) Leads(_ int, p *trichess.Position) Values {
	var v Values
	for c := trichess.White; c <= trichess.Black; c++ {
		v[c] = pieceWeight * p.Material(c)
	}
	return v.Leads()
}

// String names the evaluation: material.
func (Material) String() string { return "material" }

// NNUE evaluates with a Trichess net (package nnue), keeping its
// accumulators along the search path: a player's lead is the net's value
// for its seat in centipoints. Each Searcher needs its own; several may
// share one net.
type NNUE struct {
	e      *nnue.TrichessEvaluator
	hidden int
}

// NewNNUE returns an evaluator with net, a Trichess net that must not
// change while it is in use, or an error if it is not one.
func NewNNUE(net *nnue.Net) (Evaluator, error) {
	e, err := nnue.NewTrichessEvaluator(net)
	if err != nil {
		return nil, fmt.Errorf("trichess alphabeta: %w", err)
	}
	// BRS's layer of opponents plays two moves a search ply.
	e.Reserve(2 * maxPly)
	return &NNUE{e: e, hidden: net.Hidden}, nil
}

// SetRoot makes p the position at ply 0.
func (n *NNUE) SetRoot(p *trichess.Position) { n.e.SetRoot(p) }

// Push makes child, parent (the position at ply) after the legal move m,
// the position at ply+1.
func (n *NNUE) Push(ply int, parent, child *trichess.Position, m trichess.Move) {
	n.e.Push(ply, parent, child, m)
}

// Leads is each seat's value at ply in centipoints (nnue.Centipoints),
// within ±evalBound.
func (n *NNUE) Leads(ply int, _ *trichess.Position) Values {
	ys := n.e.Values(ply)
	var l Values
	for c, y := range ys {
		l[c] = max(-evalBound, min(evalBound, nnue.Centipoints(y)))
	}
	return l
}

// Lead is seat c's value at ply in centipoints, within ±evalBound: one
// seat's of Leads.
func (n *NNUE) Lead(ply int, _ *trichess.Position, c trichess.Color) int {
	return max(-evalBound, min(evalBound, nnue.Centipoints(n.e.Value(ply, c))))
}

// String names the evaluation and its net's hidden size.
func (n *NNUE) String() string { return fmt.Sprintf("nnue (hidden %d)", n.hidden) }
