package tactics

import (
	"trench/engine"
	"trench/mcts"
)

// FallbackDoc describes Fallback for people.
const FallbackDoc = "no net: a search with capture-first priors and a material evaluation"

// Fallback is the evaluator for a game without a net. Its priors are
// CapturePriors: proportional to 1 + the material a move takes
// from the other players + a small jitter, so that captures are searched
// first and equal moves are not always taken in the same order, while the
// evaluation stays a function of the position. Each player's value is its
// material lead over the mean of the others, tanh(lead/10), for games
// whose states report their material (engine.Material, as Trench's and
// Trichess's do); for other games every value is 0,
// as with mcts.UniformEvaluator. The search still sees every ending exactly, so it
// takes a mate in reach and avoids one, but it has no sense of position.
type Fallback struct{}

// Evaluate fills out[i] for states[i].
func (Fallback) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	for i, s := range states {
		o := &out[i]
		acts := o.Actions
		if acts == nil {
			acts = s.LegalActions(nil)
		}
		o.Policy = CapturePriors(s, acts, o.Policy)
		o.Values = MaterialValues(s, o.Values)
		for len(o.Values) < s.Game().Players() {
			o.Values = append(o.Values, 0)
		}
	}
	return nil
}
