// Package mcts is Monte Carlo tree search over any engine game, guided by
// an Evaluator (a batch of states → priors over legal actions and a value
// per player). The root is searched by PUCT, as in AlphaZero, or by Gumbel
// sequential halving, as in Danihelka et al. (ICLR 2022). Nothing assumes
// two players: every node keeps a value per player, and each edge is scored
// for the player who moves at its parent.
//
// A Tree is searched by several goroutines at once with Tree.Search, or
// driven step by step (SelectLeaf, then Backup) so that a BatchSearch can
// evaluate the leaves of many trees in one Evaluate call.
package mcts

import (
	"fmt"
	"math"
)

// Algorithm is the rule for choosing among the root's children.
type Algorithm int

const (
	// PUCT chooses the child maximising Q + U as in AlphaZero, with
	// optional Dirichlet noise, and plays by visit counts.
	PUCT Algorithm = iota
	// Gumbel samples the root's considered actions with Gumbel-top-k,
	// spends the simulations by sequential halving, and plays the
	// surviving action; below the root it selects deterministically from
	// the improved policy.
	Gumbel
)

// String returns "puct" or "gumbel".
func (a Algorithm) String() string {
	switch a {
	case PUCT:
		return "puct"
	case Gumbel:
		return "gumbel"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Params are the knobs of a search.
type Params struct {
	// Algorithm is PUCT or Gumbel.
	Algorithm Algorithm

	// CPUCT weighs priors against values in PUCT selection.
	CPUCT float64
	// CPUCTBase and CPUCTFactor grow the exploration weight with the
	// parent's visits N: c = CPUCT + CPUCTFactor·log((N+CPUCTBase+1)/CPUCTBase).
	// A zero factor turns the growth off.
	CPUCTBase, CPUCTFactor float64
	// FPUReduction sets the value of unvisited children below the root to
	// the parent's value minus FPUReduction·sqrt(sum of visited priors).
	FPUReduction float64
	// RootFPUReduction is FPUReduction at the root.
	RootFPUReduction float64

	// PolicyTemperature flattens (above 1) or sharpens (below 1) the
	// evaluator's priors as they enter the tree: each becomes
	// p^(1/PolicyTemperature), renormalised (lc0's policy softmax
	// temperature). Above 1 the search tries moves the net rates unlikely,
	// such as tactical replies a young net overlooks, sooner. 0 means 1.
	PolicyTemperature float64

	// DirichletAlpha and DirichletFraction mix Dirichlet(alpha) noise into
	// the root's priors (PUCT self-play). A zero fraction disables it.
	DirichletAlpha, DirichletFraction float64
	// Temperature picks the PUCT move with probability proportional to
	// visits^(1/Temperature); 0 plays the most visited child.
	Temperature float64

	// GumbelConsidered is the number m of root actions sampled by
	// Gumbel-top-k.
	GumbelConsidered int
	// GumbelCVisit and GumbelCScale shape σ(q) = (GumbelCVisit + max N)
	// · GumbelCScale · q, with q the completed Q-values mapped from the
	// value range [-1, 1] to [0, 1].
	GumbelCVisit, GumbelCScale float64
	// GumbelScale multiplies the Gumbel noise; 0 makes the search
	// deterministic (top-k of the priors).
	GumbelScale float64

	// Solver proves results in the tree (PUCT with two players whose
	// results sum to zero; see solver.go): a node is won when one of its
	// moves reaches a won node or a finished game its mover wins, and
	// decided when all its moves are decided. Selection then scores a
	// decided move by its exact value and passes over lost ones, the
	// chosen move is a winning one when there is one and never a lost one
	// when there is another, and a search whose root is decided ends.
	Solver bool

	// MinimaxWeight w blends each visited move's minimax value into its Q
	// in PUCT selection: (1-w)·Q + w·minimax (implicit minimax backups,
	// see minimax.go). 0 selects by Q alone.
	MinimaxWeight float64

	// MaxNodes bounds the node store: Advance drops the kept subtree instead of
	// reusing it when it holds more nodes.
	MaxNodes int
	// Seed seeds the tree's random source (noise, Gumbel, temperature).
	Seed uint64
}

// DefaultParams returns PUCT parameters for play: no noise, temperature 0.
func DefaultParams() Params {
	return Params{
		Algorithm:        PUCT,
		CPUCT:            1.25,
		CPUCTBase:        19652,
		FPUReduction:     0,
		RootFPUReduction: 0,
		// Measured: a quick-run net at 200 simulations against greedy,
		// 40 games: 47.5% at 1, 67.5% at 1.5, 62.5% at 2.5.
		PolicyTemperature: 1.5,
		DirichletAlpha:    0.3,
		GumbelConsidered:  16,
		GumbelCVisit:      50,
		GumbelCScale:      1,
		GumbelScale:       1,
		MaxNodes:          1 << 20,
	}
}

// validate checks that the parameters make sense.
func (p Params) validate() error {
	switch {
	case p.Algorithm != PUCT && p.Algorithm != Gumbel:
		return fmt.Errorf("mcts: unknown algorithm %d", int(p.Algorithm))
	case p.CPUCT < 0 || p.CPUCTFactor < 0:
		return fmt.Errorf("mcts: CPUCT %g and CPUCTFactor %g must not be negative", p.CPUCT, p.CPUCTFactor)
	case p.CPUCTFactor > 0 && p.CPUCTBase <= 0:
		return fmt.Errorf("mcts: CPUCTBase %g must be positive when CPUCTFactor is set", p.CPUCTBase)
	case p.PolicyTemperature < 0 || math.IsNaN(p.PolicyTemperature) || math.IsInf(p.PolicyTemperature, 0):
		return fmt.Errorf("mcts: policy temperature %g must be a finite number ≥ 0", p.PolicyTemperature)
	case p.DirichletFraction < 0 || p.DirichletFraction > 1:
		return fmt.Errorf("mcts: DirichletFraction %g is not in [0, 1]", p.DirichletFraction)
	case p.DirichletFraction > 0 && p.DirichletAlpha <= 0:
		return fmt.Errorf("mcts: DirichletAlpha %g must be positive", p.DirichletAlpha)
	case p.Temperature < 0:
		return fmt.Errorf("mcts: Temperature %g must not be negative", p.Temperature)
	case p.Algorithm == Gumbel && p.GumbelConsidered < 1:
		return fmt.Errorf("mcts: GumbelConsidered %d must be at least 1", p.GumbelConsidered)
	case p.GumbelCVisit < 0 || p.GumbelCScale < 0 || p.GumbelScale < 0:
		return fmt.Errorf("mcts: Gumbel constants must not be negative")
	case !(p.MinimaxWeight >= 0 && p.MinimaxWeight <= 1):
		return fmt.Errorf("mcts: MinimaxWeight %g is not in [0, 1]", p.MinimaxWeight)
	case p.MinimaxWeight > 0 && p.Algorithm != PUCT:
		return fmt.Errorf("mcts: minimax backups work with PUCT, not %s", p.Algorithm)
	case p.Solver && p.Algorithm != PUCT:
		return fmt.Errorf("mcts: the solver works with PUCT, not %s", p.Algorithm)
	case p.MaxNodes < 1:
		return fmt.Errorf("mcts: MaxNodes %d must be positive", p.MaxNodes)
	}
	return nil
}
