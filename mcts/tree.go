package mcts

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"trench/engine"
)

// Tree is the search tree of one game, rooted at the current state. Its
// methods are safe for concurrent use, but Reset and Advance must not run
// while a search has leaves out for evaluation.
type Tree struct {
	params  Params
	players int
	root    engine.State
	a       arena
	spare   arena // the other half of Advance's compaction
	rng     *rand.Rand

	mu   sync.Mutex
	cond sync.Cond // broadcast after every backup, for searchers that collided

	target, started, finished int  // this search's simulations
	noised                    bool // the root's priors carry Dirichlet noise
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
// arena's memory is kept.
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

// Size is the number of nodes in the arena.
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
	child := int32(-1)
	if t.a.nodes[0].status == expanded {
		first, end := t.a.children(0)
		for c := first; c < end; c++ {
			if int(t.a.nodes[c].action) == action {
				child = c
			}
		}
		if child < 0 {
			return fmt.Errorf("mcts: advance by %d: %w in %s", action, engine.ErrIllegalAction, t.root)
		}
		t.root.Play(action)
	} else if err := engine.PlayChecked(t.root, action); err != nil {
		return fmt.Errorf("mcts: advance: %w", err)
	}
	t.noised = false
	t.target, t.started, t.finished = 0, 0, 0
	if child < 0 || t.a.nodes[child].status != expanded {
		t.a.reset(t.players)
		return nil
	}
	if t.a.compact(child, &t.spare) > t.params.MaxNodes {
		t.a.reset(t.players)
		return nil
	}
	t.a, t.spare = t.spare, t.a
	t.a.nodes[0].action = -1
	return nil
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

// Done reports whether the search begun by BeginSearch is complete.
func (t *Tree) Done() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done()
}

func (t *Tree) done() bool {
	return t.a.nodes[0].status == expanded && t.started >= t.target && t.finished == t.started
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
