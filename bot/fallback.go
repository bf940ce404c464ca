package bot

import (
	"math"

	"trench/engine"
	"trench/engine/trichess"
	"trench/mcts"
)

// FallbackDoc describes Fallback for people.
const FallbackDoc = "no net: search with uniform priors and a material evaluation"

// materialScale is the material lead (in points) that tanh maps to a
// value of 0.76: a rook ahead of the other players' mean is worth about
// 0.46.
const materialScale = 10

// Fallback is the evaluator for a game without a net: every legal move
// gets the same prior, and each player's value is its material lead over
// the mean of the others, tanh(lead/10), for games whose states know their
// material (Trichess); for other games every value is 0, as with
// mcts.UniformEvaluator. The search still sees every ending exactly, so
// it takes a mate in reach and avoids one, but it has no sense of
// position.
type Fallback struct{}

// Evaluate fills out[i] for states[i].
func (Fallback) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	for i, s := range states {
		o := &out[i]
		acts := o.Actions
		if acts == nil {
			acts = s.LegalActions(nil)
		}
		o.Policy = o.Policy[:0]
		for range acts {
			o.Policy = append(o.Policy, 1/float32(len(acts)))
		}
		players := s.Game().Players()
		o.Values = o.Values[:0]
		for range players {
			o.Values = append(o.Values, 0)
		}
		ts, ok := s.(*trichess.State)
		if !ok {
			continue
		}
		var total float64
		for c := range players {
			total += float64(ts.Material(trichess.Color(c)))
		}
		for c := range players {
			own := float64(ts.Material(trichess.Color(c)))
			lead := own - (total-own)/float64(players-1)
			o.Values[c] = float32(math.Tanh(lead / materialScale))
		}
	}
	return nil
}
