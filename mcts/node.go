package mcts

// status is where a node is in its life.
type status uint8

const (
	// unexpanded nodes have not been evaluated.
	unexpanded status = iota
	// pending nodes are being evaluated for some leaf.
	pending
	// expanded nodes have children and an evaluator value.
	expanded
	// terminal nodes are finished games, valued by their result.
	terminal
)

// node is one state of the tree, reached from its parent by action. Its
// children are the contiguous nodes [first, first+count).
type node struct {
	first    int32
	count    int32
	action   int32
	visits   int32
	inflight int32 // simulations under way through the node (virtual loss)
	prior    float32
	// exact is player 0's proven value when proven is set (the other
	// player's is its negation): see solver.go.
	exact  float32
	mover  int8 // the player to move at the node, once expanded
	status status
	proven bool
}

// nodeStore holds the nodes of a tree; node i's per-player values are
// sums[i*players:] (backed-up totals), raw[i*players:] (the evaluator's
// or the result's value) and mm[i*players:] (the minimax value: raw at a
// node without evaluated children, otherwise the mm of the evaluated
// child its mover rates best; kept only with Params.MinimaxWeight, see
// minimax.go). Node 0 is the root.
type nodeStore struct {
	players int
	nodes   []node
	sums    []float64
	raw     []float32
	mm      []float32
}

// reset empties the node store, keeping its memory, and adds a fresh root.
func (a *nodeStore) reset(players int) {
	a.players = players
	a.nodes, a.sums, a.raw, a.mm = a.nodes[:0], a.sums[:0], a.raw[:0], a.mm[:0]
	a.add(node{action: -1})
}

// add appends n with zero values and returns its index.
func (a *nodeStore) add(n node) int32 {
	a.nodes = append(a.nodes, n)
	for range a.players {
		a.sums = append(a.sums, 0)
		a.raw = append(a.raw, 0)
		a.mm = append(a.mm, 0)
	}
	return int32(len(a.nodes) - 1)
}

// copyNode appends a copy of src's node i, values included, and returns
// its index.
func (a *nodeStore) copyNode(src *nodeStore, i int32) int32 {
	j := a.add(src.nodes[i])
	p := a.players
	copy(a.sums[int(j)*p:int(j+1)*p], src.sums[int(i)*p:int(i+1)*p])
	copy(a.raw[int(j)*p:int(j+1)*p], src.raw[int(i)*p:int(i+1)*p])
	copy(a.mm[int(j)*p:int(j+1)*p], src.mm[int(i)*p:int(i+1)*p])
	return j
}

// children returns node i's children's indices as a range.
func (a *nodeStore) children(i int32) (first, end int32) {
	n := &a.nodes[i]
	return n.first, n.first + n.count
}

// q is node i's mean value for player p, counting in-flight simulations
// as losses, and whether it has been visited at all.
func (a *nodeStore) q(i int32, p int8) (float64, bool) {
	n := &a.nodes[i]
	v := n.visits + n.inflight
	if n.visits == 0 {
		return 0, false
	}
	return (a.sums[int(i)*a.players+int(p)] - float64(n.inflight)) / float64(v), true
}

// mean is node i's mean backed-up value for player p, ignoring in-flight
// simulations, or 0 when unvisited.
func (a *nodeStore) mean(i int32, p int) float64 {
	n := &a.nodes[i]
	if n.visits == 0 {
		return 0
	}
	return a.sums[int(i)*a.players+p] / float64(n.visits)
}

// compact copies the subtree rooted at i into dst, root first and each
// node's children contiguous, and returns the number of nodes copied.
func (a *nodeStore) compact(i int32, dst *nodeStore) int {
	dst.players = a.players
	dst.nodes, dst.sums, dst.raw, dst.mm = dst.nodes[:0], dst.sums[:0], dst.raw[:0], dst.mm[:0]
	dst.copyNode(a, i)
	for j := int32(0); int(j) < len(dst.nodes); j++ {
		n := dst.nodes[j]
		if n.count == 0 {
			continue
		}
		dst.nodes[j].first = int32(len(dst.nodes))
		for c := n.first; c < n.first+n.count; c++ {
			dst.copyNode(a, c)
		}
	}
	return len(dst.nodes)
}
