package arena

import (
	"math"
	"slices"
	"testing"
)

// The 97.5% quantiles of Student's t, from printed tables, by degrees of
// freedom.
var t975 = map[int]float64{1: 12.706205, 2: 4.302653, 3: 3.182446, 11: 2.200985}

// within is near that also takes equal infinities.
func within(a, b, tol float64) bool {
	return a == b || math.Abs(a-b) <= tol
}

func TestMeanEstimate(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		xs              []float64
		mean, low, high float64
	}{
		{nil, 0, -inf, inf},
		{[]float64{2}, 2, -inf, inf},
		{[]float64{3, 3}, 3, 3, 3},
		// mean 2.5, s² = (2.25+0.25+0.25+2.25)/3 = 5/3, half = t3·s/2.
		{[]float64{1, 2, 3, 4}, 2.5, 2.5 - t975[3]*math.Sqrt(5.0/3)/2, 2.5 + t975[3]*math.Sqrt(5.0/3)/2},
		// mean 4/3, s² = (16/9+1/9+25/9)/2 = 7/3, half = t2·s/√3.
		{[]float64{0, 1, 3}, 4.0 / 3, 4.0/3 - t975[2]*math.Sqrt(7.0/3/3), 4.0/3 + t975[2]*math.Sqrt(7.0/3/3)},
	}
	for _, tc := range tests {
		e := MeanEstimate(tc.xs)
		if e.N != len(tc.xs) || !within(e.Mean, tc.mean, 1e-12) || !within(e.Low, tc.low, 1e-5) || !within(e.High, tc.high, 1e-5) {
			t.Errorf("MeanEstimate(%v) = %+v, want mean %g [%g, %g]", tc.xs, e, tc.mean, tc.low, tc.high)
		}
	}
}

// title names points as Trichess does.
var title = map[float64]string{3: "seigneur", 2: "chevalier", 1: "vassal", 0: "serf"}

// outcome makes a game's outcome from its seats and points (results as
// Trichess maps them).
func outcome(table, group, seating int, seats []int, points ...float64) Outcome {
	o := Outcome{Table: table, Group: group, Seating: seating, Seats: seats, Points: points, Ending: "pat"}
	for _, p := range points {
		o.Result = append(o.Result, (2*p-3)/3)
		o.Titles = append(o.Titles, title[p])
	}
	if slices.Contains(points, 3) {
		o.Ending = "checkmate"
	}
	return o
}

// groupOf makes a complete opening group of three players: zero holds
// player 0's points in each of the six seatings; the others get 1 each.
func groupOf(group int, zero ...float64) []Outcome {
	var out []Outcome
	for s, perm := range Permutations(3) {
		pts := make([]float64, 3)
		for seat, p := range perm {
			pts[seat] = 1
			if p == 0 {
				pts[seat] = zero[s]
			}
		}
		out = append(out, outcome(0, group, s, perm, pts...))
	}
	return out
}

func TestPoints(t *testing.T) {
	res := &Result{Names: []string{"a", "b", "c"}, Seats: 3, Tables: [][]int{{0, 1, 2}}}
	res.Outcomes = append(res.Outcomes, groupOf(0, 3, 3, 3, 0, 0, 0)...)
	res.Outcomes = append(res.Outcomes, groupOf(1, 3, 3, 3, 3, 0, 0)...)
	// An unfinished group counts per game but not per group.
	res.Outcomes = append(res.Outcomes, groupOf(2, 3, 0, 3, 3, 3, 3)[:2]...)
	perGame, perGroup := res.Points(0)
	// Per game: eight 3s and six 0s; mean 24/14, s² = (8·(3-m)²+6·m²)/13.
	m := 24.0 / 14
	s := math.Sqrt((8*(3-m)*(3-m) + 6*m*m) / 13)
	half := 2.160369 * s / math.Sqrt(14) // t with 13 degrees of freedom
	if perGame.N != 14 || !within(perGame.Mean, m, 1e-12) || !within(perGame.Low, m-half, 1e-5) || !within(perGame.High, m+half, 1e-5) {
		t.Errorf("per game %+v, want %g ± %g over 14", perGame, m, half)
	}
	// Per group: 1.5 and 2; s = √0.125, half = t1·s/√2.
	half = t975[1] * math.Sqrt(0.125) / math.Sqrt2
	if perGroup.N != 2 || perGroup.Mean != 1.75 || !within(perGroup.Low, 1.75-half, 1e-5) || !within(perGroup.High, 1.75+half, 1e-5) {
		t.Errorf("per group %+v, want 1.75 ± %g over 2", perGroup, half)
	}
	if g, _ := res.Points(1); g.N != 14 || g.Mean != 1 || g.Low != 1 {
		t.Errorf("player 1 per game %+v, want 1 [1, 1] over 14", g)
	}
}

