package data

import "math"

// A record's λ-return is the value target of temporal-difference
// learning: the search's values of the positions after it in its game,
// each later one weighted λ less, and the game's result after the last.
// Record t of a game of n kept positions has, for each player,
//
//	G(n−1) = z,   G(t) = (1−λ)·v(t+1) + λ·G(t+1),
//
// where v(t) is σ(score/scale), the expected result the search's score
// at record t stands for, and z the game's result; λ = 0 is the next
// position's value, λ → 1 the result alone. Records of a game must come
// in the order played; those of other games may be anywhere between.

// sigmoid is 1/(1+e^−x).
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// TrenchReturns stores in out[i] record i's λ-return for its side to
// move, its records' scores read with scale (train.Config's ScoreScale).
// out must hold len(rs) values.
func TrenchReturns(rs []Record, lambda, scale float64, out []float32) {
	type later struct{ g, v [2]float64 } // by colour: G and v of the record after
	games := map[uint64]*later{}
	for i := len(rs) - 1; i >= 0; i-- {
		r := &rs[i]
		me := r.Position.SideToMove()
		var g, v [2]float64
		v[me] = sigmoid(float64(r.Score) / scale)
		v[me.Other()] = 1 - v[me]
		if next, ok := games[r.GameID]; ok {
			for c := range g {
				g[c] = (1-lambda)*next.v[c] + lambda*next.g[c]
			}
		} else {
			z := float64(r.Result.Value())
			g[me], g[me.Other()] = z, 1-z
			games[r.GameID] = &later{}
		}
		*games[r.GameID] = later{g: g, v: v}
		out[i] = float32(g[me])
	}
}

// TrichessReturns stores in out[3i+j] record i's λ-return for the seat j
// places after its side to move (TrichessRecords' outputs), its records'
// leads read with scale and their titles' points over 3 the results.
// out must hold 3·len(rs) values.
func TrichessReturns(rs []TrichessRecord, lambda, scale float64, out []float32) {
	type later struct{ g, v [3]float64 } // by colour: G and v of the record after
	games := map[uint64]*later{}
	for i := len(rs) - 1; i >= 0; i-- {
		r := &rs[i]
		var g, v [3]float64
		for c := range v {
			v[c] = sigmoid(float64(r.Leads[c]) / scale)
		}
		if next, ok := games[r.GameID]; ok {
			for c := range g {
				g[c] = (1-lambda)*next.v[c] + lambda*next.g[c]
			}
		} else {
			for c := range g {
				g[c] = float64(r.Titles[c].Points()) / 3
			}
			games[r.GameID] = &later{}
		}
		*games[r.GameID] = later{g: g, v: v}
		me := int(r.Position.SideToMove())
		for j := range 3 {
			out[3*i+j] = float32(g[(me+j)%3])
		}
	}
}
