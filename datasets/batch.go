package datasets

import (
	"fmt"
	"math/rand/v2"

	"trench/engine"
	"trench/tactics"
)

// Batch holds training tensors for N positions, laid out row by row.
// Values and scores are per seat relative to the player to move: seat k is
// player (mover+k) mod P, so seat 0 is always the mover.
type Batch struct {
	N int
	// Inputs are the feature planes, N × FeatureShape().Size().
	Inputs []float32
	// Policy is the dense policy target, N × ActionCount(), zero where the
	// target has no weight.
	Policy []float32
	// PolicyWeight is 1 for positions whose policy target comes from a full
	// search, else 0 (those train the value only).
	PolicyWeight []float32
	// Result is each seat's final utility, N × P.
	Result []float32
	// SearchValue is each seat's value at the root of the position's
	// search, N × P; the final utility for samples that have none.
	SearchValue []float32
	// ScoreDiff is each seat's final points minus the best of the other
	// players', N × P.
	ScoreDiff []float32
	// LogitOffset and ScoreOffset are each seat's offsets of the
	// material value base (tactics.ValueOffsets), N × P; zero in games
	// without material.
	LogitOffset, ScoreOffset []float32
	// PolicyOffsets, set by the caller before a fill, asks for
	// PolicyOffset: the capture policy base's offsets
	// (tactics.PolicyOffsets), N × ActionCount(), tactics.IllegalOffset on illegal
	// actions.
	PolicyOffsets bool
	PolicyOffset  []float32

	// leads receives the material leads of tactics.ValueOffsets; policy is
	// the scratch space of the policy offsets.
	leads  []float32
	policy tactics.PolicyScratch
}

// Fill samples n positions from the window into b, uniformly or weighted
// by surprise (WindowParams.SurpriseWeight), each mapped by a random
// symmetry of the game when augment is set.
func (w *Window) Fill(b *Batch, n int, rng *rand.Rand, augment bool) error {
	if w.Size() == 0 {
		return fmt.Errorf("no positions in %s yet", w.dir)
	}
	b.reset(w.game, n)
	for i := 0; i < n; i++ {
		sym := 0
		if augment {
			sym = rng.IntN(w.game.Symmetries())
		}
		if err := b.set(w.game, i, w.draw(rng), sym); err != nil {
			return err
		}
	}
	return nil
}

// FillFrom fills b with the given samples, without augmentation.
func (b *Batch) FillFrom(g engine.Game, samples []Sample) error {
	b.reset(g, len(samples))
	for i := range samples {
		if err := b.set(g, i, &samples[i], 0); err != nil {
			return err
		}
	}
	return nil
}

func (b *Batch) reset(g engine.Game, n int) {
	b.N = n
	b.Inputs = grow(b.Inputs, n*g.FeatureShape().Size())
	b.Policy = grow(b.Policy, n*g.ActionCount())
	clear(b.Policy)
	b.PolicyWeight = grow(b.PolicyWeight, n)
	b.Result = grow(b.Result, n*g.Players())
	b.SearchValue = grow(b.SearchValue, n*g.Players())
	b.ScoreDiff = grow(b.ScoreDiff, n*g.Players())
	b.LogitOffset = grow(b.LogitOffset, n*g.Players())
	b.ScoreOffset = grow(b.ScoreOffset, n*g.Players())
	if b.PolicyOffsets {
		b.PolicyOffset = grow(b.PolicyOffset, n*g.ActionCount())
	} else {
		b.PolicyOffset = b.PolicyOffset[:0]
	}
}

// set writes sample r, mapped by symmetry sym, as row i.
func (b *Batch) set(g engine.Game, i int, r *Sample, sym int) error {
	s, err := g.ParseState(r.State)
	if err != nil {
		return fmt.Errorf("training position %q: %w", r.State, err)
	}
	fs, a, p := g.FeatureShape().Size(), g.ActionCount(), g.Players()
	t := s
	if sym != 0 {
		t = s.Transform(sym)
	}
	t.EncodeFeatures(b.Inputs[i*fs : (i+1)*fs])
	policy := b.Policy[i*a : (i+1)*a]
	for j, act := range r.Actions {
		policy[s.TransformAction(sym, int(act))] += r.Probs[j]
	}
	b.PolicyWeight[i] = 0
	if r.FullSearch && len(r.Actions) > 0 {
		b.PolicyWeight[i] = 1
	}
	b.leads = tactics.ValueOffsets(s, b.LogitOffset[i*p:(i+1)*p], b.ScoreOffset[i*p:(i+1)*p], b.leads)
	if b.PolicyOffsets {
		tactics.PolicyOffsetRow(s, sym, b.PolicyOffset[i*a:(i+1)*a], &b.policy)
	}
	for k := 0; k < p; k++ {
		pl := (r.ToMove + k) % p
		b.Result[i*p+k] = r.Result[pl]
		b.SearchValue[i*p+k] = r.Result[pl]
		if r.SearchValue != nil {
			b.SearchValue[i*p+k] = r.SearchValue[pl]
		}
		var best float32
		for o, first := 0, true; o < p; o++ {
			if o != pl && (first || r.Score[o] > best) {
				best, first = r.Score[o], false
			}
		}
		b.ScoreDiff[i*p+k] = r.Score[pl] - best
	}
	return nil
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