// Lead is a player's points less the mean of the others' in each game,
// per game and per complete opening group.
func TestLead(t *testing.T) {
	res := &Result{Names: []string{"a", "b", "c"}, Seats: 3, Tables: [][]int{{0, 1, 2}}}
	// Player 0 scores 3, 3, 3, 0, 0, 0 in group 0 against the others' 1
	// and 1: leads 2, 2, 2, -1, -1, -1 (mean 0.5); in group 1 it scores
	// 3 five times and 0 once: mean lead (5·2 - 1)/6 = 1.5.
	res.Outcomes = append(res.Outcomes, groupOf(0, 3, 3, 3, 0, 0, 0)...)
	res.Outcomes = append(res.Outcomes, groupOf(1, 3, 3, 3, 3, 3, 0)...)
	// An unfinished group counts per game but not per group.
	res.Outcomes = append(res.Outcomes, groupOf(2, 0, 0, 3, 3, 3, 3)[:2]...)
	leads := []float64{2, 2, 2, -1, -1, -1, 2, 2, 2, 2, 2, -1, -1, -1}
	wantGame := MeanEstimate(leads)
	wantGroup := MeanEstimate([]float64{0.5, 1.5})
	perGame, perGroup := res.Lead(0)
	if perGame != wantGame || perGroup != wantGroup {
		t.Errorf("Lead(0) = %+v, %+v; want %+v, %+v", perGame, perGroup, wantGame, wantGroup)
	}
	if perGroup.N != 2 || perGroup.Mean != 1 {
		t.Errorf("per group %+v, want mean 1 over 2 groups", perGroup)
	}
	// Player 1 scores 1 where player 0 scores 3 (lead 1 - (3+1)/2 = -1)
	// and where it scores 0 (lead 1 - 0.5 = 0.5).
	g, _ := res.Lead(1)
	want := 0.0
	for _, l := range leads {
		if l == 2 {
			want -= 1
		} else {
			want += 0.5
		}
	}
	if g.N != 14 || !within(g.Mean, want/14, 1e-12) {
		t.Errorf("Lead(1) per game %+v, want mean %g over 14", g, want/14)
	}
}

func TestTitlesEndingsAndPairwise(t *testing.T) {
	res := &Result{Names: []string{"a", "b", "c"}, Seats: 3, Tables: [][]int{{0, 1, 2}}, Outcomes: []Outcome{
		outcome(0, 0, 0, []int{0, 1, 2}, 3, 1, 0),
		outcome(0, 0, 1, []int{1, 2, 0}, 2, 2, 0),
		outcome(0, 0, 2, []int{2, 0, 1}, 1, 1, 1),
	}}
	wantTitles := map[int][]Count{
		-1: {{"seigneur", 1}, {"chevalier", 2}, {"vassal", 4}, {"serf", 2}},
		0:  {{"seigneur", 1}, {"chevalier", 0}, {"vassal", 1}, {"serf", 1}},
		1:  {{"seigneur", 0}, {"chevalier", 1}, {"vassal", 2}, {"serf", 0}},
		2:  {{"seigneur", 0}, {"chevalier", 1}, {"vassal", 1}, {"serf", 1}},
	}
	for p, want := range wantTitles {
		if got := res.Titles(p); !slices.Equal(got, want) {
			t.Errorf("Titles(%d) = %v, want %v", p, got, want)
		}
	}
	if got, want := res.Endings(), []Count{{"pat", 2}, {"checkmate", 1}}; !slices.Equal(got, want) {
		t.Errorf("Endings() = %v, want %v", got, want)
	}
	// a against b: ahead in game 1, behind in 2, level in 3: 1.5 of 3.
	// a against c: the same. b against c: ahead in 1, level in 2 and 3.
	want := [][]float64{
		{0, 0.5, 0.5},
		{0.5, 0, 2.0 / 3},
		{0.5, 1.0 / 3, 0},
	}
	pw := res.Pairwise()
	for a := range 3 {
		for b := range 3 {
			wantGames := 3
			if a == b {
				wantGames = 0
			}
			if pw[a][b].Games != wantGames || !within(pw[a][b].Score, want[a][b], 1e-12) {
				t.Errorf("pairwise[%d][%d] = %+v, want %d games, score %g", a, b, pw[a][b], wantGames, want[a][b])
			}
		}
	}
}

