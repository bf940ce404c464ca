package mcts

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"trench/engine"
)

// Tree is the search tree of one game, rooted at the current state. Its
// methods are safe for concurrent use, but Reset, Advance and AdvanceTo
// must not run while a search has leaves out for evaluation.
type Tree struct {
	params  Params
	players int
	root    engine.State
	a       nodeStore
	spare   nodeStore // the other half of Advance's compaction
	rng     *rand.Rand

	mu   sync.Mutex
	cond sync.Cond // broadcast after every backup, for searchers that collided

	target, started, finished int       // this search's simulations
	noised                    bool      // the root's priors carry Dirichlet noise
	clean                     []float32 // the root's priors before the noise, while noised
	gumbel                    []float64
	seqVisits                 []int32 // root children's visits in this search
	schedule                  []int32 // Gumbel: the considered visit count per simulation
	sigma, probs              []float64
}

// ErrGameOver is returned when searching a finished game.
var ErrGameOver = errors.New("mcts: the game is over")

// NewTree returns a tree rooted at a copy of root.
func NewTree(root engine.State, params Params) (*Tree, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	t := &Tree{params: params, rng: rand.New(rand.NewPCG(params.Seed, 0x6d637473))}
	t.cond.L = &t.mu
	t.Reset(root)
	return t, nil
}

// Params returns the tree's parameters.
func (t *Tree) Params() Params { return t.params }

// Reset drops the tree and roots it at a copy of root, for a new game. The
// node store's memory is kept.
func (t *Tree) Reset(root engine.State) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reset(root.Clone())
}

// reset roots the tree at root, which the tree now owns.
func (t *Tree) reset(root engine.State) {
	t.root = root
	t.players = root.Game().Players()
	t.a.reset(t.players)
	t.noised = false
	t.target, t.started, t.finished = 0, 0, 0
}

// State returns a copy of the root state.
func (t *Tree) State() engine.State {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.root.Clone()
}

// Size is the number of nodes in the node store.
func (t *Tree) Size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.a.nodes)
}

// Advance plays action at the root and keeps the subtree below it as the
// new tree, compacted; the subtree is dropped if it exceeds
// Params.MaxNodes. The error wraps engine.ErrIllegalAction for an action
// that is not legal.
func (t *Tree) Advance(action int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	child := t.rootChild(action)
	if t.a.nodes[0].status == expanded {
		if child < 0 {
			return fmt.Errorf("mcts: advance by %d: %w in %s", action, engine.ErrIllegalAction, t.root)
		}
		t.root.Play(action)
	} else if err := engine.PlayChecked(t.root, action); err != nil {
		return fmt.Errorf("mcts: advance: %w", err)
	}
	t.keep(child)
	return nil
}

// rootChild returns the root's child reached by action, or -1 when the
// root is not expanded or action is not one of its moves; t.mu is held.
func (t *Tree) rootChild(action int) int32 {
	if t.a.nodes[0].status != expanded {
		return -1
	}
	first, end := t.a.children(0)
	for c := first; c < end; c++ {
		if int(t.a.nodes[c].action) == action {
			return c
		}
	}
	return -1
}

// keep makes node n (or none, for n < 0) the root of the tree, whose root
// state has already been moved there: its subtree is kept, compacted,
// unless it holds no evaluation or more than Params.MaxNodes nodes.
func (t *Tree) keep(n int32) {
	t.noised = false
	t.target, t.started, t.finished = 0, 0, 0
	if n < 0 || t.a.nodes[n].status != expanded {
		t.a.reset(t.players)
		return
	}
	if t.a.compact(n, &t.spare) > t.params.MaxNodes {
		t.a.reset(t.players)
		return
	}
	t.a, t.spare = t.spare, t.a
	t.a.nodes[0].action = -1
}

// AdvanceTo moves the root to s when s follows it by s.Ply() minus the
// root's ply moves through the tree's expanded nodes (positions compare
// by hash and text form), keeping the subtree below s as Advance does,
// and reports whether it did. Any other s leaves the tree as it is: the
// tree holds nothing below such a position, so Reset(s) loses nothing.
// The walk visits at most the tree's nodes within that many plies.
func (t *Tree) AdvanceTo(s engine.State) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	depth := s.Ply() - t.root.Ply()
	if depth < 1 || t.a.nodes[0].status != expanded {
		return false
	}
	path := make([]int32, depth)
	if !t.findPath(0, t.root, s.Hash(), s.String(), path, 0) {
		return false
	}
	for _, n := range path {
		t.root.Play(int(t.a.nodes[n].action))
	}
	t.keep(path[depth-1])
	return true
}

// findPath fills path[level:] with the nodes that lead from node parent,
// at state st, through expanded nodes to the position whose hash and text
// are hash and text, and reports whether it found them. It tries the
// most visited children first: the moves a game goes on with are mostly
// the ones the search expected.
func (t *Tree) findPath(parent int32, st engine.State, hash uint64, text string, path []int32, level int) bool {
	last := level == len(path)-1
	first, end := t.a.children(parent)
	order := make([]int32, 0, end-first)
	for c := first; c < end; c++ {
		if last || t.a.nodes[c].status == expanded {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(t.a.nodes[b].visits, t.a.nodes[a].visits) })
	for _, c := range order {
		next := st.Clone()
		next.Play(int(t.a.nodes[c].action))
		path[level] = c
		if last {
			if next.Hash() == hash && next.String() == text {
				return true
			}
		} else if t.findPath(c, next, hash, text, path, level+1) {
			return true
		}
	}
	return false
}

// BeginSearch starts a search of sims simulations from the root; the
// root's own evaluation, if it has none yet, is not counted.
func (t *Tree) BeginSearch(sims int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.root.Over() {
		return ErrGameOver
	}
	if t.started != t.finished {
		return fmt.Errorf("mcts: BeginSearch with %d simulations still out", t.started-t.finished)
	}
	t.target, t.started, t.finished = max(0, sims), 0, 0
	if t.a.nodes[0].status == expanded {
		t.prepareRoot()
	}
	return nil
}

// Done reports whether the search begun by BeginSearch is complete: every
// simulation is finished, or the solver has proven the root and the
// simulations under way are finished.
func (t *Tree) Done() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done()
}

func (t *Tree) done() bool {
	return t.a.nodes[0].status == expanded && t.allStarted() && t.finished == t.started
}

// allStarted reports whether the search needs no more simulations: they
// have all been started, or the solver has proven the root.
func (t *Tree) allStarted() bool {
	return t.started >= t.target || t.a.nodes[0].proven
}

// prepareRoot readies the expanded root for this search: Dirichlet noise
// for PUCT, Gumbel samples and the halving schedule for Gumbel.
func (t *Tree) prepareRoot() {
	switch t.params.Algorithm {
	case PUCT:
		if t.params.DirichletFraction > 0 && !t.noised {
			t.addNoise()
			t.noised = true
		}
	case Gumbel:
		t.sampleGumbel()
	}
}
