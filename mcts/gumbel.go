package mcts

import "math"

// sampleGumbel draws the root's Gumbel noise, clears its visits for this
// search, and lays out the sequential-halving schedule.
func (t *Tree) sampleGumbel() {
	first, end := t.a.children(0)
	k := int(end - first)
	t.gumbel, t.seqVisits = t.gumbel[:0], t.seqVisits[:0]
	for range k {
		t.gumbel = append(t.gumbel, t.params.GumbelScale*gumbelSample(t.rng))
		t.seqVisits = append(t.seqVisits, 0)
	}
	t.schedule = consideredVisits(t.schedule[:0], min(t.params.GumbelConsidered, k), t.target)
}

// consideredVisits appends, for each of sims simulations, the visit count
// that the root action it visits must have: m actions get visits in turn,
// then the better half of them, and so on down to two, each phase getting
// about sims/(log2(m)·considered) visits per action (mctx seq_halving).
func consideredVisits(dst []int32, m, sims int) []int32 {
	if m <= 1 {
		for i := range sims {
			dst = append(dst, int32(i))
		}
		return dst
	}
	log2m := math.Ceil(math.Log2(float64(m)))
	start := len(dst)
	visits := int32(0)
	for len(dst)-start < sims {
		extra := max(1, int(float64(sims)/(log2m*float64(m))))
		for range extra {
			for range m {
				dst = append(dst, visits)
			}
			visits++
		}
		m = max(2, m/2)
	}
	return dst[:start+sims]
}

// logit is the log of a prior, floored so that zero priors stay finite.
func logit(p float32) float64 { return math.Log(max(float64(p), 1e-30)) }

// sigmaQ returns σ of node n's completed Q-values, for the player to move
// at n, one per child: visited children have their mean value, the others
// the mixed value estimate; they are mapped from [-1, 1] to [0, 1] and
// multiplied by (GumbelCVisit + max N)·GumbelCScale.
func (t *Tree) sigmaQ(n int32) []float64 {
	mover := int(t.a.nodes[n].mover)
	first, end := t.a.children(n)
	sumN, sumP, weighted, maxN := 0.0, 0.0, 0.0, 0.0
	for c := first; c < end; c++ {
		ch := &t.a.nodes[c]
		if ch.visits > 0 {
			p := max(float64(ch.prior), 1e-30)
			sumN += float64(ch.visits)
			sumP += p
			weighted += p * t.a.mean(c, mover)
			maxN = max(maxN, float64(ch.visits))
		}
	}
	mixed := float64(t.a.raw[int(n)*t.players+mover])
	if sumP > 0 {
		mixed = (mixed + sumN*weighted/sumP) / (sumN + 1)
	}
	// Values lie in [-1, 1]: map them to [0, 1] by that fixed range, not
	// by the siblings' spread (mctx's min-max rescaling), which blows
	// differences of noise between near-equal moves up into certainties.
	scale := (t.params.GumbelCVisit + maxN) * t.params.GumbelCScale / 2
	sig := t.sigma[:0]
	for c := first; c < end; c++ {
		q := mixed
		if t.a.nodes[c].visits > 0 {
			q = t.a.mean(c, mover)
		}
		sig = append(sig, (q+1)*scale)
	}
	t.sigma = sig
	return sig
}

// improvedPolicy returns softmax(logits + σ(completed Q)) over node n's
// children.
func (t *Tree) improvedPolicy(n int32) []float64 {
	sig := t.sigmaQ(n)
	first, _ := t.a.children(n)
	probs := t.probs[:0]
	top := math.Inf(-1)
	for i, s := range sig {
		x := logit(t.a.nodes[first+int32(i)].prior) + s
		probs = append(probs, x)
		top = max(top, x)
	}
	sum := 0.0
	for i, x := range probs {
		probs[i] = math.Exp(x - top)
		sum += probs[i]
	}
	for i := range probs {
		probs[i] /= sum
	}
	t.probs = probs
	return probs
}

// gumbelInteriorChild picks the child of non-root node n deterministically:
// the argmax of π'(a) − N(a)/(1 + ΣN), counting in-flight visits.
func (t *Tree) gumbelInteriorChild(n int32) int32 {
	probs := t.improvedPolicy(n)
	first, end := t.a.children(n)
	sumN := 0.0
	for c := first; c < end; c++ {
		sumN += float64(t.a.nodes[c].visits + t.a.nodes[c].inflight)
	}
	best, bestScore := first, math.Inf(-1)
	for i, p := range probs {
		ch := &t.a.nodes[first+int32(i)]
		if s := p - float64(ch.visits+ch.inflight)/(1+sumN); s > bestScore {
			best, bestScore = first+int32(i), s
		}
	}
	return best
}

// gumbelRootChild picks the root child for the next simulation by
// sequential halving: among the actions whose visits in this search equal
// the schedule's count, the one maximising g + logit + σ(completed Q).
func (t *Tree) gumbelRootChild() int32 {
	want := int32(0)
	if len(t.schedule) > 0 {
		want = t.schedule[min(t.started, len(t.schedule)-1)]
	}
	if c, ok := t.gumbelBest(want); ok {
		return c
	}
	fewest := t.seqVisits[0]
	for _, v := range t.seqVisits {
		fewest = min(fewest, v)
	}
	c, _ := t.gumbelBest(fewest)
	return c
}

// gumbelChoice is the action Gumbel search plays: among the root actions
// visited most in this search, the one maximising g + logit + σ(completed Q).
func (t *Tree) gumbelChoice() int32 {
	most := int32(0)
	for _, v := range t.seqVisits {
		most = max(most, v)
	}
	c, _ := t.gumbelBest(most)
	return c
}

// gumbelBest returns the root child with visits in this search equal to
// want maximising g + logit + σ(completed Q), and whether there is one.
func (t *Tree) gumbelBest(want int32) (int32, bool) {
	sig := t.sigmaQ(0)
	first, _ := t.a.children(0)
	best, bestScore := int32(-1), math.Inf(-1)
	for i, s := range sig {
		if t.seqVisits[i] != want {
			continue
		}
		c := first + int32(i)
		if score := t.gumbel[i] + logit(t.a.nodes[c].prior) + s; best < 0 || score > bestScore {
			best, bestScore = c, score
		}
	}
	if best < 0 {
		return first, false
	}
	return best, true
}

// gumbelValue overwrites value, the root's value per player, with the
// children's mean values weighted by the improved policy over the visited
// children; it leaves value alone when no child has been visited.
func (t *Tree) gumbelValue(value []float32) {
	probs := t.improvedPolicy(0)
	first, _ := t.a.children(0)
	mass := 0.0
	for i, p := range probs {
		if t.a.nodes[first+int32(i)].visits > 0 {
			mass += p
		}
	}
	if mass == 0 {
		return
	}
	for pl := range value {
		v := 0.0
		for i, p := range probs {
			if c := first + int32(i); t.a.nodes[c].visits > 0 {
				v += p * t.a.mean(c, pl)
			}
		}
		value[pl] = float32(v / mass)
	}
}
