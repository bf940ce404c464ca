// Package tactics wraps a search evaluator (a net) with three aids that
// make a tree search see captures, for games whose pieces have values
// (engine.Material, engine.Captures):
//
//   - quiescence: before a leaf is evaluated, a capture-only search over
//     the game's material plays out the captures pending there (each
//     player captures or stands pat, as a chess engine's quiescence
//     search does), and the leaf takes the values of the quieter position
//     at the end of that sequence, or the game's result when the sequence
//     ends the game; its priors still come from the leaf itself;
//   - material values: each player's material lead over the others' mean,
//     tanh(lead/MaterialScale), is blended into the values;
//   - capture priors: the priors are mixed with capture-first priors, 1 +
//     the material a move takes (+ a small jitter), so that the search
//     tries every capture and no move's prior is near zero.
//
// A net judges positions where a piece hangs poorly and, trained by its
// own search, learns sharp priors that leave defensive moves unexplored;
// the aids cover both. Nothing here knows a game: states of games without
// material pass through unchanged. With two players the capture search is
// a negamax with alpha-beta pruning; with more, a max^n search in which
// each player maximises its own material lead.
//
// The same aids are also the base that a net can learn a correction to:
// PolicyOffsets gives the policy head the logarithms of the capture
// priors, ValueOffsets the value and score heads the material value.
package tactics

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"trench/engine"
	"trench/mcts"
)

// Limits of the capture search: the longest capture sequence searched, in
// plies, and the positions one leaf's search may visit (past them it
// stands pat everywhere). Without alpha-beta pruning, the search of more
// than two players gets less.
const (
	Depth     = 8
	Nodes     = 2000
	DepthMaxN = 4
	NodesMaxN = 100
)

// MaterialScale is the material lead that maps to a value of tanh(1) ≈
// 0.76.
const MaterialScale = 10

// winLead is the material lead a won game counts for in the capture
// search: more than any army is worth.
const winLead = 1000

// Settings choose the aids; each is off at its zero value.
type Settings struct {
	// Quiescence resolves the captures pending at each leaf.
	Quiescence bool
	// ShiftValues, with Quiescence, values a leaf whose captures resolve
	// to a quieter position by Inner's values of the leaf itself, each
	// moved by the change in that player's material value,
	// tanh(lead/MaterialScale), along the capture sequence, instead of by
	// Inner's values of the quieter position: one evaluation per leaf
	// instead of up to two. A sequence that ends the game still gives
	// the game's result.
	ShiftValues bool
	// Material in [0, 1] is the weight of the material lead in the
	// values: v = (1-Material)·net + Material·tanh(lead/MaterialScale).
	Material float64
	// CapturePrior in [0, 1] is the weight of the capture-first priors:
	// p = (1-CapturePrior)·net + CapturePrior·capture-first.
	CapturePrior float64
}

// Play is how the bot plays (trench play, serve, engine and the
// arena's mcts players, unless told otherwise).
var Play = Settings{Quiescence: true, Material: 0.5, CapturePrior: 0.5}

// Validate reports a weight outside [0, 1], or values to shift without
// quiescence.
func (s Settings) Validate() error {
	if !(s.Material >= 0 && s.Material <= 1) {
		return fmt.Errorf("material weight must be in [0, 1], got %v", s.Material)
	}
	if !(s.CapturePrior >= 0 && s.CapturePrior <= 1) {
		return fmt.Errorf("capture prior weight must be in [0, 1], got %v", s.CapturePrior)
	}
	if s.ShiftValues && !s.Quiescence {
		return errors.New("values are shifted by the captures of the capture search: shifting them needs quiescence")
	}
	return nil
}

// Off reports whether no aid is on.
func (s Settings) Off() bool { return s == Settings{} }

// String describes the aids for people, e.g. "quiescence, material 0.5,
// capture priors 0.5", or "no tactical aids".
func (s Settings) String() string {
	var parts []string
	switch {
	case s.Quiescence && s.ShiftValues:
		parts = append(parts, "quiescence (values shifted by material)")
	case s.Quiescence:
		parts = append(parts, "quiescence")
	}
	if s.Material > 0 {
		parts = append(parts, fmt.Sprintf("material %g", s.Material))
	}
	if s.CapturePrior > 0 {
		parts = append(parts, fmt.Sprintf("capture priors %g", s.CapturePrior))
	}
	if len(parts) == 0 {
		return "no tactical aids"
	}
	return strings.Join(parts, ", ")
}

// Wrap returns inner with the aids of s, or inner itself when all are off.
func (s Settings) Wrap(inner mcts.Evaluator) mcts.Evaluator {
	if s.Off() {
		return inner
	}
	return &Evaluator{Inner: inner, Settings: s}
}

