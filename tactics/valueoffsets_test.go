package tactics

import (
	"math"
	"math/rand/v2"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
)

// winMinusLoss is win − loss of softmax(z) for logits z, in float64.
func winMinusLoss(z [3]float64) float64 {
	m := max(z[0], z[1], z[2])
	w, d, l := math.Exp(z[0]-m), math.Exp(z[1]-m), math.Exp(z[2]-m)
	return (w - l) / (w + d + l)
}

// TestLogitGivesMaterialValue checks the relation LeadLogit promises: with
// logits (o, 0, −o), win − loss is the material aid's value
// tanh(lead/MaterialScale), leads beyond MaxLead counting as MaxLead.
func TestLogitGivesMaterialValue(t *testing.T) {
	for _, tc := range []struct {
		lead, counted float32
	}{
		{0, 0}, {0.25, 0.25}, {-1, -1}, {3, 3}, {-5, -5}, {10, 10}, {-17.5, -17.5}, {36, 36}, {-36, -36},
		{150, 150}, {199, 199}, {201, 201}, {-250, -250}, {MaxLead, MaxLead},
		{1e6, MaxLead}, {-1e30, -MaxLead}, {float32(math.Inf(1)), MaxLead}, {float32(math.Inf(-1)), -MaxLead},
		{float32(math.NaN()), 0},
	} {
		o := float64(LeadLogit(tc.lead))
		if math.IsNaN(o) || math.IsInf(o, 0) {
			t.Errorf("LeadLogit(%v) = %v", tc.lead, o)
			continue
		}
		got, want := winMinusLoss([3]float64{o, 0, -o}), math.Tanh(float64(tc.counted)/MaterialScale)
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("lead %v: logit %v gives win − loss %v, want tanh(%v/%v) = %v", tc.lead, o, got, tc.counted, MaterialScale, want)
		}
		if l := ClampLead(tc.lead); l != tc.counted && !(l == 0 && tc.counted == 0) {
			t.Errorf("ClampLead(%v) = %v, want %v", tc.lead, l, tc.counted)
		}
	}
	// Every quarter point of lead up to MaxLead.
	for lead := float32(-MaxLead); lead <= MaxLead; lead += 0.25 {
		o := float64(LeadLogit(lead))
		got, want := winMinusLoss([3]float64{o, 0, -o}), math.Tanh(float64(lead)/MaterialScale)
		if math.Abs(got-want) > 1e-6 {
			t.Fatalf("lead %v: logit %v gives win − loss %v, want %v", lead, o, got, want)
		}
	}
	// Around 0 the offset is 1.5 times the scaled lead.
	if o := LeadLogit(0.01); math.Abs(float64(o)-0.0015) > 1e-6 {
		t.Errorf("LeadLogit(0.01) = %v, want about 0.0015", o)
	}
}

// softmax3 is softmax(z) in float64.
func softmax3(z [3]float64) [3]float64 {
	m := max(z[0], z[1], z[2])
	var e [3]float64
	var sum float64
	for i, v := range z {
		e[i] = math.Exp(v - m)
		sum += e[i]
	}
	for i := range e {
		e[i] /= sum
	}
	return e
}

// randomPositions plays random games of g and returns n of their
// positions that are not over, from later plies too.
func randomPositions(g engine.Game, n int, seed uint64) []engine.State {
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []engine.State
	for len(out) < n {
		s := g.Start()
		for ply := 0; ply < 120 && !s.Over() && len(out) < n; ply++ {
			if rng.IntN(4) == 0 {
				out = append(out, s.Clone())
			}
			acts := s.LegalActions(nil)
			s.Play(acts[rng.IntN(len(acts))])
		}
	}
	return out
}

