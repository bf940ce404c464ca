package bot

import (
	"math"

	"trench/engine"
	"trench/mcts"
)

// FallbackDoc describes Fallback for people.
const FallbackDoc = "no net: a search with capture-first priors and a material evaluation"

// materialScale is the material lead (in points) that tanh maps to a
// value of 0.76: a rook ahead of the other players' mean is worth about
// 0.46.
const materialScale = 10

// Fallback is the evaluator for a game without a net. Each legal move's
// prior is proportional to 1 + the material it takes from the other
// players (for games whose states report material, engine.Material)
// + a jitter in [0, 0.5) drawn from the position's hash and the move, so
// that captures are searched first and equal moves are not always taken
// in the same order, while the evaluation stays a function of the
// position. Each player's value is its material lead over the mean of the
// others, tanh(lead/10), for games whose states report their material
// (engine.Material, as Trichess's do); for other games every value is 0,
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
		o.Policy = o.Policy[:0]
		var sum float32
		for _, a := range acts {
			o.Policy = append(o.Policy, 1+0.5*jitter(s.Hash(), a)+taken(s, a))
			sum += o.Policy[len(o.Policy)-1]
		}
		for j := range o.Policy {
			o.Policy[j] /= sum
		}
		players := s.Game().Players()
		o.Values = o.Values[:0]
		for range players {
			o.Values = append(o.Values, 0)
		}
		ms, ok := s.(engine.Material)
		if !ok || players < 2 {
			continue
		}
		mat := ms.Materials(nil)
		var total float64
		for _, m := range mat {
			total += float64(m)
		}
		for c := range players {
			own := float64(mat[c])
			lead := own - (total-own)/float64(players-1)
			o.Values[c] = float32(math.Tanh(lead / materialScale))
		}
	}
	return nil
}

// taken is the material that action a takes from the players other than
// the mover, or 0 for games whose states do not report material.
func taken(s engine.State, a int) float32 {
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
