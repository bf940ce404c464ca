package generations

import (
	"math"
	"slices"
	"strings"
	"testing"

	"trench/arena"
)

// pairs is n openings' pair scores of score each.
type pairs struct {
	n     int
	score float64
}

// pairsOf lists the pair scores of runs of openings.
func pairsOf(runs ...pairs) []float64 {
	var out []float64
	for _, r := range runs {
		for range r.n {
			out = append(out, r.score)
		}
	}
	return out
}

// TestGateWays checks the gate's two ways on synthetic match results:
// the SPRT head to head, then, for a net it leaves level, the paired
// comparison against the anchor.
func TestGateWays(t *testing.T) {
	level := arena.Interval{Elo: 0, Low: -33.5, High: 33.5}
	worse := arena.Interval{Elo: -60, Low: -95, High: -25}
	undecided := arena.SPRTResult{Decision: arena.Continue, LLR: -0.26}
	// 50 openings against the anchor, the player winning both games of
	// 32 and one of 18: 91%, the anchor's score of r2's generation 10.
	// Generation 11 scored 94%, winning both games of 7 of those 18 and
	// losing one more game on another: +3% a game, paired.
	player := pairsOf(pairs{32, 2}, pairs{18, 1.5})
	gen11 := pairsOf(pairs{32, 2}, pairs{7, 2}, pairs{10, 1.5}, pairs{1, 1})
	oneBetter := pairsOf(pairs{32, 2}, pairs{1, 2}, pairs{17, 1.5})
	for _, tc := range []struct {
		name           string
		sprt           arena.SPRTResult
		gate           arena.Interval
		cand, player   []float64
		z              float64
		tried, accepts bool
	}{
		{"H1 accepted", arena.SPRTResult{Decision: arena.AcceptH1, LLR: 2.95}, arena.Interval{Elo: 40, Low: 10, High: 70}, player, player, 1.645, false, true},
		{"cut with a positive LLR", arena.SPRTResult{Decision: arena.Continue, LLR: 2.33}, arena.Interval{Elo: 30, Low: -2, High: 62}, player, player, 1.645, false, true},
		{"r2 generation 11: level head to head, better against the anchor", undecided, level, gen11, player, 1.645, true, true},
		{"level, the anchor's pairs alike", undecided, level, player, player, 1.645, true, false},
		{"level, better on one opening only", undecided, level, oneBetter, player, 1.645, true, false},
		{"level, worse against the anchor", undecided, level, player, gen11, 1.645, true, false},
		{"shown worse head to head", arena.SPRTResult{Decision: arena.AcceptH0, LLR: -2.95}, worse, gen11, player, 1.645, false, false},
		{"second way off", undecided, level, gen11, player, 0, false, false},
		{"a lower margin takes weaker evidence", undecided, level, oneBetter, player, 0.5, true, true},
		{"unknown interval: not shown worse", undecided, arena.Interval{Elo: math.NaN(), Low: math.NaN(), High: math.NaN()}, gen11, player, 1.645, true, true},
	} {
		c := Config{GateAnchorZ: tc.z}
		g := Gate{Accepted: gateAccepts(tc.sprt)}
		tried := c.triesAnchor(g, arena.Standing{PairElo: tc.gate})
		if tried != tc.tried {
			t.Errorf("%s: second way tried %v, want %v", tc.name, tried, tc.tried)
		}
		if tried {
			cmp := compareAnchor("alphabeta-hand:nodes=20000", tc.cand, tc.player, tc.z)
			g.Accepted = cmp.Better
			t.Logf("%s: %+v", tc.name, cmp)
		}
		if g.Accepted != tc.accepts {
			t.Errorf("%s: accepted %v, want %v", tc.name, g.Accepted, tc.accepts)
		}
	}
}

func TestCompareAnchor(t *testing.T) {
	cand := []float64{2, 2, 1, -1, 0}
	player := []float64{2, 1, 1, 2, -1}
	c := compareAnchor("hand", cand, player, 1.5)
	// Openings 0-2 compared: 5/6 against 4/6 a game.
	if c.Pairs != 3 || math.Abs(c.New-5.0/6) > 1e-12 || math.Abs(c.Player-4.0/6) > 1e-12 || math.Abs(c.Diff-1.0/6) > 1e-12 {
		t.Errorf("compared %+v", c)
	}
	// Differences 0, ½, 0: standard deviation 1/(2√3), error √3/6/√3 = 1/6.
	if math.Abs(c.SE-1.0/6) > 1e-12 || c.Better {
		t.Errorf("standard error %g, better %v; want 1/6 and not better at 1.5 errors", c.SE, c.Better)
	}
	if c := compareAnchor("hand", cand, player, 0.5); !c.Better {
		t.Errorf("not better at half an error: %+v", c)
	}
	if one := compareAnchor("hand", []float64{2}, []float64{0}, 1); one.Better || one.Pairs != 1 {
		t.Errorf("one opening: %+v, want not better", one)
	}
	if none := compareAnchor("hand", nil, nil, 1); none.Better || none.Pairs != 0 || none.New != 0 {
		t.Errorf("no openings: %+v", none)
	}
	if all := compareAnchor("hand", slices.Repeat([]float64{2}, 4), slices.Repeat([]float64{1}, 4), 3); !all.Better || all.SE != 0 {
		t.Errorf("better on every opening alike: %+v", all)
	}
}

