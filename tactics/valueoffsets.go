package tactics

// The value offsets: what the value and score heads of a net with a material value base (nn.ValueBaseMaterial) learn a
// correction to, in one place for training and search.
//
// For seat k of a position (player (mover+k) mod players), with lead that
// player's material over the mean of the others' (MaterialLeads):
//
//   - the logit offset o = LeadLogit(lead) is added to the seat's win logit
//     and subtracted from its loss logit, the draw logit unchanged. It is
//     chosen so that a net whose outputs are all zero values the position
//     exactly as the search's material aid does: win − loss =
//     tanh(lead/MaterialScale);
//   - the score offset is the lead in points of final score: so many
//     that the search's score term equals the same material value
//     (scorePerPoint).
//
// Training adds the offsets to the net's outputs before the loss
// (nn.Batch), search adds them to the outputs of nn.Inference (ApplyValueOffsets).
// Games without material (engine.Material) get zero offsets.

import (
	"math"

	"trench/engine"
)

// MaxLead bounds the leads the offsets are drawn from, in points: larger
// leads count as this much, so that no offset is infinite. Its value,
// tanh(30) = 1 − 2·10⁻²⁶, is a certain win.
const MaxLead = 30 * MaterialScale

// HasMaterial reports whether g's pieces have values, which the material
// base needs.
func HasMaterial(g engine.Game) bool {
	_, ok := g.Start().(engine.Material)
	return ok
}

// ClampLead clamps a material lead to [−MaxLead, MaxLead], with NaN as 0.
func ClampLead(lead float32) float32 {
	switch {
	case lead != lead:
		return 0
	case lead > MaxLead:
		return MaxLead
	case lead < -MaxLead:
		return -MaxLead
	}
	return lead
}

// LeadLogit returns the logit offset o of a material lead: with win, draw and
// loss logits (o, 0, −o), win − loss = 2·sinh(o)/(2·cosh(o) + 1), which
// equals tanh(x) for x = ClampLead(lead)/MaterialScale when
// o = x + ln((sinh(x) + √(cosh²(x) + 3))/2) (for x ≥ 0; o is odd in x).
// Near 0, o ≈ 1.5·x; for large x, o ≈ 2·x − ln 2.
func LeadLogit(lead float32) float32 {
	x := float64(ClampLead(lead)) / MaterialScale
	a := math.Abs(x)
	var o float64
	if a > 20 {
		// sinh and cosh agree to 1e-17 here: the formula's limit.
		o = 2*a - math.Ln2
	} else {
		// sinh and cosh from one exponential: (e ∓ 1/e)/2.
		e := math.Exp(a)
		sinh, cosh := (e-1/e)/2, (e+1/e)/2
		o = a + math.Log((sinh+math.Sqrt(cosh*cosh+3))/2)
	}
	return float32(math.Copysign(o, x))
}

// ValueOffsets writes the logit and score offsets of s's first len(logit)
// seats into logit and score (of the same length): seat k is player
// (mover+k) mod players. A game without material gets zeros. leads is
// scratch space for the players' material leads (MaterialLeads),
// returned for the next call: a caller that keeps it allocates nothing.
func ValueOffsets(s engine.State, logit, score, leads []float32) []float32 {
	leads = MaterialLeads(s, leads)
	if len(leads) == 0 {
		clear(logit)
		clear(score)
		return leads
	}
	mover, players := s.ToMove(), len(leads)
	perPoint := scorePerPoint(s.Game())
	for k := range logit {
		lead := ClampLead(leads[(mover+k)%players])
		logit[k] = LeadLogit(lead)
		score[k] = lead * perPoint
	}
	return leads
}

// scorePerPoint is the score offset of one point of material lead in
// game g: ScoreScale/(4·MaterialScale) for a game with a score scale
// (engine.ScoreScaler), so that the search's score term,
// tanh(4·score/ScoreScale), equals the material value tanh(lead/
// MaterialScale) for a net whose outputs are zero; 1 otherwise. In Trench
// (scale 36) a point of lead is 0.9 points of final score; in Trichess,
// whose scores are title points (scale 3), 0.075.
func scorePerPoint(g engine.Game) float32 {
	if sc, ok := g.(engine.ScoreScaler); ok {
		return sc.ScoreScale() / (4 * MaterialScale)
	}
	return 1
}

// ApplyValueOffsets adds the material offsets of s to the outputs of a net with a
// material value base for s: wdl holds 3 win/draw/loss probabilities per
// seat, score one predicted score per seat, in points. Each seat's
// probabilities become softmax(log(wdl) + (o, 0, −o)), which is what the
// net's softmax gives with the offsets added to its logits, and its score
// gains the lead. leads is scratch space, returned for the next call (see
// ValueOffsets).
func ApplyValueOffsets(s engine.State, wdl, score, leads []float32) []float32 {
	var lb, sb [8]float32
	logit, off := lb[:], sb[:]
	if n := len(score); n > len(lb) {
		logit, off = make([]float32, n), make([]float32, n)
	}
	logit, off = logit[:len(score)], off[:len(score)]
	leads = ValueOffsets(s, logit, off, leads)
	for k, o := range logit {
		shift(wdl[3*k:3*k+3], o)
		score[k] += off[k]
	}
	return leads
}

// shift turns the probabilities p (win, draw, loss) into
// softmax(log(p) + (o, 0, −o)), in log space so that a large offset does
// not overflow.
func shift(p []float32, o float32) {
	l := [3]float64{math.Log(float64(p[0])) + float64(o), math.Log(float64(p[1])), math.Log(float64(p[2])) - float64(o)}
	m := max(l[0], l[1], l[2])
	var sum float64
	for i, v := range l {
		l[i] = math.Exp(v - m)
		sum += l[i]
	}
	for i, v := range l {
		p[i] = float32(v / sum)
	}
}
