package generations

import (
	"math"
	"strings"

	"trench/arena"
)

// A new net passes the gate, and plays the next generation's games, in
// one of two ways:
//
//  1. Head to head: the SPRT against the player accepts it (gateAccepts).
//  2. Against the anchors: the head-to-head does not show it worse (its
//     95% interval per pair reaches 0, notWorse), and on the same
//     openings with the same seeds it scores better against the fixed
//     anchors (the hand-written evaluation at --gate-nodes, and the
//     --anchor-net if the run has one) than the player does, by more
//     than --gate-anchor-z standard errors of the paired difference
//     (compareAnchor), averaged over the two anchors (combineAnchors).
//     A net the head-to-head leaves level is then not lost when the
//     fixed anchors see it stronger; the anchor net, which the
//     hand-written evaluation cannot be, stays a match for a strong net.

// gateAccepts tells whether a gate's SPRT makes the new net the player:
// H1 accepted, or the test cut at its last pair undecided with a
// positive log-likelihood ratio (the games favour H1 over H0), as a
// truncated SPRT decides.
func gateAccepts(res arena.SPRTResult) bool {
	return res.Decision == arena.AcceptH1 || res.Decision == arena.Continue && res.LLR > 0
}

// notWorse tells whether the gate's games leave the new net possibly
// as strong as the player: the 95% interval of its Elo per pair reaches
// 0 (or is unknown).
func notWorse(gate arena.Standing) bool {
	return !(gate.PairElo.High < 0)
}

// triesAnchor tells whether the gate's second way is tried for a new
// net whose head-to-head ended as gate and standing say: it is on
// (--gate-anchor-z above 0), and the SPRT neither accepted the new net
// nor showed it worse.
func (c Config) triesAnchor(gate Gate, standing arena.Standing) bool {
	return c.GateAnchorZ > 0 && !gate.Accepted && notWorse(standing)
}

// AnchorComparison is the gate's second way: the new net and the player
// each against the same anchor, on the same openings with the same
// seeds, compared opening by opening.
type AnchorComparison struct {
	// Opponent is the anchor.
	Opponent string
	// Pairs is the openings compared: those whose pair both matches
	// finished.
	Pairs int
	// New and Player are their mean scores a game on those openings.
	New, Player float64
	// Diff is New − Player and SE its standard error, from the spread
	// of the openings' differences.
	Diff, SE float64
	// Z is the margin asked, in standard errors (--gate-anchor-z);
	// Better tells that Diff passed it: Diff > 0 and Diff > Z·SE.
	Z      float64
	Better bool
}

// compareAnchor compares the new net's pair scores against the anchor
// with the player's, opening by opening (pair scores from 0 to 2,
// negative for a pair not finished), at a margin of z standard errors.
// It needs at least two openings to say better.
func compareAnchor(opponent string, cand, player []float64, z float64) AnchorComparison {
	c := AnchorComparison{Opponent: opponent, Z: z}
	var diffs []float64
	for i := range min(len(cand), len(player)) {
		if cand[i] < 0 || player[i] < 0 {
			continue
		}
		c.New += cand[i] / 2
		c.Player += player[i] / 2
		diffs = append(diffs, (cand[i]-player[i])/2)
	}
	n := float64(len(diffs))
	c.Pairs = len(diffs)
	if c.Pairs == 0 {
		return c
	}
	c.New, c.Player = c.New/n, c.Player/n
	c.Diff = c.New - c.Player
	if c.Pairs < 2 {
		return c
	}
	ss := 0.0
	for _, d := range diffs {
		ss += (d - c.Diff) * (d - c.Diff)
	}
	c.SE = math.Sqrt(ss / (n - 1) / n)
	c.Better = c.Diff > 0 && c.Diff > z*c.SE
	return c
}

// pairScores are the first player's score in each opening's pair of a
// match of two players (from 0 to 2), -1 for a pair not finished.
func pairScores(res *arena.Result, pairs int) []float64 {
	scores := make([]float64, pairs)
	games := make([]int, pairs)
	for _, o := range res.Outcomes {
		if o.Table != 0 || o.Group >= pairs {
			continue
		}
		scores[o.Group] += (o.Result[o.Seating] + 1) / 2
		games[o.Group]++
	}
	for i, n := range games {
		if n != 2 {
			scores[i] = -1
		}
	}
	return scores
}

// combineAnchors makes one comparison of the gate's second way from
// each anchor's: their mean difference, whose standard error comes from
// theirs (the anchors' matches are independent), better by z standard
// errors. One comparison is returned as it is; none, or one of fewer
// than two pairs, is never better.
func combineAnchors(each []AnchorComparison, z float64) AnchorComparison {
	if len(each) == 1 {
		return each[0]
	}
	c := AnchorComparison{Z: z}
	if len(each) == 0 {
		return c
	}
	var names []string
	var variance float64
	usable := true
	for _, e := range each {
		names = append(names, e.Opponent)
		c.Pairs += e.Pairs
		c.New += e.New
		c.Player += e.Player
		c.Diff += e.Diff
		variance += e.SE * e.SE
		usable = usable && e.Pairs >= 2
	}
	c.Opponent = strings.Join(names, " and ")
	k := float64(len(each))
	c.New, c.Player, c.Diff = c.New/k, c.Player/k, c.Diff/k
	c.SE = math.Sqrt(variance) / k
	c.Better = usable && c.Diff > 0 && c.Diff > z*c.SE
	return c
}
