package tactics

// The policy offsets: what the policy head of a net with a capture policy
// base (nn.PolicyBaseCapture) learns a correction to, in one place for
// training and search.
//
// A legal action's offset is the logarithm of its capture-first prior
// (CapturePriors), so that a net whose policy outputs are all
// zero gives exactly the priors of the search's capture aid; the net
// learns how far the search's targets move away from them. Training also
// gives every illegal action the offset IllegalOffset, so that its softmax,
// like the priors of search, spreads over the legal actions alone.

import (
	"math"

	"trench/engine"
)

// IllegalOffset is an illegal action's offset in training: e^−40 ≈ 4·10⁻¹⁸ of
// the weight of a legal action, none in float32 arithmetic.
const IllegalOffset = -40

// PolicyOffsets writes to dst[:0] the offset of each of actions (s's legal
// actions): the logarithm of its capture-first prior. priors is scratch
// space for the priors, returned for the next call with dst.
func PolicyOffsets(s engine.State, actions []int, dst, priors []float32) ([]float32, []float32) {
	priors = CapturePriors(s, actions, priors)
	dst = dst[:0]
	for _, p := range priors {
		dst = append(dst, float32(math.Log(float64(p))))
	}
	return dst, priors
}

// PolicyScratch is reusable space for PolicyOffsetRow; a caller that keeps one allocates
// nothing once it has grown.
type PolicyScratch struct {
	actions        []int
	logits, priors []float32
}

// PolicyOffsetRow writes into row, one entry per action of s's game, each action's
// offset in training: for a legal action a of s, its PolicyOffsets offset at
// s.TransformAction(sym, a) (symmetry 0 leaves actions in place); IllegalOffset
// everywhere else.
func PolicyOffsetRow(s engine.State, sym int, row []float32, sc *PolicyScratch) {
	for j := range row {
		row[j] = IllegalOffset
	}
	sc.actions = s.LegalActions(sc.actions)
	sc.logits, sc.priors = PolicyOffsets(s, sc.actions, sc.logits, sc.priors)
	for j, a := range sc.actions {
		row[s.TransformAction(sym, a)] = sc.logits[j]
	}
}