// Evaluator is an evaluator with tactical aids. It is safe for concurrent
// use when Inner is.
type Evaluator struct {
	// Inner scores the states, and their resolved positions unless
	// ShiftValues is set.
	Inner mcts.Evaluator
	Settings
}

// Evaluate fills out[i] for states[i] (out[i].Actions set by the caller):
// Inner's answer for the state, with its values taken from the resolved
// position (by Inner, or shifted by material) and blended with material,
// and its priors mixed with capture-first priors, as Settings say.
func (e *Evaluator) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	if len(states) != len(out) {
		return fmt.Errorf("tactics: %d states but %d answers", len(states), len(out))
	}
	// resolved[i] is the position whose values states[i] takes; unless
	// values are shifted, the ones that are not states[i] and not over
	// are evaluated after the states, in the same call.
	resolved := make([]engine.State, len(states))
	all, evals := states, out
	var extra []int
	for i, st := range states {
		resolved[i] = st
		if !e.Quiescence {
			continue
		}
		r := Resolve(st)
		if r == nil {
			continue
		}
		resolved[i] = r
		if r.Over() || e.ShiftValues {
			continue
		}
		if extra == nil {
			all = slices.Clip(states)
			evals = slices.Clip(out)
		}
		all = append(all, r)
		evals = append(evals, mcts.Evaluation{Actions: r.LegalActions(nil)})
		extra = append(extra, i)
	}
	if err := e.Inner.Evaluate(all, evals); err != nil {
		return err
	}
	copy(out, evals[:len(out)])
	for j, i := range extra {
		out[i].Values = append(out[i].Values[:0], evals[len(out)+j].Values...)
	}
	var mat, was []float32
	for i, r := range resolved {
		o := &out[i]
		if r.Over() {
			o.Values = r.Result(o.Values[:0])
		} else {
			// r's material values, computed once for the shift and
			// the blend.
			shift := e.ShiftValues && r != states[i]
			if shift || e.Material > 0 {
				mat = MaterialValues(r, mat)
			}
			if shift {
				was = MaterialValues(states[i], was)
				shiftValues(o.Values, was, mat)
			}
			e.blendMaterial(o.Values, mat)
		}
		if e.CapturePrior > 0 {
			mixCapturePriors(states[i], o, float32(e.CapturePrior))
		}
	}
	return nil
}

// shiftValues moves each player's value in values by the change in its
// material value from was to is, within [-1, 1].
func shiftValues(values, was, is []float32) {
	for p := range values {
		if p < len(was) && p < len(is) {
			values[p] = max(-1, min(1, values[p]+is[p]-was[p]))
		}
	}
}

// blendMaterial mixes the material values mat into values
// (Settings.Material).
func (e *Evaluator) blendMaterial(values, mat []float32) {
	if e.Material == 0 {
		return
	}
	w := float32(e.Material)
	for p, m := range mat {
		values[p] = (1-w)*values[p] + w*m
	}
}

// MaterialValues writes to dst[:0] each player's material lead in s as a
// value, tanh(lead/MaterialScale), and returns it: none for a game
// without material (see MaterialLeads).
func MaterialValues(s engine.State, dst []float32) []float32 {
	dst = MaterialLeads(s, dst)
	for p, lead := range dst {
		dst[p] = float32(math.Tanh(float64(lead) / MaterialScale))
	}
	return dst
}

// mixCapturePriors mixes the capture-first priors of o.Actions in s into
// o.Policy with weight w.
func mixCapturePriors(s engine.State, o *mcts.Evaluation, w float32) {
	if _, ok := s.(engine.Material); !ok {
		return
	}
	sc := scratchPool.Get().(*scratch)
	sc.priors = CapturePriors(s, o.Actions, sc.priors)
	for j := range o.Policy {
		o.Policy[j] = (1-w)*o.Policy[j] + w*sc.priors[j]
	}
	scratchPool.Put(sc)
}

