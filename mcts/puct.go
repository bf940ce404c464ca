package mcts

import "math"

// puctChild returns the child of expanded node n maximising
// Q + c·P·sqrt(ΣN)/(1+N), Q being for the player to move at n. Unvisited
// children get the first-play urgency: n's value minus a reduction that
// grows with the prior mass already visited. With Params.MinimaxWeight w a
// visited child's Q is (1-w)·Q + w·its minimax value. A proven child counts with its
// exact value, and one proven lost for n's mover is passed over (n, not
// proven itself, has a child that is not).
func (t *Tree) puctChild(n int32, atRoot bool) int32 {
	mover := t.a.nodes[n].mover
	first, end := t.a.children(n)
	sumN, visitedPrior := 0.0, 0.0
	for c := first; c < end; c++ {
		ch := &t.a.nodes[c]
		if v := ch.visits + ch.inflight; v > 0 {
			sumN += float64(v)
			visitedPrior += float64(ch.prior)
		}
	}
	reduction := t.params.FPUReduction
	if atRoot {
		reduction = t.params.RootFPUReduction
	}
	fpu := t.a.mean(n, int(mover)) - reduction*math.Sqrt(visitedPrior)
	cpuct := t.params.CPUCT
	if t.params.CPUCTFactor > 0 {
		cpuct += t.params.CPUCTFactor * math.Log((sumN+t.params.CPUCTBase+1)/t.params.CPUCTBase)
	}
	explore := cpuct * math.Sqrt(max(sumN, 1))
	mmw := t.params.MinimaxWeight
	best, bestScore := first, math.Inf(-1)
	for c := first; c < end; c++ {
		ch := &t.a.nodes[c]
		q, ok := t.a.q(c, mover)
		switch {
		case ch.proven:
			// Only a solving tree proves nodes.
			if t.a.lostFor(c, mover) {
				continue
			}
			q = float64(t.a.exactFor(c, mover))
		case !ok:
			q = fpu
		case mmw > 0:
			q = (1-mmw)*q + mmw*float64(t.a.mm[int(c)*t.players+int(mover)])
		}
		score := q + explore*float64(ch.prior)/float64(1+ch.visits+ch.inflight)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}
