package arena

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Estimate is a mean with its 95% confidence interval from Student's t
// over N observations. With fewer than two observations the interval is
// unbounded.
type Estimate struct {
	Mean, Low, High float64
	N               int
}

// String is e.g. "1.53 [1.35, 1.71]".
func (e Estimate) String() string {
	if e.N == 0 {
		return "-"
	}
	if math.IsInf(e.Low, 0) {
		return fmt.Sprintf("%.2f [no interval]", e.Mean)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", e.Mean, e.Low, e.High)
}

// MeanEstimate is the mean of xs with the 95% interval mean ± t·s/√n,
// s the sample standard deviation and t the 97.5% quantile of Student's
// t with n-1 degrees of freedom.
func MeanEstimate(xs []float64) Estimate {
	n := len(xs)
	e := Estimate{N: n, Low: math.Inf(-1), High: math.Inf(1)}
	if n == 0 {
		return e
	}
	for _, x := range xs {
		e.Mean += x
	}
	e.Mean /= float64(n)
	if n < 2 {
		return e
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - e.Mean) * (x - e.Mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975) * sd / math.Sqrt(float64(n))
	e.Low, e.High = e.Mean-half, e.Mean+half
	return e
}

// groupKey names an opening group: a table and a group.
type groupKey struct{ table, group int }

// groups returns the outcomes' groups in order, and each group's
// outcomes.
func (r *MultiResult) groups() (keys []groupKey, byKey map[groupKey][]Outcome) {
	byKey = map[groupKey][]Outcome{}
	for _, o := range r.Outcomes {
		k := groupKey{o.Table, o.Group}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], o)
	}
	slices.SortFunc(keys, func(a, b groupKey) int {
		return cmp.Or(cmp.Compare(a.table, b.table), cmp.Compare(a.group, b.group))
	})
	return keys, byKey
}

// seatings is the number of games of a complete group.
func (r *MultiResult) seatings() int {
	n := 1
	for i := 2; i <= r.Seats; i++ {
		n *= i
	}
	return n
}

// Points returns player's mean points per game with two 95% intervals:
// perGame treats every game as independent; perGroup takes as the unit
// the player's mean over each complete opening group (the same opening
// in every seating), which accounts for an opening's bias and for the
// group's games being played together. PerGroup.N counts groups.
func (r *MultiResult) Points(player int) (perGame, perGroup Estimate) {
	var games, groups []float64
	keys, byKey := r.groups()
	for _, k := range keys {
		sum, n := 0.0, 0
		for _, o := range byKey[k] {
			if seat := slices.Index(o.Seats, player); seat >= 0 {
				games = append(games, o.Points[seat])
				sum += o.Points[seat]
				n++
			}
		}
		if n > 0 && len(byKey[k]) == r.seatings() {
			groups = append(groups, sum/float64(n))
		}
	}
	return MeanEstimate(games), MeanEstimate(groups)
}

// Count is a name and how often it came.
type Count struct {
	Name string
	N    int
}