func TestPairScores(t *testing.T) {
	res := &arena.Result{Outcomes: []arena.Outcome{
		{Group: 0, Seating: 0, Result: []float64{1, -1}},           // A wins as first seat
		{Group: 0, Seating: 1, Result: []float64{1, -1}},           // A loses as second seat
		{Group: 1, Seating: 1, Result: []float64{-1, 1}},           // A wins
		{Group: 1, Seating: 0, Result: []float64{0, 0}},            // a draw
		{Group: 2, Seating: 0, Result: []float64{1, -1}},           // the pair not finished
		{Table: 1, Group: 2, Seating: 1, Result: []float64{1, -1}}, // another table
	}}
	if got, want := pairScores(res, 3), []float64{1, 1.5, -1}; !slices.Equal(got, want) {
		t.Errorf("pairScores = %v, want %v", got, want)
	}
}

func TestCombineAnchors(t *testing.T) {
	hand := AnchorComparison{Opponent: "hand", Pairs: 4, New: 0.9, Player: 0.8, Diff: 0.1, SE: 0.03, Z: 2, Better: true}
	net := AnchorComparison{Opponent: "net", Pairs: 4, New: 0.5, Player: 0.48, Diff: 0.02, SE: 0.04, Z: 2}
	few := AnchorComparison{Opponent: "net", Pairs: 1, New: 1, Player: 0, Diff: 1, Z: 2}
	tests := []struct {
		name     string
		each     []AnchorComparison
		z        float64
		diff, se float64
		better   bool
	}{
		{"one is kept as it is", []AnchorComparison{hand}, 2, 0.1, 0.03, true},
		// Mean 0.06, error √(0.03²+0.04²)/2 = 0.025: 2.4 errors.
		{"two, better at 2 errors", []AnchorComparison{hand, net}, 2, 0.06, 0.025, true},
		{"two, not better at 3 errors", []AnchorComparison{hand, net}, 3, 0.06, 0.025, false},
		{"one of one pair is never better", []AnchorComparison{hand, few}, 0.5, 0.55, 0.015, false},
		{"none", nil, 1, 0, 0, false},
	}
	for _, tc := range tests {
		c := combineAnchors(tc.each, tc.z)
		if math.Abs(c.Diff-tc.diff) > 1e-12 || math.Abs(c.SE-tc.se) > 1e-12 || c.Better != tc.better {
			t.Errorf("%s: %+v, want diff %g, error %g, better %v", tc.name, c, tc.diff, tc.se, tc.better)
		}
	}
	if c := combineAnchors([]AnchorComparison{hand, net}, 2); c.Opponent != "hand and net" || c.Pairs != 8 || math.Abs(c.New-0.7) > 1e-12 || math.Abs(c.Player-0.64) > 1e-12 {
		t.Errorf("combined %+v", c)
	}
}

func TestSummarySaysTheGatesWay(t *testing.T) {
	hand := AnchorComparison{Opponent: "hand", Pairs: 4, New: 0.9, Player: 0.8, Diff: 0.1, SE: 0.03, Z: 2, Better: true}
	net := AnchorComparison{Opponent: "net", Pairs: 4, New: 0.5, Player: 0.48, Diff: 0.02, SE: 0.04, Z: 2}
	both := combineAnchors([]AnchorComparison{hand, net}, 2)
	tests := []struct {
		name string
		gate Gate
		want []string
	}{
		{"head to head", Gate{Decision: "H1 accepted", Accepted: true}, []string{", accepted"}},
		{"rejected", Gate{Decision: "undecided"}, []string{"rejected: the previous player stays"}},
		{"one anchor", Gate{Accepted: true, Anchor: &hand}, []string{"accepted against the anchor", "gate vs hand on the same 4 pairs: 90.0% against the player's 80.0%, difference +10.0% ± 3.0%"}},
		{"two anchors", Gate{Accepted: true, Anchor: &both, ByAnchor: []AnchorComparison{hand, net}}, []string{
			"gate vs hand and net on the same 8 pairs: 70.0% against the player's 64.0%, difference +6.0% ± 2.5%",
			"vs hand alone: 90.0% against 80.0%", "vs net alone: 50.0% against 48.0%, difference +2.0% ± 4.0%"}},
	}
	for _, tc := range tests {
		s := Metrics{Generation: 3, Player: "gen-000002.nnue", Gate: &tc.gate}.summary()
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: summary lacks %q:\n%s", tc.name, w, s)
			}
		}
	}
}