// TestOffsetsPerSeat checks each seat's offsets against the players'
// material, counted here: seat k is player (mover+k) mod players, and its
// lead is its material less the mean of the others'.
func TestOffsetsPerSeat(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		unequal := 0
		for _, s := range randomPositions(g, 200, 1) {
			mat := s.(engine.Material).Materials(nil)
			p := len(mat)
			logit, score := make([]float32, p), make([]float32, p)
			ValueOffsets(s, logit, score, nil)
			for k := range p {
				pl := (s.ToMove() + k) % p
				var others float64
				for o, m := range mat {
					if o != pl {
						others += float64(m)
					}
				}
				lead := float64(mat[pl]) - others/float64(p-1)
				if lead != 0 {
					unequal++
				}
				// The score offset values the lead as the material aid
				// does: tanh(4·score/ScoreScale) = tanh(lead/MaterialScale).
				want := lead * float64(g.(engine.ScoreScaler).ScoreScale()) / (4 * MaterialScale)
				if math.Abs(float64(score[k])-want) > 1e-4 {
					t.Fatalf("%s %s seat %d: score offset %v, want %v for the lead %v of player %d (materials %v)", g.Name(), s, k, score[k], want, lead, pl, mat)
				}
				if want := LeadLogit(float32(lead)); math.Abs(float64(logit[k]-want)) > 1e-5 {
					t.Fatalf("%s %s seat %d: logit offset %v, want %v", g.Name(), s, k, logit[k], want)
				}
			}
			// A prefix of the seats (one seat for a two-player net) gets
			// the same offsets.
			l1, s1 := make([]float32, 1), make([]float32, 1)
			ValueOffsets(s, l1, s1, nil)
			if l1[0] != logit[0] || s1[0] != score[0] {
				t.Fatalf("%s %s: seat 0's offsets alone %v %v, with all seats %v %v", g.Name(), s, l1[0], s1[0], logit[0], score[0])
			}
		}
		if unequal == 0 {
			t.Errorf("%s: no position with a material lead among the random ones", g.Name())
		}
	}
}

// TestOffsetsAllocateNothing checks that ValueOffsets and ApplyValueOffsets, given back
// the scratch space they return, allocate nothing: search calls them for
// every position a net with the material base evaluates.
func TestOffsetsAllocateNothing(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game, tictactoe.Game{}} {
		states := randomPositions(g, 20, 3)
		p := g.Players()
		logit, score, wdl := make([]float32, p), make([]float32, p), make([]float32, 3*p)
		var leads []float32
		for _, s := range states {
			leads = ValueOffsets(s, logit, score, leads) // grows leads once
		}
		if n := testing.AllocsPerRun(10, func() {
			for _, s := range states {
				leads = ValueOffsets(s, logit, score, leads)
				for i := range wdl {
					wdl[i] = 1.0 / 3
				}
				leads = ApplyValueOffsets(s, wdl, score, leads)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations for %d positions, want none", g.Name(), n, len(states))
		}
	}
}

// TestNoMaterial checks that a game whose pieces have no values gets
// zero offsets, and that ApplyValueOffsets then leaves a net's outputs alone.
func TestNoMaterial(t *testing.T) {
	if HasMaterial(tictactoe.Game{}) {
		t.Error("HasMaterial(tictactoe) is true")
	}
	if !HasMaterial(trench.Game) || !HasMaterial(trichess.Game) {
		t.Error("HasMaterial is false for trench or trichess")
	}
	s := tictactoe.Game{}.Start()
	s.Play(4)
	logit, score := []float32{7}, []float32{7}
	ValueOffsets(s, logit, score, nil)
	if logit[0] != 0 || score[0] != 0 {
		t.Errorf("tictactoe offsets %v %v, want 0 0", logit[0], score[0])
	}
	wdl, sc := []float32{0.5, 0.3, 0.2}, []float32{1.5}
	ApplyValueOffsets(s, wdl, sc, nil)
	if math.Abs(float64(wdl[0]-0.5)) > 1e-7 || math.Abs(float64(wdl[2]-0.2)) > 1e-7 || sc[0] != 1.5 {
		t.Errorf("ApplyValueOffsets changed tictactoe's outputs to %v %v", wdl, sc)
	}
}

// TestApplyShiftsLogits checks ApplyValueOffsets against the softmax of the net's
// logits with the offsets added, on random logits and positions.
func TestApplyShiftsLogits(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		for _, s := range randomPositions(g, 100, 3) {
			p := g.Players()
			logit, off := make([]float32, p), make([]float32, p)
			ValueOffsets(s, logit, off, nil)
			z := make([][3]float64, p)
			wdl, score := make([]float32, 3*p), make([]float32, p)
			for k := range p {
				z[k] = [3]float64{rng.NormFloat64() * 2, rng.NormFloat64() * 2, rng.NormFloat64() * 2}
				q := softmax3(z[k])
				wdl[3*k], wdl[3*k+1], wdl[3*k+2] = float32(q[0]), float32(q[1]), float32(q[2])
				score[k] = float32(rng.NormFloat64() * 5)
			}
			before := append([]float32(nil), score...)
			ApplyValueOffsets(s, wdl, score, nil)
			for k := range p {
				o := float64(logit[k])
				want := softmax3([3]float64{z[k][0] + o, z[k][1], z[k][2] - o})
				for j := range 3 {
					if math.Abs(float64(wdl[3*k+j])-want[j]) > 1e-5 {
						t.Fatalf("%s %s seat %d: probabilities %v, want %v", g.Name(), s, k, wdl[3*k:3*k+3], want)
					}
				}
				if score[k] != before[k]+off[k] {
					t.Fatalf("%s %s seat %d: score %v, want %v + %v", g.Name(), s, k, score[k], before[k], off[k])
				}
			}
		}
	}
}

