package arena

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
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
func (e Estimate) String() string { return e.format("%.2f") }

// format writes e's mean and interval, each number with verb: "%.2f"
// for String, "%+.2f" for a lead ("+0.35 [+0.12, +0.59]").
func (e Estimate) format(verb string) string {
	if e.N == 0 {
		return "-"
	}
	if math.IsInf(e.Low, 0) {
		return fmt.Sprintf(verb+" [no interval]", e.Mean)
	}
	return fmt.Sprintf(verb+" ["+verb+", "+verb+"]", e.Mean, e.Low, e.High)
}

// MarshalJSON writes the estimate as {"mean":..,"low":..,"high":..,"n":..},
// an unbounded end as the string "+Inf" or "-Inf".
func (e Estimate) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"mean":%s,"low":%s,"high":%s,"n":%d}`, jsonFloat(e.Mean), jsonFloat(e.Low), jsonFloat(e.High), e.N), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Estimate) UnmarshalJSON(data []byte) error {
	var raw struct {
		Mean, Low, High json.RawMessage
		N               int
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("estimate: %w", err)
	}
	var out Estimate
	for _, f := range []struct {
		dst *float64
		src json.RawMessage
	}{{&out.Mean, raw.Mean}, {&out.Low, raw.Low}, {&out.High, raw.High}} {
		if err := readJSONFloat(f.src, f.dst); err != nil {
			return fmt.Errorf("estimate: %w", err)
		}
	}
	out.N = raw.N
	*e = out
	return nil
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
func (r *Result) groups() (keys []groupKey, byKey map[groupKey][]Outcome) {
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

// Points returns player's mean points per game with two 95% intervals:
// perGame treats every game as independent; perGroup takes as the unit
// the player's mean over each complete opening group (the same opening
// in every seating), which accounts for an opening's bias and for the
// group's games being played together. PerGroup.N counts groups.
func (r *Result) Points(player int) (perGame, perGroup Estimate) {
	return r.perPlayer(player, func(o Outcome, seat int) float64 { return o.Points[seat] })
}

// Lead returns by how many points a game player finished above the mean
// of the other seats in the same game, with the same two intervals as
// Points. A lead whose interval excludes 0 says the player outscores
// its tablemates. When a table seats one player twice, a deterministic
// player replays the same game in the two seatings that swap its
// copies, so the games are not independent: the per-group interval
// counts each opening once and stays honest.
func (r *Result) Lead(player int) (perGame, perGroup Estimate) {
	return r.perPlayer(player, Outcome.lead)
}

// lead is how many points seat finished above the mean of the other
// seats.
func (o Outcome) lead(seat int) float64 {
	others := 0.0
	for s, p := range o.Points {
		if s != seat {
			others += p
		}
	}
	return o.Points[seat] - others/float64(len(o.Points)-1)
}

// perPlayer returns the mean of value over the games player sat in, per
// game and per complete opening group, as Points describes.
func (r *Result) perPlayer(player int, value func(o Outcome, seat int) float64) (perGame, perGroup Estimate) {
	var games, groups []float64
	keys, byKey := r.groups()
	for _, k := range keys {
		sum, n := 0.0, 0
		for _, o := range byKey[k] {
			// A challenge seats its second player more than once a game:
			// the game counts once, with the mean over its seats.
			v, seats := 0.0, 0
			for seat, p := range o.Seats {
				if p == player {
					v += value(o, seat)
					seats++
				}
			}
			if seats > 0 {
				v /= float64(seats)
				games = append(games, v)
				sum += v
				n++
			}
		}
		if n > 0 && len(byKey[k]) == r.groupSize() {
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
func (r *Result) Titles(player int) []Count {
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
func (r *Result) Endings() []Count {
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
func (r *Result) Pairwise() [][]PairScore {
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

// groupSize is the number of games of a complete opening group:
// GroupGames, or every seating when it is not set.
func (r *Result) groupSize() int {
	if r.GroupGames > 0 {
		return r.GroupGames
	}
	return Seatings(r.Seats)
}
