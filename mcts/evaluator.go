package mcts

import (
	"fmt"

	"trench/engine"
)

// Evaluation is the evaluator's answer for one state. The search owns the
// buffers and reuses them from call to call.
type Evaluation struct {
	// Actions holds the state's legal actions in LegalActions order, set
	// by the caller so that evaluators need not compute them again.
	Actions []int
	// Policy receives a probability per legal action, aligned with
	// Actions. Evaluators write it as append(Policy[:0], ...).
	Policy []float32
	// Values receives each player's expected utility in [-1, 1], indexed
	// by absolute player number. Evaluators write it as
	// append(Values[:0], ...).
	Values []float32
}

// Evaluator scores states for the search: out[i] answers states[i]. It
// must not keep the states or the buffers after returning.
type Evaluator interface {
	Evaluate(states []engine.State, out []Evaluation) error
}

// UniformEvaluator gives every legal action the same prior and every
// player the value 0.
type UniformEvaluator struct{}

// Evaluate fills out with uniform priors and zero values.
func (UniformEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	for i, s := range states {
		e := &out[i]
		p := float32(1) / float32(max(1, len(e.Actions)))
		e.Policy = e.Policy[:0]
		for range e.Actions {
			e.Policy = append(e.Policy, p)
		}
		e.Values = e.Values[:0]
		for range s.Game().Players() {
			e.Values = append(e.Values, 0)
		}
	}
	return nil
}

// PriorEvaluator gives each action it lists that prior, every other
// legal action 0.001 (the search normalises them), and every player the
// value 0: a search steered toward chosen moves, as tests of what happens
// after the search need.
type PriorEvaluator map[int]float32

// Evaluate fills out with the listed priors and zero values.
func (pe PriorEvaluator) Evaluate(states []engine.State, out []Evaluation) error {
	for i, s := range states {
		e := &out[i]
		e.Policy = e.Policy[:0]
		for _, a := range e.Actions {
			p, ok := pe[a]
			if !ok {
				p = 0.001
			}
			e.Policy = append(e.Policy, p)
		}
		e.Values = e.Values[:0]
		for range s.Game().Players() {
			e.Values = append(e.Values, 0)
		}
	}
	return nil
}

// check reports whether e is a well-formed answer for a game with players
// players.
func (e *Evaluation) check(players int) error {
	if len(e.Policy) != len(e.Actions) {
		return fmt.Errorf("mcts: evaluator returned %d priors for %d legal actions", len(e.Policy), len(e.Actions))
	}
	if len(e.Values) != players {
		return fmt.Errorf("mcts: evaluator returned %d values for %d players", len(e.Values), players)
	}
	return nil
}
