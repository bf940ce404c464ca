package arena

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEloFromScore(t *testing.T) {
	tests := []struct{ score, elo float64 }{
		{0.5, 0},
		{0.75, 190.848501887865},  // 400·log10(3)
		{0.25, -190.848501887865}, // symmetric
		{10.0 / 11, 400},          // 10^(400/400) = 10 to 1
		{0.64, 99.95},             // 400·log10(0.64/0.36), the usual "64% is 100 Elo"
	}
	for _, tt := range tests {
		if got := EloFromScore(tt.score); !near(got, tt.elo, 0.01) {
			t.Errorf("EloFromScore(%g) = %g, want %g", tt.score, got, tt.elo)
		}
		if got := ScoreFromElo(tt.elo); !near(got, tt.score, 1e-4) {
			t.Errorf("ScoreFromElo(%g) = %g, want %g", tt.elo, got, tt.score)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("EloFromScore at 0 and 1 is not infinite")
	}
}

// Worked by hand: 60 wins, 20 draws, 20 losses. Mean score
// (60 + 10)/100 = 0.7; variance (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16;
// standard error 0.04; interval 0.7 ± 1.96·0.04 = [0.62160, 0.77840].
func TestTrinomialElo(t *testing.T) {
	got := TrinomialElo(60, 20, 20)
	want := Interval{
		Elo:  -400 * math.Log10(1/0.7-1),
		Low:  -400 * math.Log10(1/(0.7-z95*0.04)-1),
		High: -400 * math.Log10(1/(0.7+z95*0.04)-1),
	}
	if !near(got.Elo, 147.19, 0.01) || !near(got.Elo, want.Elo, 1e-9) || !near(got.Low, want.Low, 1e-9) || !near(got.High, want.High, 1e-9) {
		t.Errorf("TrinomialElo(60, 20, 20) = %+v, want %+v", got, want)
	}
	if !near(got.Low, 86.23, 0.01) || !near(got.High, 218.25, 0.01) {
		t.Errorf("interval [%g, %g], want about [86.23, 218.25]", got.Low, got.High)
	}
	for _, c := range [][3]int{{0, 0, 0}, {0, 4, 0}} {
		e := TrinomialElo(c[0], c[1], c[2])
		if !math.IsInf(e.Low, -1) || !math.IsInf(e.High, 1) {
			t.Errorf("W %d D %d L %d: %v, want an unbounded interval", c[0], c[1], c[2], e)
		}
	}
	if e := TrinomialElo(0, 4, 0); e.Elo != 0 || math.Signbit(e.Elo) {
		t.Errorf("all draws: Elo %v, want +0", e.Elo)
	}
	// 100 wins: the exact bound is the score p with p^100 = 0.025,
	// p = 0.963783, 400·log10(p/(1-p)) = 570.0 Elo.
	if e := TrinomialElo(100, 0, 0); !math.IsInf(e.Elo, 1) || !math.IsInf(e.High, 1) || !near(e.Low, 570.03, 0.01) {
		t.Errorf("all wins: %v, want +Inf [+570.0, +Inf]", e)
	}
	if e := TrinomialElo(0, 0, 100); !math.IsInf(e.Elo, -1) || !math.IsInf(e.Low, -1) || !near(e.High, -570.03, 0.01) {
		t.Errorf("all losses: %v, want -Inf [-Inf, -570.0]", e)
	}
	if e := PentanomialElo([5]int{0, 0, 0, 0, 50}); !near(e.Low, EloFromScore(math.Pow(0.025, 1.0/50)), 1e-9) {
		t.Errorf("all pairs won: %v", e)
	}
}

// Pentanomial logistic-Elo intervals published, to two decimals, with the
// tests of a public Rust SPRT implementation for these fishtest-style pair
// counts (LL, LD, LW+DD, DW, WW). The first, by hand: mean pair score
// 3998.5/7881 = 0.507359, variance 0.064786, standard error 0.0028671,
// so 0.507359 ± 0.0056195 gives 5.11 [1.21, 9.02].
func TestPentanomialElo(t *testing.T) {
	tests := []struct {
		pairs          [5]int
		low, elo, high float64
	}{
		{[5]int{485, 1923, 2942, 1937, 594}, 1.21, 5.11, 9.02},
		{[5]int{261, 739, 2683, 737, 253}, -5.00, -0.67, 3.66},
		{[5]int{63, 252, 385, 250, 74}, -7.38, 3.39, 14.17},
		{[5]int{527, 1007, 1932, 933, 511}, -9.16, -3.75, 1.66},
		{[5]int{175, 305, 694, 291, 157}, -14.57, -5.36, 3.85},
	}
	for _, tt := range tests {
		got := PentanomialElo(tt.pairs)
		if !near(got.Low, tt.low, 0.01) || !near(got.Elo, tt.elo, 0.01) || !near(got.High, tt.high, 0.01) {
			t.Errorf("PentanomialElo(%v) = %v, want %.2f [%.2f, %.2f]", tt.pairs, got, tt.elo, tt.low, tt.high)
		}
	}
}

func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{0, 5, 0.05, 0.05}.Bounds()
	// The bounds fishtest prints for α = β = 0.05: (-2.94, 2.94).
	if !near(lo, -2.944438979, 1e-6) || !near(hi, 2.944438979, 1e-6) {
		t.Errorf("bounds (%g, %g), want ±2.944439", lo, hi)
	}
	lo, hi = SPRT{0, 5, 0.05, 0.1}.Bounds()
	if !near(lo, math.Log(0.1/0.95), 1e-12) || !near(hi, math.Log(0.9/0.05), 1e-12) {
		t.Errorf("α 0.05, β 0.1: bounds (%g, %g)", lo, hi)
	}
}