// scratch is the reusable space of the capture priors on the search's
// hot path, so that a leaf's evaluation does not allocate.
type scratch struct {
	priors   []float32
	captures []int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// MaterialLeads writes to dst[:0] each player's material lead in s over
// the mean of the others, and returns it: none for a game without
// material (engine.Material) or with one player. It allocates only when
// dst has no room for every player, so callers on a hot path keep dst
// from one call to the next.
func MaterialLeads(s engine.State, dst []float32) []float32 {
	m, ok := s.(engine.Material)
	if !ok {
		return dst[:0]
	}
	dst = m.Materials(dst)
	if len(dst) < 2 {
		return dst[:0]
	}
	leadsInPlace(dst)
	return dst
}

// leadsInPlace turns each player's material in mat (two players or more)
// into its lead over the mean of the others.
func leadsInPlace(mat []float32) {
	var total float32
	for _, x := range mat {
		total += x
	}
	for p, own := range mat {
		mat[p] = own - (total-own)/float32(len(mat)-1)
	}
}

// CapturePriors writes to dst[:0] a prior for each of actions (s's legal
// actions) proportional to 1 + the material it takes from the other
// players + a jitter in [0, 0.5) drawn from the position's hash and the
// action, so that captures come first and equal moves are not always
// tried in the same order while the priors stay a function of the
// position. In a game without material (engine.Material) nothing is
// taken, and the priors are near uniform.
func CapturePriors(s engine.State, actions []int, dst []float32) []float32 {
	dst = dst[:0]
	var sum float32
	for _, a := range actions {
		dst = append(dst, 1+0.5*jitter(s.Hash(), a))
	}
	if c, ok := s.(engine.Captures); ok {
		sc := scratchPool.Get().(*scratch)
		sc.captures = c.CaptureActions(sc.captures)
		for _, a := range sc.captures {
			if j := slices.Index(actions, a); j >= 0 {
				dst[j] += Taken(s, a)
			}
		}
		scratchPool.Put(sc)
	} else {
		for j, a := range actions {
			dst[j] += Taken(s, a)
		}
	}
	for _, p := range dst {
		sum += p
	}
	for j := range dst {
		dst[j] /= sum
	}
	return dst
}

// Taken is the material that action a takes in s from the players other
// than the mover, or 0 for games whose states do not report material.
func Taken(s engine.State, a int) float32 {
	if v, ok := s.(engine.CaptureValues); ok {
		return max(v.CaptureValue(a), 0)
	}
	before, ok := s.(engine.Material)
	if !ok {
		return 0
	}
	next := s.Clone()
	next.Play(a)
	after, ok := next.(engine.Material)
	if !ok {
		return 0
	}
	mover := s.ToMove()
	var lost float32
	was, is := before.Materials(nil), after.Materials(nil)
	for p := range was {
		if p != mover {
			lost += was[p] - is[p]
		}
	}
	return max(lost, 0)
}

// jitter is a number in [0, 1) drawn from a position's hash and an action
// (a SplitMix64 step).
func jitter(hash uint64, action int) float32 {
	z := hash + uint64(action)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float32(z>>40) / (1 << 24)
}

// Resolve returns the position at the end of s's capture sequence, or nil
// when the player to move in s stands pat, s is over, or its game lists
// no captures (engine.Captures).
func Resolve(s engine.State) engine.State {
	if _, ok := s.(engine.Captures); !ok {
		return nil
	}
	q := searchers.Get().(*searcher)
	defer searchers.Put(q)
	pv := q.resolve(s)
	if len(pv) == 0 {
		return nil
	}
	r := s.Clone()
	for _, a := range pv {
		r.Play(a)
	}
	return r
}

// searchers holds capture searchers between leaves, so that a search
// reuses its buffers and states.
var searchers = sync.Pool{New: func() any { return new(searcher) }}

// searcher is a capture search with its buffers: one level per ply, each
// holding the captures of the node searched at that ply, their positions
// and every player's lead there.
type searcher struct {
	players, nodes, visited int
	// stateType is the concrete type of the states the levels hold.
	stateType reflect.Type
	levels    []level
	// scratch receives Materials and Result.
	scratch []float32
}

// level is the buffers of one ply.
type level struct {
	actions []int
	kids    []child
	// states[i] is the position after actions[i]; where the game has
	// engine.Copier, they are reused from one node to the next.
	states []engine.State
	// leads holds every player's lead in each of states, players
	// entries each.
	leads []float32
	// pv is the best line found from this ply; best is the leads at its
	// end (max^n).
	pv   []int
	best []float32
}

// child is a capture, the index of the position it leads to in its
// level's states and leads, whether that position is over, and the
// mover's lead there. It holds no pointer, so sorting moves little.
type child struct {
	action, index int
	over          bool
	lead          float32
}

// resolve runs the capture search of s and returns its line, valid until
// the searcher's next use.
func (q *searcher) resolve(s engine.State) []int {
	if s.Over() {
		return nil
	}
	q.players, q.visited = s.Game().Players(), 0
	depth := Depth
	if q.players != 2 {
		depth = DepthMaxN
	}
	if t := reflect.TypeOf(s); t != q.stateType {
		q.stateType, q.levels = t, nil
	}
	for len(q.levels) <= depth {
		q.levels = append(q.levels, level{})
	}
	root := q.leads(s, false, nil)
	if q.players == 2 {
		q.nodes = Nodes
		q.negamax(0, s, false, root, depth, -winLead-1, winLead+1)
	} else {
		q.nodes = NodesMaxN
		q.maxn(0, s, false, root, depth)
	}
	return q.levels[0].pv
}

// leads appends to dst every player's material lead in s over the mean of
// the others, or ±winLead when s is over.
func (q *searcher) leads(s engine.State, over bool, dst []float32) []float32 {
	if over {
		q.scratch = s.Result(q.scratch)
		for _, r := range q.scratch {
			dst = append(dst, r*winLead)
		}
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, q.players)
	// Materials writes in place when dst has room.
	mat := s.(engine.Material).Materials(dst[n:n])
	dst = append(dst[:n], mat...)
	leadsInPlace(dst[n:])
	return dst
}

// children lists at level ply the captures of s, the mover's largest
// lead first, with their positions in the level's states and leads; none
// once the node budget is spent.
func (q *searcher) children(ply int, s engine.State) []child {
	l := &q.levels[ply]
	me := s.ToMove()
	l.actions = s.(engine.Captures).CaptureActions(l.actions)
	l.kids, l.leads = l.kids[:0], l.leads[:0]
	_, copies := s.(engine.Copier)
	for i, a := range l.actions {
		if q.visited >= q.nodes {
			break
		}
		q.visited++
		switch {
		case i == len(l.states):
			l.states = append(l.states, s.Clone())
		case copies:
			l.states[i].(engine.Copier).CopyFrom(s)
		default:
			l.states[i] = s.Clone()
		}
		c := l.states[i]
		c.Play(a)
		over := c.Over()
		l.leads = q.leads(c, over, l.leads)
		l.kids = append(l.kids, child{action: a, index: i, over: over, lead: l.leads[i*q.players+me]})
	}
	// A stable insertion sort: there are few captures, and equal leads
	// keep the order of CaptureActions.
	kids := l.kids
	for i := 1; i < len(kids); i++ {
		for j := i; j > 0 && kids[j-1].lead < kids[j].lead; j-- {
			kids[j-1], kids[j] = kids[j], kids[j-1]
		}
	}
	return kids
}

// next returns the position and the leads a child of ply leads to.
func (q *searcher) next(ply int, c child) (engine.State, []float32) {
	l := &q.levels[ply]
	return l.states[c.index], l.leads[c.index*q.players : (c.index+1)*q.players]
}

// setPV makes the line of ply the action followed by the line of ply+1.
func (q *searcher) setPV(ply, action int) {
	l := &q.levels[ply]
	l.pv = append(append(l.pv[:0], action), q.levels[ply+1].pv...)
}

// negamax is the two-player capture search: the mover's best lead in s
// within (alpha, beta), standing pat or capturing. The captures that reach
// it are left in the line of ply.
func (q *searcher) negamax(ply int, s engine.State, over bool, leads []float32, depth int, alpha, beta float32) float32 {
	q.levels[ply].pv = q.levels[ply].pv[:0]
	me := s.ToMove()
	best := leads[me]
	if over || depth == 0 || best >= beta {
		return best
	}
	alpha = max(alpha, best)
	for _, c := range q.children(ply, s) {
		next, leads := q.next(ply, c)
		var v float32
		if next.ToMove() == me {
			v = q.negamax(ply+1, next, c.over, leads, depth-1, alpha, beta)
		} else {
			v = -q.negamax(ply+1, next, c.over, leads, depth-1, -beta, -alpha)
		}
		if v > best {
			best = v
			q.setPV(ply, c.action)
			if v >= beta {
				break
			}
			alpha = max(alpha, v)
		}
	}
	return best
}

// maxn is the capture search of more than two players: each mover picks,
// among standing pat and its captures, what leads to its own largest
// material lead. Given every player's lead in s, it returns every player's
// lead at the end of the line (valid until the next search at this ply)
// and leaves the captures in the line of ply.
func (q *searcher) maxn(ply int, s engine.State, over bool, leads []float32, depth int) []float32 {
	l := &q.levels[ply]
	l.pv = l.pv[:0]
	l.best = append(l.best[:0], leads...)
	if over || depth == 0 {
		return l.best
	}
	me := s.ToMove()
	for _, c := range q.children(ply, s) {
		next, leads := q.next(ply, c)
		v := q.maxn(ply+1, next, c.over, leads, depth-1)
		if v[me] > l.best[me] {
			copy(l.best, v)
			q.setPV(ply, c.action)
		}
	}
	return l.best
}
