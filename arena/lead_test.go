package arena

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"trench/engine/trichess"
)

// The lead test's LLR against hand-computed values: the variance pools
// the data's sum of squares with two groups of variance 1.
func TestLeadSPRTLLR(t *testing.T) {
	test := LeadSPRT{Lead0: 0, Lead1: 0.5, Alpha: 0.05, Beta: 0.05}
	for _, tc := range []struct {
		name  string
		leads []float64
		want  float64
	}{
		{"none", nil, 0},
		// n=1, mean 1, ss 0+2, variance 2/2 = 1: 1·0.5·(2-0.5)/2.
		{"one", []float64{1}, 0.375},
		// n=4, mean 0.25, ss 2 + 4·0.5625 = 4.25, variance 4.25/5 = 0.85:
		// 4·0.5·(0.5-0.5)/(1.7) = 0.
		{"at the midpoint", []float64{1, -0.5, 1, -0.5}, 0},
		// n=3, mean -1, ss 2, variance 2/4: 3·0.5·(-2-0.5)/1.
		{"behind", []float64{-1, -1, -1}, -3.75},
	} {
		if got := test.LLR(tc.leads); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: LLR %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The test decides for a clear lead and against a clear deficit, but
// not on the first groups alone however much they agree, and its
// settings are checked.
func TestLeadSPRTDecision(t *testing.T) {
	test := LeadSPRT{Lead0: 0, Lead1: 0.3, Alpha: 0.05, Beta: 0.05}
	repeat := func(x float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = x
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		leads []float64
		want  Decision
	}{
		{"two agreeing groups", repeat(1.5, 2), Continue},
		{"a steady lead", repeat(1, 30), AcceptH1},
		{"a steady deficit", repeat(-1, 30), AcceptH0},
		{"level, a few groups", append(repeat(1, 10), repeat(-1, 10)...), Continue},
		{"level, many groups", append(repeat(1, 40), repeat(-1, 40)...), AcceptH0},
	} {
		if got := test.Result(tc.leads).Decision; got != tc.want {
			t.Errorf("%s: %v (LLR %.2f), want %v", tc.name, got, test.LLR(tc.leads), tc.want)
		}
	}
	for _, bad := range []LeadSPRT{
		{Lead0: 0.3, Lead1: 0.3, Alpha: 0.05, Beta: 0.05},
		{Lead0: 0, Lead1: 0.3, Alpha: 0, Beta: 0.05},
		{Lead0: 0, Lead1: 0.3, Alpha: 0.05, Beta: 0.5},
		{Lead0: 0, Lead1: 11, Alpha: 0.05, Beta: 0.05},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// A challenge seats the challenger once in each seat of every opening
// and copies of the other player in the rest; its lead test stops the
// match once it decides, on whole groups.
func TestChallenge(t *testing.T) {
	g := trichess.Game
	ms := load(t, g, "greedy", "random")
	res, err := Run(context.Background(), Config{Game: g, Players: ms, Groups: 4, OpeningPlies: 4, Parallel: 2, Seed: 5, Challenge: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != 12 || res.GroupGames != 3 {
		t.Fatalf("%d games, %d a group; want 12 and 3", len(res.Outcomes), res.GroupGames)
	}
	for _, o := range res.Outcomes {
		for seat, p := range o.Seats {
			if want := map[bool]int{true: 0, false: 1}[seat == o.Seating]; p != want {
				t.Fatalf("group %d seating %d seats %v: want the challenger in seat %d alone", o.Group, o.Seating, o.Seats, o.Seating)
			}
		}
	}
	if _, perGroup := res.Lead(0); perGroup.N != 4 {
		t.Errorf("the challenger's lead counts %d groups, want 4", perGroup.N)
	}
	if perGame, _ := res.Points(1); perGame.N != 12 {
		t.Errorf("the copies' points count %d games, want 12", perGame.N)
	}

	test := &LeadSPRT{Lead0: 0, Lead1: 0.5, Alpha: 0.05, Beta: 0.05}
	res, err = Run(context.Background(), Config{Game: g, Players: ms, Groups: 200, OpeningPlies: 4, Parallel: 2, Seed: 6, Challenge: true, LeadTest: test})
	if err != nil {
		t.Fatal(err)
	}
	if res.LeadTest == nil || res.LeadTest.Decision != AcceptH1 {
		t.Fatalf("greedy against random: lead test %v, want H1 accepted", res.LeadTest)
	}
	if n := len(res.Outcomes); n >= 600 || res.LeadTest.Groups < 3 {
		t.Errorf("the test decided after %d groups and %d games: want a stop before the 600 games, on whole groups", res.LeadTest.Groups, n)
	}
	if !strings.Contains(res.LeadTest.String(), "H1 accepted") {
		t.Errorf("String() = %q", res.LeadTest.String())
	}

	for _, cfg := range []Config{
		{Game: g, Players: ms[:1], Groups: 1, Challenge: true},
		{Game: g, Players: ms, Groups: 1, LeadTest: test},
		{Game: g, Players: ms, Groups: 1, Challenge: true, LeadTest: &LeadSPRT{Lead0: 1, Lead1: 0}},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// An estimate goes through JSON and back, an unbounded interval
// included, and a challenge's standing carries the challenger's lead.
func TestEstimateJSONAndChallengeStanding(t *testing.T) {
	for _, e := range []Estimate{
		{Mean: 0.25, Low: -0.5, High: 1, N: 12},
		{Mean: 1, Low: math.Inf(-1), High: math.Inf(1), N: 1},
	} {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back Estimate
		if err := json.Unmarshal(b, &back); err != nil || back != e {
			t.Errorf("%+v: %s read back as %+v, %v", e, b, back, err)
		}
	}
	var e Estimate
	if err := json.Unmarshal([]byte(`{"mean":"x"}`), &e); err == nil {
		t.Error("a mean that is a string: no error")
	}
	res := &Result{Seats: 3, GroupGames: 3, Outcomes: []Outcome{
		{Group: 0, Seating: 0, Seats: []int{0, 1, 1}, Points: []float64{3, 1, 1}, Result: []float64{1, -1.0 / 3, -1.0 / 3}},
		{Group: 0, Seating: 1, Seats: []int{1, 0, 1}, Points: []float64{1, 2, 1}, Result: []float64{-1.0 / 3, 1.0 / 3, -1.0 / 3}},
		{Group: 0, Seating: 2, Seats: []int{1, 1, 0}, Points: []float64{2, 2, 0}, Result: []float64{1.0 / 3, 1.0 / 3, -1}},
	}}
	st := ChallengeStanding("b", res)
	// Leads 2, 1, -2: a mean of 1/3 over one group.
	if st.Lead == nil || math.Abs(st.Lead.Mean-1.0/3) > 1e-9 || st.Lead.N != 1 || st.Wins != 4 || st.Losses != 2 || st.Comparisons != 2 {
		t.Errorf("standing %+v, lead %+v", st, st.Lead)
	}
}