// FuzzShift checks that no lead and no probabilities a softmax can give
// make Apply's shift produce NaN, infinities or probabilities that do not
// sum to 1.
func FuzzShift(f *testing.F) {
	f.Add(float32(0), float32(1), float32(1), float32(1))
	f.Add(float32(1e30), float32(0), float32(1), float32(0))
	f.Add(float32(-1e30), float32(1), float32(0), float32(0))
	f.Add(float32(math.Inf(1)), float32(1e-30), float32(1), float32(1e-30))
	f.Add(float32(math.NaN()), float32(2), float32(1), float32(3))
	f.Fuzz(func(t *testing.T, lead, a, b, c float32) {
		// The net's probabilities: non-negative, finite, not all zero.
		for _, v := range []float32{a, b, c} {
			if !(v >= 0) || math.IsInf(float64(v), 0) {
				t.Skip()
			}
		}
		sum := float64(a) + float64(b) + float64(c)
		if !(sum > 0) {
			t.Skip()
		}
		o := LeadLogit(lead)
		if math.IsNaN(float64(o)) || math.IsInf(float64(o), 0) {
			t.Fatalf("LeadLogit(%v) = %v", lead, o)
		}
		p := []float32{float32(float64(a) / sum), float32(float64(b) / sum), float32(float64(c) / sum)}
		if p[0]+p[1]+p[2] == 0 {
			t.Skip()
		}
		shift(p, o)
		total := 0.0
		for _, v := range p {
			if math.IsNaN(float64(v)) || v < 0 || v > 1 {
				t.Fatalf("lead %v, probabilities %v %v %v: shifted to %v", lead, a, b, c, p)
			}
			total += float64(v)
		}
		if math.Abs(total-1) > 1e-5 {
			t.Fatalf("lead %v: shifted probabilities %v sum to %v", lead, p, total)
		}
	})
}

// BenchmarkOffsets computes the offsets of 64 positions, as search does
// for every position a net with the material base evaluates and the
// batch builder for every training position.
func BenchmarkOffsets(b *testing.B) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		states := randomPositions(g, 64, 2)
		p := len(states[0].(engine.Material).Materials(nil))
		logit, score := make([]float32, p), make([]float32, p)
		var leads []float32
		b.Run(g.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range states {
					leads = ValueOffsets(s, logit, score, leads)
				}
			}
		})
	}
}