// Titles counts each title (the game's name for a seat's result) in all
// the games: player's, or everyone's for player -1. Every title any seat
// got is listed, from the one worth the most points on average to the
// least.
func (r *MultiResult) Titles(player int) []Count {
	counts := map[string]int{}
	seen := map[string]int{}
	points := map[string]float64{}
	for _, o := range r.Outcomes {
		for seat, t := range o.Titles {
			seen[t]++
			points[t] += o.Points[seat]
			if player < 0 || o.Seats[seat] == player {
				counts[t]++
			}
		}
	}
	out := make([]Count, 0, len(seen))
	for t := range seen {
		out = append(out, Count{t, counts[t]})
	}
	worth := func(t string) float64 { return points[t] / float64(seen[t]) }
	slices.SortFunc(out, func(a, b Count) int {
		return cmp.Or(cmp.Compare(worth(b.Name), worth(a.Name)), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// Endings counts how the games ended, the most frequent first.
func (r *MultiResult) Endings() []Count {
	counts := map[string]int{}
	for _, o := range r.Outcomes {
		counts[o.Ending]++
	}
	out := make([]Count, 0, len(counts))
	for e, n := range counts {
		out = append(out, Count{e, n})
	}
	slices.SortFunc(out, func(a, b Count) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Name, b.Name)) })
	return out
}

// PairScore is one ordered pair's record: in the Games where both sat, the
// share of games (Score) in which the first did better than the second,
// a tie counting half.
type PairScore struct {
	Games int
	Score float64
}

// pairTally is the pairwise wins of some games: wins[a][b] is a's score
// against b (ties half), games[a][b] the games both sat in.
type pairTally struct{ wins, games [][]float64 }

func newPairTally(n int) pairTally {
	t := pairTally{make([][]float64, n), make([][]float64, n)}
	for i := range n {
		t.wins[i], t.games[i] = make([]float64, n), make([]float64, n)
	}
	return t
}

// add counts one game: every two seats compare their results.
func (t pairTally) add(o Outcome, times float64) {
	for s, a := range o.Seats {
		for u, b := range o.Seats {
			if s == u {
				continue
			}
			t.games[a][b] += times
			switch {
			case o.Result[s] > o.Result[u]:
				t.wins[a][b] += times
			case o.Result[s] == o.Result[u]:
				t.wins[a][b] += times / 2
			}
		}
	}
}

// Pairwise is the table of ordered pairs, [a][b] for player a against b:
// in the games where both sat, the share a finished ahead of b (by the
// game's results; in Trichess, by title points), ties half.
func (r *MultiResult) Pairwise() [][]PairScore {
	n := len(r.Names)
	t := newPairTally(n)
	for _, o := range r.Outcomes {
		t.add(o, 1)
	}
	out := make([][]PairScore, n)
	for a := range n {
		out[a] = make([]PairScore, n)
		for b := range n {
			if g := t.games[a][b]; g > 0 {
				out[a][b] = PairScore{Games: int(g), Score: t.wins[a][b] / g}
			}
		}
	}
	return out
}

// MultiRating is one player's line in a multi-player match's rating.
type MultiRating struct {
	Name string
	// Elo is the maximum-likelihood rating; Low and High bound its 95%
	// bootstrap interval (both Elo for the anchor; unbounded with fewer
	// than two groups per table).
	Elo, Low, High float64
}

// bootstrapRounds is the number of resamples behind the rating intervals.
const bootstrapRounds = 1000

// Ratings fits an Elo rating to the pairwise results by maximum
// likelihood (Bradley–Terry with the logistic Elo scale, a tie half a
// win), with player anchor fixed at anchorElo. Every two players who met
// count one virtual draw, so that a player ahead in every game still
// gets a finite rating. The games of one group are not independent (they
// share an opening, and one game yields a result for every two of its
// players), so the 95% intervals come from a bootstrap that resamples
// whole opening groups within each table and refits, not from the
// likelihood's curvature.
func (r *MultiResult) Ratings(anchor int, anchorElo float64) ([]MultiRating, error) {
	n := len(r.Names)
	if anchor < 0 || anchor >= n {
		return nil, fmt.Errorf("anchor %d is not a player (0..%d)", anchor, n-1)
	}
	if len(r.Outcomes) == 0 {
		return nil, fmt.Errorf("no games played")
	}
	keys, byKey := r.groups()
	all := newPairTally(n)
	tallies := make([]pairTally, len(keys))
	byTable := map[int][]int{} // table → indices into keys
	for i, k := range keys {
		tallies[i] = newPairTally(n)
		for _, o := range byKey[k] {
			tallies[i].add(o, 1)
			all.add(o, 1)
		}
		byTable[k.table] = append(byTable[k.table], i)
	}
	elo, err := fitElo(all, anchor, anchorElo)
	if err != nil {
		return nil, err
	}
	out := make([]MultiRating, n)
	for i := range out {
		out[i] = MultiRating{Name: r.Names[i], Elo: elo[i], Low: math.Inf(-1), High: math.Inf(1)}
	}
	out[anchor].Low, out[anchor].High = anchorElo, anchorElo
	for _, idx := range byTable {
		if len(idx) < 2 {
			return out, nil
		}
	}
	rng := rand.New(rand.NewPCG(uint64(len(r.Outcomes)), 0x626f6f74))
	samples := make([][]float64, n)
	sample := newPairTally(n)
	tables := make([]int, 0, len(byTable))
	for t := range byTable {
		tables = append(tables, t)
	}
	slices.Sort(tables)
	for range bootstrapRounds {
		for a := range n {
			clear(sample.wins[a])
			clear(sample.games[a])
		}
		for _, t := range tables {
			idx := byTable[t]
			for range idx {
				g := tallies[idx[rng.IntN(len(idx))]]
				for a := range n {
					for b := range n {
						sample.wins[a][b] += g.wins[a][b]
						sample.games[a][b] += g.games[a][b]
					}
				}
			}
		}
		e, err := fitElo(sample, anchor, anchorElo)
		if err != nil {
			return nil, err
		}
		for i := range n {
			samples[i] = append(samples[i], e[i])
		}
	}
	for i := range out {
		if i == anchor {
			continue
		}
		slices.Sort(samples[i])
		out[i].Low, out[i].High = quantile(samples[i], 0.025), quantile(samples[i], 0.975)
	}
	return out, nil
}

// quantile is the q-quantile of sorted xs, interpolating linearly.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// fitElo fits the ratings of a pairwise tally, one virtual draw added to
// every pair that met, with anchor at anchorElo.
func fitElo(t pairTally, anchor int, anchorElo float64) ([]float64, error) {
	n := len(t.wins)
	games := make([][]float64, n)
	score := make([][]float64, n)
	for a := range n {
		games[a], score[a] = make([]float64, n), make([]float64, n)
		for b := range n {
			if g := t.games[a][b]; g > 0 {
				games[a][b] = g + 1
				score[a][b] = t.wins[a][b] + 0.5
			}
		}
	}
	if !connected(games) {
		return nil, fmt.Errorf("the players are not all connected by games: no rating")
	}
	gamma := fitBradleyTerry(games, score, anchor)
	out := make([]float64, n)
	for i, g := range gamma {
		out[i] = anchorElo + eloUnit*math.Log(g)
	}
	return out, nil
}

// connected reports whether the players form one component of pairs that
// played.
func connected(games [][]float64) bool {
	n := len(games)
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for b := range n {
			if !seen[b] && games[a][b] > 0 {
				seen[b] = true
				stack = append(stack, b)
			}
		}
	}
	return !slices.Contains(seen, false)
}
