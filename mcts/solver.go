package mcts

// The solver (Params.Solver) carries exact results up the tree, after
// MCTS-Solver (Winands, Björnsson and Saito, 2008). A finished game is
// proven with its result. An expanded node is proven won for its mover as
// soon as one child is proven won for that player, and proven with its
// mover's best child value once every child is proven. A proven node keeps
// player 0's value in node.exact; the other player's is its negation, so
// the solver needs two players whose results sum to zero, and it leaves
// any other finished game unproven.
//
// Selection scores a proven child by its exact value and never descends
// into one its parent's mover loses. A simulation that meets a proven
// node follows the children that prove it down to a finished game and
// backs up that game's result, so every node's visits and sums still add
// up from its children's. A search whose root is proven has nothing left
// to learn and ends. At a root proven lost every move loses; the one
// played is the most visited, the one the search took longest to refute,
// which is usually the longest defence.

// solving reports whether the tree proves results.
func (t *Tree) solving() bool { return t.params.Solver && t.players == 2 }

// exactFor returns proven node i's exact value for player p.
func (a *nodeStore) exactFor(i int32, p int8) float32 {
	if p == 0 {
		return a.nodes[i].exact
	}
	return 0 - a.nodes[i].exact // 0 - 0 is 0, not -0
}

// lostFor reports whether node i is proven lost for player p.
func (a *nodeStore) lostFor(i int32, p int8) bool {
	return a.nodes[i].proven && a.exactFor(i, p) <= -1
}

// wonFor reports whether node i is proven won for player p.
func (a *nodeStore) wonFor(i int32, p int8) bool {
	return a.nodes[i].proven && a.exactFor(i, p) >= 1
}

// proveTerminal marks terminal node n proven by its result, unless the
// result does not sum to zero.
func (t *Tree) proveTerminal(n int32) {
	raw := t.a.raw[int(n)*2 : int(n)*2+2]
	if raw[0] != -raw[1] {
		return
	}
	t.a.nodes[n].proven = true
	t.a.nodes[n].exact = raw[0]
}

// propagate proves the ancestors on path (root first) of its last node,
// which has just been proven, from the nearest up, stopping at the first
// that its children do not prove.
func (t *Tree) propagate(path []int32) {
	for k := len(path) - 2; k >= 0; k-- {
		if !t.prove(path[k]) {
			return
		}
	}
}

// prove marks expanded node n proven when its children prove it, and
// reports whether n is proven.
func (t *Tree) prove(n int32) bool {
	nd := &t.a.nodes[n]
	if nd.proven {
		return true
	}
	first, end := t.a.children(n)
	if nd.status != expanded || first == end {
		return false
	}
	mover := nd.mover
	best, decided := float32(-2), true
	for c := first; c < end; c++ {
		if !t.a.nodes[c].proven {
			decided = false
			continue
		}
		v := t.a.exactFor(c, mover)
		if v >= 1 {
			best, decided = v, true
			break
		}
		best = max(best, v)
	}
	if !decided {
		return false
	}
	nd.proven = true
	nd.exact = best
	if mover != 0 {
		nd.exact = 0 - best
	}
	return true
}

// provingChild returns a child of proven expanded node n whose exact value
// for n's mover is n's: the most visited of them.
func (t *Tree) provingChild(n int32) int32 {
	mover := t.a.nodes[n].mover
	want := t.a.exactFor(n, mover)
	first, end := t.a.children(n)
	best := int32(-1)
	for c := first; c < end; c++ {
		if !t.a.nodes[c].proven || t.a.exactFor(c, mover) != want {
			continue
		}
		if best < 0 || t.a.nodes[c].visits > t.a.nodes[best].visits {
			best = c
		}
	}
	return best
}

// solvedChoice returns the child of expanded node n to play when the tree
// proves results: the most visited child proven won for n's mover if
// there is one, or else the most visited child not proven lost, or else
// (every child lost) the most visited child. Ties go as in mostVisited.
func (t *Tree) solvedChoice(n int32) int32 {
	mover := t.a.nodes[n].mover
	first, end := t.a.children(n)
	best := int32(-1)
	for c := first; c < end; c++ {
		if t.a.wonFor(c, mover) && (best < 0 || t.before(c, best, mover)) {
			best = c
		}
	}
	if best >= 0 {
		return best
	}
	for c := first; c < end; c++ {
		if !t.a.lostFor(c, mover) && (best < 0 || t.before(c, best, mover)) {
			best = c
		}
	}
	if best >= 0 {
		return best
	}
	return t.mostVisited(n)
}