func TestSPRTLLR(t *testing.T) {
	// Worked by hand: W 60, D 20, L 20 as above (mean 0.7, variance 0.16,
	// 100 games); H0 0 Elo (s0 0.5), H1 100 Elo (s1 = 1/(1+10^-0.25)
	// = 0.640065). LLR = 100·0.140065·(1.4 - 1.140065)/(2·0.16) = 11.377.
	test := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	if got := test.TrinomialLLR(60, 20, 20); !near(got, 11.377, 0.001) {
		t.Errorf("LLR = %g, want 11.377", got)
	}
	// Worked by hand: 1000 games with W 300, D 400, L 300 (score 0.5, variance 0.15) against
	// H0 = 0, H1 = 10 Elo: s1 = 0.514387, LLR = 1000·0.014387·(-0.014387)/0.3
	// = -0.690.
	test = SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if got := test.TrinomialLLR(300, 400, 300); !near(got, -0.68995, 0.0005) {
		t.Errorf("even LLR = %g, want -0.690", got)
	}
	// Symmetry: swapping the hypotheses around the mean negates it.
	if a, b := (SPRT{-5, 5, .05, .05}).TrinomialLLR(55, 10, 35), (SPRT{-5, 5, .05, .05}).TrinomialLLR(35, 10, 55); !near(a, -b, 1e-9) {
		t.Errorf("LLR not antisymmetric: %g and %g", a, b)
	}
	// Pentanomial: pairs (2, 10, 20, 13, 5): mean 27.25/50 = 0.545,
	// E[x²] = 17.9375/50 = 0.35875, variance 0.061725; LLR against 0/100
	// = 50·0.140065·(1.09-1.140065)/(2·0.061725) = -2.840.
	if got := (SPRT{0, 100, .05, .05}).PentanomialLLR([5]int{2, 10, 20, 13, 5}); !near(got, -2.840, 0.001) {
		t.Errorf("pentanomial LLR = %g, want -2.840", got)
	}
	// Six pairs won twice: the four unseen outcomes count ½ each, so the
	// weights are (½, ½, ½, ½, 6) of 8: mean 6.75/8 = 0.84375, E[x²] =
	// 6.4375/8 = 0.8046875, variance 0.0927734; against 0/200 (s1 =
	// 0.759747) LLR = 6·0.259747·(1.6875-1.259747)/(2·0.0927734) = 3.593.
	if got := (SPRT{0, 200, .05, .05}).PentanomialLLR([5]int{0, 0, 0, 0, 6}); !near(got, 3.593, 0.001) {
		t.Errorf("all pairs won: LLR %g, want 3.593", got)
	}
}

// A one-sided result must not decide a test at once: all pairs won (or
// all lost) accept only after several pairs, more the closer the two
// hypotheses are.
func TestSPRTOneSidedStops(t *testing.T) {
	tests := []struct {
		test  SPRT
		won   bool
		pairs int // the first number of pairs that decides
	}{
		{SPRT{0, 200, .05, .05}, true, 6},
		{SPRT{0, 400, .05, .05}, true, 6},
		{SPRT{0, 100, .05, .05}, true, 7},
		{SPRT{0, 50, .05, .05}, true, 9},
		{SPRT{-200, 0, .05, .05}, false, 6},
		{SPRT{0, 200, .01, .01}, true, 7},
	}
	for _, tc := range tests {
		want, bin := AcceptH1, 4
		if !tc.won {
			want, bin = AcceptH0, 0
		}
		for n := 1; n <= tc.pairs; n++ {
			var m Meeting
			m.PairScores[bin] = n
			got := tc.test.Result(m).Decision
			if n < tc.pairs && got != Continue {
				t.Errorf("%+v: %s after %d pairs, want to go on until %d", tc.test, got, n, tc.pairs)
				break
			}
			if n == tc.pairs && got != want {
				t.Errorf("%+v: %s after %d pairs, want %s", tc.test, got, n, want)
			}
		}
	}
}

