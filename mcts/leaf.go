package mcts

import "trench/engine"

// Leaf is a state the search wants evaluated. The caller evaluates State,
// filling Eval.Policy and Eval.Values, and hands the leaf back to the same
// tree's Backup (or Cancel). A Leaf's buffers are reused from one
// selection to the next.
type Leaf struct {
	// State is the leaf's position, owned by the leaf until the next
	// selection.
	State engine.State
	// Eval holds the legal actions and receives the evaluation.
	Eval Evaluation

	path    []int32 // node indices from the root to the leaf
	counted bool    // the leaf is one of the search's simulations (not the root's own evaluation)
}

// SelectLeaf descends from the root to a node that needs an evaluation and
// describes it in l, applying virtual loss along the way. Finished games
// met on the way are backed up at once. It returns false when no leaf is
// needed now: the search's simulations are all started (or the solver has
// proven the root), or the path leads to a node already out for
// evaluation (try again after a Backup).
func (t *Tree) SelectLeaf(l *Leaf) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.selectLeaf(l)
}

func (t *Tree) selectLeaf(l *Leaf) bool {
	switch t.a.nodes[0].status {
	case pending:
		return false
	case unexpanded:
		t.a.nodes[0].status = pending
		t.a.nodes[0].inflight++
		l.path = append(l.path[:0], 0)
		l.counted = false
		l.State = t.root.Clone()
		l.Eval.Actions = l.State.LegalActions(l.Eval.Actions)
		return true
	}
	for !t.allStarted() {
		st := t.root.Clone()
		path := append(l.path[:0], 0)
		n := int32(0)
		for t.a.nodes[n].status == expanded {
			if t.a.nodes[n].proven {
				n = t.provingChild(n)
			} else {
				n = t.selectChild(n, len(path) == 1)
			}
			st.Play(int(t.a.nodes[n].action))
			path = append(path, n)
		}
		l.path = path
		if t.a.nodes[n].status == pending {
			return false
		}
		t.started++
		if t.params.Algorithm == Gumbel {
			t.seqVisits[path[1]-t.a.nodes[0].first]++
		}
		if t.a.nodes[n].status == unexpanded && st.Over() {
			t.setTerminal(n, st)
			if t.solving() {
				t.proveTerminal(n)
				if t.a.nodes[n].proven {
					t.propagate(path)
				}
			}
		}
		if t.a.nodes[n].status == terminal {
			t.backup(path, t.a.raw[int(n)*t.players:int(n+1)*t.players])
			t.backupMinimax(path)
			t.finished++
			continue
		}
		t.a.nodes[n].status = pending
		for _, i := range path {
			t.a.nodes[i].inflight++
		}
		l.counted = true
		l.State = st
		l.Eval.Actions = st.LegalActions(l.Eval.Actions)
		return true
	}
	return false
}

// selectChild picks the child of expanded node n to descend to.
func (t *Tree) selectChild(n int32, atRoot bool) int32 {
	if t.params.Algorithm == Gumbel {
		if atRoot {
			return t.gumbelRootChild()
		}
		return t.gumbelInteriorChild(n)
	}
	return t.puctChild(n, atRoot)
}
