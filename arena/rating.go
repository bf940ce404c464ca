package arena

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Rating is one player's line in a match's Elo table.
type Rating struct {
	Name string
	// Elo is the maximum-likelihood rating; Low and High bound its 95%
	// interval (both Elo for the anchor; unbounded when a game of more
	// than two seats had fewer than two opening groups per table).
	Elo, Low, High float64
	// Games are the games the player sat in, and Score its share of the
	// comparisons with the other seats' players in them (ahead 1, level
	// ½).
	Games int
	Score float64
}

// eloUnit converts natural-log rating units to Elo.
const eloUnit = 400 / math.Ln10

// bootstrapRounds is the number of resamples behind the rating intervals
// of games of more than two seats.
const bootstrapRounds = 1000

// Ratings fits every player's Elo by maximum likelihood to the pairwise
// results of all the games (Bradley–Terry with the logistic Elo scale:
// every two seats of a game compare their results, a tie half a win),
// with player anchor fixed at anchorElo. Every two players who met count
// one virtual draw, so that a player ahead in every game still gets a
// finite rating.
//
// In a game of two seats each game is one independent comparison, and
// the 95% intervals come from the inverse of the Fisher information.
// With more seats the comparisons are not independent (one game yields
// one for every two of its players, and the games of a group share an
// opening), so the intervals come from a bootstrap that resamples whole
// opening groups within each table and refits.
func (r *Result) Ratings(anchor int, anchorElo float64) ([]Rating, error) {
	n := len(r.Names)
	if anchor < 0 || anchor >= n {
		return nil, fmt.Errorf("anchor %d is not a player (0..%d)", anchor, n-1)
	}
	if len(r.Outcomes) == 0 {
		return nil, errors.New("no games played")
	}
	keys, byKey := r.groups()
	all := newPairTally(n)
	tallies := make([]pairTally, len(keys))
	byTable := map[int][]int{} // table → indices into keys
	out := make([]Rating, n)
	for i, k := range keys {
		tallies[i] = newPairTally(n)
		for _, o := range byKey[k] {
			tallies[i].add(o, 1)
			all.add(o, 1)
			for _, p := range o.Seats {
				out[p].Games++
			}
		}
		byTable[k.table] = append(byTable[k.table], i)
	}
	fit, err := fitElo(all, anchor, anchorElo)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Name, out[i].Elo = r.Names[i], fit.elo[i]
		out[i].Low, out[i].High = math.Inf(-1), math.Inf(1)
		if g := total(all.games[i]); g > 0 {
			out[i].Score = total(all.wins[i]) / g
		}
	}
	out[anchor].Low, out[anchor].High = anchorElo, anchorElo
	if r.Seats == 2 {
		margins, err := fit.fisherMargins()
		if err != nil {
			return nil, err
		}
		for i, m := range margins {
			out[i].Low, out[i].High = out[i].Elo-m, out[i].Elo+m
		}
		return out, nil
	}
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
			samples[i] = append(samples[i], e.elo[i])
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

func total(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
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

// eloFit is a fitted rating: the comparisons it was fitted to (with the
// virtual draws), the strengths and the ratings.
type eloFit struct {
	games      [][]float64
	gamma, elo []float64
	anchor     int
}

// fitElo fits the ratings of a pairwise tally, one virtual draw added to
// every pair that met, with anchor at anchorElo.
func fitElo(t pairTally, anchor int, anchorElo float64) (eloFit, error) {
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
		return eloFit{}, errors.New("the players are not all connected by games: no rating")
	}
	f := eloFit{games: games, gamma: fitBradleyTerry(games, score, anchor), elo: make([]float64, n), anchor: anchor}
	for i, g := range f.gamma {
		f.elo[i] = anchorElo + eloUnit*math.Log(g)
	}
	return f, nil
}

// fisherMargins are the half-widths of the ratings' 95% intervals
// relative to the anchor (0 for the anchor), from the inverse of the
// Fisher information of independent comparisons.
func (f eloFit) fisherMargins() ([]float64, error) {
	n := len(f.games)
	out := make([]float64, n)
	idx := make([]int, 0, n-1) // the players but the anchor
	for i := range n {
		if i != f.anchor {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return out, nil
	}
	info := mat.NewSymDense(len(idx), nil)
	for a, i := range idx {
		diag := 0.0
		for j := range n {
			if j == i || f.games[i][j] == 0 {
				continue
			}
			p := f.gamma[i] / (f.gamma[i] + f.gamma[j])
			fi := f.games[i][j] * p * (1 - p)
			diag += fi
			if b := slices.Index(idx, j); b >= 0 {
				info.SetSym(a, b, -fi)
			}
		}
		info.SetSym(a, a, diag)
	}
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return nil, errors.New("the players are not all connected by games: no rating")
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, fmt.Errorf("rating: %w", err)
	}
	for a, i := range idx {
		out[i] = z95 * eloUnit * math.Sqrt(cov.At(a, a))
	}
	return out, nil
}

// fitBradleyTerry returns the maximum-likelihood strengths gamma (the
// rating is log gamma in natural units) of the logistic model for
// games[i][j] games between i and j in which i scored score[i][j], with
// gamma[anchor] = 1, by minorisation-maximisation (Hunter 2004).
func fitBradleyTerry(games, score [][]float64, anchor int) []float64 {
	n := len(games)
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	next := make([]float64, n)
	for iter := 0; iter < 10000; iter++ {
		change := 0.0
		for i := range n {
			w, d := 0.0, 0.0
			for j := range n {
				if games[i][j] > 0 {
					w += score[i][j]
					d += games[i][j] / (gamma[i] + gamma[j])
				}
			}
			next[i] = gamma[i]
			if d > 0 {
				next[i] = w / d
			}
		}
		norm := next[anchor]
		for i := range n {
			next[i] /= norm
			change = math.Max(change, math.Abs(math.Log(next[i]/gamma[i])))
		}
		copy(gamma, next)
		if change < 1e-10 {
			break
		}
	}
	return gamma
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