func TestRatings(t *testing.T) {
	// a is ahead of b and c in four games of six and behind both in
	// two; b and c always tie. With a virtual draw per pair, a scores
	// 4.5 of 7 against each, b and c 3.5 of 7 against each other: by
	// symmetry b and c rate alike, and a's likelihood equation
	// 4.5 + 4.5 = 7p + 7p gives p = 4.5/7, so a is 400·log10(4.5/2.5)
	// above them.
	group := groupOf(0, 3, 3, 0, 3, 0, 3)
	res := &Result{Names: []string{"a", "b", "c"}, Seats: 3, Tables: [][]int{{0, 1, 2}}, Outcomes: group}
	wantA := 400 * math.Log10(4.5/2.5)
	check := func(r []Rating, err error, anchor int, anchorElo float64) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{wantA, 0, 0}
		shift := anchorElo - want[anchor]
		for i := range want {
			want[i] += shift
		}
		for i, w := range want {
			if !within(r[i].Elo, w, 1e-6) {
				t.Errorf("anchor %d at %g: %s rated %g, want %g", anchor, anchorElo, r[i].Name, r[i].Elo, w)
			}
		}
	}
	r, err := res.Ratings(1, 0)
	check(r, err, 1, 0)
	if !math.IsInf(r[0].Low, -1) || !math.IsInf(r[0].High, 1) || r[1].Low != 0 || r[1].High != 0 {
		t.Errorf("one group: intervals %+v, want unbounded, the anchor's its rating", r)
	}
	r, err = res.Ratings(0, 1500)
	check(r, err, 0, 1500)

	// Two groups, one where a does better: a's bootstrap interval is
	// finite and holds the estimate; c, who ties b in every game, is
	// level with b in every resample.
	res.Outcomes = append(res.Outcomes, groupOf(1, 3, 3, 3, 3, 3, 0)...)
	r, err = res.Ratings(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a := r[0]; !(a.Low <= a.Elo && a.Elo <= a.High && a.High-a.Low > 1 && !math.IsInf(a.High-a.Low, 0)) {
		t.Errorf("a: %g [%g, %g], want a finite interval around it", a.Elo, a.Low, a.High)
	}
	if c := r[2]; !within(c.Elo, 0, 1e-6) || !within(c.Low, 0, 1e-6) || !within(c.High, 0, 1e-6) {
		t.Errorf("c: %g [%g, %g], want 0 [0, 0]", c.Elo, c.Low, c.High)
	}
	if r[0].Elo <= wantA {
		t.Errorf("a rated %g with more wins, want above %g", r[0].Elo, wantA)
	}
	if _, err := res.Ratings(3, 0); err == nil {
		t.Error("anchor 3 of 3 players accepted")
	}
	if _, err := (&Result{Names: []string{"a", "b", "c"}, Seats: 3}).Ratings(0, 0); err == nil {
		t.Error("a rating of no games")
	}
}

func TestCombinationsPermutationsLabels(t *testing.T) {
	if got := Combinations(4, 3); !slices.EqualFunc(got, [][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}, slices.Equal) {
		t.Errorf("Combinations(4, 3) = %v", got)
	}
	if got := Permutations(3); !slices.EqualFunc(got, [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}, slices.Equal) {
		t.Errorf("Permutations(3) = %v", got)
	}
	if n := len(Permutations(5)); n != 120 {
		t.Errorf("%d permutations of 5, want 120", n)
	}
	if got, want := Games(4, 3, 2), 4*6*2; got != want {
		t.Errorf("Games(4, 3, 2) = %d, want %d", got, want)
	}
	if got := Games(32, 8, 1<<40); got <= MaxGames {
		t.Errorf("Games does not saturate: %d", got)
	}
	if got, want := Labels([]string{"random", "greedy", "random"}), []string{"random#1", "greedy", "random#2"}; !slices.Equal(got, want) {
		t.Errorf("Labels = %v, want %v", got, want)
	}
}

// The rating's bootstrap refits 1000 times: for 300 games of three
// players it must stay a small part of the run.
func BenchmarkRatings(b *testing.B) {
	res := &Result{Names: []string{"a", "b", "c"}, Seats: 3, Tables: [][]int{{0, 1, 2}}}
	for g := range 50 {
		res.Outcomes = append(res.Outcomes, groupOf(g, float64(g%4), 3, 0, 1, 3, 2)...)
	}
	for b.Loop() {
		if _, err := res.Ratings(0, 0); err != nil {
			b.Fatal(err)
		}
	}
}
