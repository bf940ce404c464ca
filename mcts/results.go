package mcts

import (
	"errors"
	"math"
)

// ActionStats is what a search found about one root action.
type ActionStats struct {
	// Action is the action's index in the game's action space.
	Action int
	// Visits is the number of simulations through the action.
	Visits int
	// Q is the action's mean value for the root's mover (0 if unvisited).
	Q float32
	// Prior is the root's prior for the action, noise included.
	Prior float32
	// RawPrior is the prior the root was expanded with, before any root
	// noise: the evaluator's policy over the legal actions, raised to
	// 1/PolicyTemperature and renormalised. Gumbel's noise never touches
	// the priors, so there it equals Prior.
	RawPrior float32
	// Policy is the training target's weight: the share of visits for
	// PUCT, the improved policy softmax(logits + σ(completed Q)) for
	// Gumbel.
	Policy float32
	// Proven says that the solver (Params.Solver) has proven the action's
	// value: Q is then exact (1 won, 0 drawn, -1 lost). Visits and, for
	// PUCT, Policy still count the simulations made before the proof.
	Proven bool
}

// Result is what a search reports about the root.
type Result struct {
	// Actions has one entry per legal root action, in LegalActions order.
	Actions []ActionStats
	// Value is the root's value for each player: the mean backed-up value
	// for PUCT, or the exact value once the solver has proven the root;
	// for Gumbel, the children's mean values weighted by the improved
	// policy, renormalised over the visited children.
	Value []float32
	// Proven says that the solver has proven the root's value.
	Proven bool
	// PV is the principal variation: the chosen action, then the most
	// visited child at each step while there is one.
	PV []int
	// Action is the chosen move: by visits and temperature for PUCT, by
	// the Gumbel rule for Gumbel.
	Action int
	// Visits is the root's visit count.
	Visits int
}

// SurpriseFloor bounds the raw priors below in Surprise, so that a target
// on a move the prior gave no mass stays finite: log(1/SurpriseFloor),
// about 13.8 nats, is the most one unit of target mass can add.
const SurpriseFloor = 1e-6

// Surprise is how much the search's policy target differs from the
// prior it started from: the KL divergence KL(target ‖ prior) = Σ t·log(t/p)
// in nats over the actions with a positive target t, p being the action's
// RawPrior, at least SurpriseFloor. It is 0 when the search confirmed its
// prior, grows as the search found moves the prior rated unlikely, and is
// never negative (rounding is clamped).
func (r *Result) Surprise() float64 {
	kl := 0.0
	for _, a := range r.Actions {
		if a.Policy > 0 {
			t := float64(a.Policy)
			kl += t * math.Log(t/max(float64(a.RawPrior), SurpriseFloor))
		}
	}
	return max(kl, 0)
}

// ErrNotSearched is returned by Result before the root has been evaluated.
var ErrNotSearched = errors.New("mcts: the root has not been evaluated")

// Result fills r, reusing its slices, with the root's statistics and the
// chosen move. With a temperature, each call draws the move anew.
func (t *Tree) Result(r *Result) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.a.nodes[0].status != expanded {
		return ErrNotSearched
	}
	root := &t.a.nodes[0]
	mover := root.mover
	first, end := t.a.children(0)
	r.Visits = int(root.visits)
	r.Value = r.Value[:0]
	for p := range t.players {
		r.Value = append(r.Value, float32(t.a.mean(0, p)))
	}
	r.Proven = root.proven
	switch {
	case root.proven:
		for p := range r.Value {
			r.Value[p] = t.a.exactFor(0, int8(p))
		}
	case t.params.Algorithm == Gumbel:
		t.gumbelValue(r.Value)
	}
	r.Actions = r.Actions[:0]
	total := 0
	for c := first; c < end; c++ {
		ch := &t.a.nodes[c]
		raw := ch.prior
		if t.noised {
			raw = t.clean[c-first]
		}
		q := float32(t.a.mean(c, int(mover)))
		if ch.proven {
			q = t.a.exactFor(c, mover)
		}
		r.Actions = append(r.Actions, ActionStats{
			Action:   int(ch.action),
			Visits:   int(ch.visits),
			Q:        q,
			Prior:    ch.prior,
			RawPrior: raw,
			Proven:   ch.proven,
		})
		total += int(ch.visits)
	}
	var chosen int32
	if t.params.Algorithm == Gumbel {
		if len(t.gumbel) != int(end-first) {
			t.sampleGumbel()
		}
		for i, p := range t.improvedPolicy(0) {
			r.Actions[i].Policy = float32(p)
		}
		chosen = t.gumbelChoice()
	} else {
		for i := range r.Actions {
			if total > 0 {
				r.Actions[i].Policy = float32(r.Actions[i].Visits) / float32(total)
			} else {
				r.Actions[i].Policy = r.Actions[i].Prior
			}
		}
		chosen = t.puctChoice()
	}
	r.Action = int(t.a.nodes[chosen].action)
	r.PV = t.line(chosen, r.PV[:0])
	return nil
}

