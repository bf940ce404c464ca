package arena

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Rating is one player's line in a round-robin's Elo table.
type Rating struct {
	Name string
	// Elo is the maximum-likelihood rating; Margin the half-width of its
	// 95% interval relative to the anchor (0 for the anchor).
	Elo, Margin float64
	// Games and Score are the player's games and mean score.
	Games int
	Score float64
}

// eloUnit converts natural-log rating units to Elo.
const eloUnit = 400 / math.Ln10

// RatingTable fits every player's Elo by maximum likelihood to all the
// meetings' results (the logistic model, a draw half a win), with player
// anchor fixed at anchorElo. Each meeting counts one virtual draw so that
// a player who won or lost every game still gets a finite rating. The
// margins come from the inverse of the Fisher information.
func RatingTable(res *Result, anchor int, anchorElo float64) ([]Rating, error) {
	n := len(res.Names)
	if anchor < 0 || anchor >= n {
		return nil, fmt.Errorf("anchor %d is not a player (0..%d)", anchor, n-1)
	}
	games := make([][]float64, n) // games[i][j], with the virtual draw
	score := make([][]float64, n) // i's points against j
	for i := range games {
		games[i], score[i] = make([]float64, n), make([]float64, n)
	}
	out := make([]Rating, n)
	for i := range out {
		out[i].Name = res.Names[i]
	}
	for _, m := range res.Meetings {
		g := float64(m.Games())
		s := float64(m.Wins) + 0.5*float64(m.Draws)
		out[m.A].Games += m.Games()
		out[m.B].Games += m.Games()
		out[m.A].Score += s
		out[m.B].Score += g - s
		games[m.A][m.B] += g + 1
		games[m.B][m.A] += g + 1
		score[m.A][m.B] += s + 0.5
		score[m.B][m.A] += g - s + 0.5
	}
	for i := range out {
		if out[i].Games > 0 {
			out[i].Score /= float64(out[i].Games)
		}
	}
	gamma := fitBradleyTerry(games, score, anchor)
	for i := range out {
		out[i].Elo = anchorElo + eloUnit*math.Log(gamma[i])
	}
	// Fisher information in natural units, the anchor's row and column
	// removed.
	idx := make([]int, 0, n-1)
	for i := range n {
		if i != anchor {
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
			if j == i || games[i][j] == 0 {
				continue
			}
			p := gamma[i] / (gamma[i] + gamma[j])
			f := games[i][j] * p * (1 - p)
			diag += f
			for b, k := range idx {
				if k == j {
					info.SetSym(a, b, -f)
				}
			}
		}
		info.SetSym(a, a, diag)
	}
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return nil, errors.New("the players are not all connected by games: no Elo table")
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, fmt.Errorf("elo table: %w", err)
	}
	for a, i := range idx {
		out[i].Margin = z95 * eloUnit * math.Sqrt(cov.At(a, a))
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
