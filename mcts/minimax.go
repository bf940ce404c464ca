package mcts

import "slices"

// Implicit minimax backups (Params.MinimaxWeight), after Lanctot, Winands,
// Pepels and Sturtevant, "Monte Carlo Tree Search with Heuristic
// Evaluations using Implicit Minimax Backups" (2014). Besides the mean of
// its simulations' values, every node keeps a minimax value: the
// evaluator's (or a finished game's) values at a node none of whose
// children has been evaluated, and otherwise the minimax values of the
// evaluated child that is best for the node's mover (max^n with more than
// two players). PUCT then scores a visited move by a blend of the two, so
// that a refutation found deep in the tree counts at once, where the mean
// would take many simulations to move. With weight 0 the tree keeps no
// minimax values and pays nothing for them.

// minimaxing reports whether the tree keeps minimax values.
func (t *Tree) minimaxing() bool { return t.params.MinimaxWeight > 0 }

// setMinimax sets node n's minimax values to its raw values, when the tree
// keeps them.
func (t *Tree) setMinimax(n int32) {
	if t.minimaxing() {
		p := t.players
		copy(t.a.mm[int(n)*p:int(n+1)*p], t.a.raw[int(n)*p:int(n+1)*p])
	}
}

// backupMinimax refreshes the minimax values of path's nodes (root first)
// above its last, whose own has just been set, from the nearest up,
// stopping at the first that does not change, when the tree keeps them.
func (t *Tree) backupMinimax(path []int32) {
	if !t.minimaxing() {
		return
	}
	p := t.players
	for k := len(path) - 2; k >= 0; k-- {
		n := path[k]
		mover := int(t.a.nodes[n].mover)
		first, end := t.a.children(n)
		best := int32(-1)
		for c := first; c < end; c++ {
			if s := t.a.nodes[c].status; s != expanded && s != terminal {
				continue
			}
			if best < 0 || t.a.mm[int(c)*p+mover] > t.a.mm[int(best)*p+mover] {
				best = c
			}
		}
		if best < 0 {
			return
		}
		dst, src := t.a.mm[int(n)*p:int(n+1)*p], t.a.mm[int(best)*p:int(best+1)*p]
		if slices.Equal(dst, src) {
			return
		}
		copy(dst, src)
	}
}