// Line appends to dst the main line that begins with the root's action:
// the action, then the best child (the most visited, or the solver's
// choice) at each step while it has been visited. It returns dst alone
// when the root has not been evaluated or action is not one of its
// moves.
func (t *Tree) Line(action int, dst []int) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.rootChild(action); c >= 0 {
		return t.line(c, dst)
	}
	return dst
}

// line appends node n's action and the best visited children below it
// to dst.
func (t *Tree) line(n int32, dst []int) []int {
	dst = append(dst, int(t.a.nodes[n].action))
	for t.a.nodes[n].status == expanded {
		n = t.bestChild(n)
		if t.a.nodes[n].visits == 0 {
			break
		}
		dst = append(dst, int(t.a.nodes[n].action))
	}
	return dst
}

// mostVisited returns n's child with the most visits, ties broken by Q for
// n's mover, then by prior.
func (t *Tree) mostVisited(n int32) int32 {
	mover := t.a.nodes[n].mover
	first, end := t.a.children(n)
	best := first
	for c := first + 1; c < end; c++ {
		if t.before(c, best, mover) {
			best = c
		}
	}
	return best
}

// before reports whether child a ranks before child b for player mover:
// more visits, then a higher mean value, then a higher prior.
func (t *Tree) before(a, b int32, mover int8) bool {
	na, nb := &t.a.nodes[a], &t.a.nodes[b]
	qa, qb := t.a.mean(a, int(mover)), t.a.mean(b, int(mover))
	return na.visits > nb.visits || na.visits == nb.visits && (qa > qb || qa == qb && na.prior > nb.prior)
}

// bestChild returns the child of expanded node n that the search rates
// best: the solver's choice when the tree proves results, otherwise the
// most visited.
func (t *Tree) bestChild(n int32) int32 {
	if t.solving() {
		return t.solvedChoice(n)
	}
	return t.mostVisited(n)
}

// puctChoice picks the root child to play: the best (bestChild) at
// temperature 0, otherwise one drawn with probability ∝
// visits^(1/Temperature), where a solving tree plays a proven win at once
// and draws no proven loss while another move is left.
func (t *Tree) puctChoice() int32 {
	if t.params.Temperature == 0 {
		return t.bestChild(0)
	}
	mover := t.a.nodes[0].mover
	if t.solving() {
		c := t.solvedChoice(0)
		if t.a.wonFor(c, mover) || t.a.lostFor(c, mover) {
			return c
		}
	}
	first, end := t.a.children(0)
	top := int32(0)
	for c := first; c < end; c++ {
		top = max(top, t.a.nodes[c].visits)
	}
	if top == 0 {
		return t.bestChild(0)
	}
	weights := t.probs[:0]
	sum := 0.0
	for c := first; c < end; c++ {
		if t.a.lostFor(c, mover) {
			weights = append(weights, 0)
			continue
		}
		w := math.Pow(float64(t.a.nodes[c].visits)/float64(top), 1/t.params.Temperature)
		weights = append(weights, w)
		sum += w
	}
	t.probs = weights
	x := t.rng.Float64() * sum
	for i, w := range weights {
		if x < w {
			return first + int32(i)
		}
		x -= w
	}
	return t.bestChild(0)
}
