package mcts

import (
	"math"

	"trench/engine"
)

// Backup expands l's node with its evaluation and adds its values to every
// node on the path from the root. A malformed evaluation cancels the leaf
// and returns an error.
func (t *Tree) Backup(l *Leaf) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := l.Eval.check(t.players); err != nil {
		t.cancel(l)
		return err
	}
	n := l.path[len(l.path)-1]
	t.expand(n, l)
	for _, i := range l.path {
		t.a.nodes[i].inflight--
	}
	t.backup(l.path, t.a.raw[int(n)*t.players:int(n+1)*t.players])
	t.backupMinimax(l.path)
	if l.counted {
		t.finished++
	} else {
		t.prepareRoot()
	}
	t.cond.Broadcast()
	return nil
}

// Cancel abandons a selected leaf without evaluating it, undoing its
// virtual loss; the search will select it again.
func (t *Tree) Cancel(l *Leaf) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cancel(l)
}

func (t *Tree) cancel(l *Leaf) {
	n := l.path[len(l.path)-1]
	t.a.nodes[n].status = unexpanded
	for _, i := range l.path {
		t.a.nodes[i].inflight--
	}
	if l.counted {
		t.started--
		if t.params.Algorithm == Gumbel {
			t.seqVisits[l.path[1]-t.a.nodes[0].first]--
		}
	}
	t.cond.Broadcast()
}

// expand gives node n a child per legal action of l, with the evaluator's
// priors raised to 1/PolicyTemperature and normalised (uniform if they
// carry no mass), and stores its value.
func (t *Tree) expand(n int32, l *Leaf) {
	policy := l.Eval.Policy
	inv := 1.0
	if pt := t.params.PolicyTemperature; pt > 0 && pt != 1 {
		inv = 1 / pt
	}
	// With a temperature, weights are (p/top)^(1/T): the same priors once
	// normalised, and never above 1, so no temperature overflows them.
	top := float32(0)
	if inv != 1 {
		for _, p := range policy {
			if p > top && !math.IsInf(float64(p), 0) {
				top = p
			}
		}
	}
	first := int32(len(t.a.nodes))
	sum := 0.0
	for i, a := range l.Eval.Actions {
		w := 0.0
		if p := policy[i]; p > 0 && !math.IsInf(float64(p), 0) {
			w = float64(p)
			if inv != 1 {
				w = powUnit(float64(p)/float64(top), inv)
			}
		}
		sum += w
		t.a.add(node{action: int32(a), prior: float32(w)})
	}
	children := t.a.nodes[first:]
	for i := range children {
		if sum > 0 {
			children[i].prior = float32(float64(children[i].prior) / sum)
		} else {
			children[i].prior = float32(1 / float64(len(children)))
		}
	}
	nd := &t.a.nodes[n]
	nd.first, nd.count = first, int32(len(l.Eval.Actions))
	nd.status = expanded
	nd.mover = int8(l.State.ToMove())
	raw := t.a.raw[int(n)*t.players : int(n+1)*t.players]
	for p, v := range l.Eval.Values {
		if math.IsNaN(float64(v)) {
			v = 0
		}
		raw[p] = max(-1, min(1, v))
	}
	t.setMinimax(n)
}

// setTerminal marks node n, whose state st is over, as terminal with
// st's result as its value.
func (t *Tree) setTerminal(n int32, st engine.State) {
	t.a.nodes[n].status = terminal
	copy(t.a.raw[int(n)*t.players:int(n+1)*t.players], st.Result(nil))
	t.setMinimax(n)
}

// backup adds one visit and values (one per player) to every node of path.
func (t *Tree) backup(path []int32, values []float32) {
	for _, i := range path {
		t.a.nodes[i].visits++
		sums := t.a.sums[int(i)*t.players : int(i+1)*t.players]
		for p, v := range values {
			sums[p] += float64(v)
		}
	}
}