// A published example: the raw statistics page of a fishtest instance
// (montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712) gives, for
// the pairs [13, 37, 50, 25, 3] (256 games) and an SPRT whose H1 is 2.716
// logistic Elo (H0 0), the pair variance 0.05762, the Elo -43.6578 and the
// logistic GLLR -0.55961 by the approximation labelled "alt2", which is
// the formula used here (elo1 is printed to 3 decimals, hence the
// tolerance).
func TestSPRTPublished(t *testing.T) {
	pairs := [5]int{13, 37, 50, 25, 3}
	if got := (SPRT{0, 2.716, .05, .05}).PentanomialLLR(pairs); !near(got, -0.55961, 0.0003) {
		t.Errorf("LLR %g, published -0.55961", got)
	}
	if _, v, _ := moments([]float64{0, 0.25, 0.5, 0.75, 1}, pairs[:]); !near(v, 0.05762, 0.000005) {
		t.Errorf("pair variance %g, published 0.05762", v)
	}
	if e := PentanomialElo(pairs); !near(e.Elo, -43.6578, 0.0001) {
		t.Errorf("Elo %g, published -43.6578", e.Elo)
	}
}

func TestSPRTDecision(t *testing.T) {
	test := SPRT{0, 50, 0.05, 0.05}
	if d := test.Result(Meeting{PairScores: [5]int{0, 2, 10, 30, 60}}).Decision; d != AcceptH1 {
		t.Errorf("a crushing result: %v", d)
	}
	if d := test.Result(Meeting{PairScores: [5]int{60, 30, 10, 2, 0}}).Decision; d != AcceptH0 {
		t.Errorf("a crushing loss: %v", d)
	}
	if d := test.Result(Meeting{PairScores: [5]int{0, 1, 1, 1, 0}}).Decision; d != Continue {
		t.Errorf("three pairs: %v", d)
	}
	for _, bad := range []SPRT{{5, 0, .05, .05}, {0, 5, 0, .05}, {0, 5, .05, .6}, {0, 5000, .05, .05}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// meetingGames are the outcomes of a's games against b in a game of two
// seats: wins, draws and losses seen from a, each game its own group.
func meetingGames(table, a, b, wins, draws, losses int) []Outcome {
	var out []Outcome
	for i, r := range []struct {
		n      int
		result float64
	}{{wins, 1}, {draws, 0}, {losses, -1}} {
		for g := range r.n {
			out = append(out, Outcome{Table: table, Group: 1000*i + g, Seats: []int{a, b},
				Result: []float64{r.result, -r.result}, Points: []float64{0, 0}})
		}
	}
	return out
}

func TestRatingsTwoSeats(t *testing.T) {
	// Two players: the fit is the Elo of the score with the virtual
	// draw, (60+10+0.5)/(100+1).
	res := &Result{Names: []string{"a", "b"}, Seats: 2, Outcomes: meetingGames(0, 0, 1, 60, 20, 20)}
	table, err := res.Ratings(1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := 1000 + EloFromScore(70.5/101)
	if !near(table[0].Elo, want, 0.01) || table[1].Elo != 1000 || table[1].Low != 1000 || table[1].High != 1000 {
		t.Errorf("two players: %+v, want a at %g", table, want)
	}
	// Its margin is the Fisher interval: 1.96·(400/ln10)/sqrt(N·p(1-p)).
	p := 70.5 / 101
	if m := z95 * eloUnit / math.Sqrt(101*p*(1-p)); !near(table[0].High-table[0].Elo, m, 0.01) || !near(table[0].Elo-table[0].Low, m, 0.01) {
		t.Errorf("interval [%g, %g] around %g, want ± %g", table[0].Low, table[0].High, table[0].Elo, m)
	}
	// Three players in a consistent chain: a beats b as b beats c, by
	// the same score, so c, b, a are equally spaced.
	var games []Outcome
	games = append(games, meetingGames(0, 0, 1, 70, 0, 30)...)
	games = append(games, meetingGames(1, 0, 2, 84, 0, 16)...)
	games = append(games, meetingGames(2, 1, 2, 70, 0, 30)...)
	res = &Result{Names: []string{"a", "b", "c"}, Seats: 2, Outcomes: games}
	table, err = res.Ratings(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := table[0].Elo-table[1].Elo, table[1].Elo-table[2].Elo; !near(a, b, 1) || a < 100 || a > 200 {
		t.Errorf("chain: %+v", table)
	}
	if table[0].Games != 200 || !near(table[0].Score, 154.0/200, 1e-9) {
		t.Errorf("a's games %d score %g", table[0].Games, table[0].Score)
	}
	// Players never connected by games have no table.
	games = append(meetingGames(0, 0, 1, 1, 0, 0), meetingGames(1, 2, 3, 1, 0, 0)...)
	res = &Result{Names: []string{"a", "b", "c", "d"}, Seats: 2, Outcomes: games}
	if _, err := res.Ratings(0, 0); err == nil {
		t.Error("disconnected players rated")
	}
}
