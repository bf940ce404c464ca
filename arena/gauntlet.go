package arena

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"trench/engine"
	"trench/players"
)

// GauntletOptions configure a gauntlet: a short match of the newest
// checkpoint against the previous one and against fixed baselines.
type GauntletOptions struct {
	// Game is the game played.
	Game engine.Game
	// Current and Previous are checkpoint files (or run directories);
	// an empty Previous skips that match.
	Current, Previous string
	// Baselines are player specs, e.g. "random", "alphabeta:depth=2".
	Baselines []string
	// Games is the number of games against each opponent (rounded up to
	// whole pairs).
	Games int
	// NetPlayer is the spec the checkpoints play with, without its net,
	// e.g. "mcts:sims=32"; empty means "policy" (the net's move, no
	// search), the cheapest.
	NetPlayer string
	// OpeningPlies is the random plies of each pair's opening; 0 means 8.
	OpeningPlies int
	// Parallel is the number of games at once; 0 means 16 (the nets'
	// evaluations are batched across games).
	Parallel int
	// Seed seeds the openings; 0 derives it from Current's name.
	Seed uint64
}

// Standing is the current checkpoint's result against one opponent.
type Standing struct {
	// Opponent is the opponent's player spec.
	Opponent string `json:"opponent"`
	// Wins, Draws and Losses are the current checkpoint's.
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Score is the current checkpoint's mean score.
	Score float64 `json:"score"`
	// Elo is its Elo difference over the opponent with a 95% interval
	// per game; PairElo the same per pair of games.
	Elo     Interval `json:"elo"`
	PairElo Interval `json:"pair_elo"`
	// Comparisons is the number of other seats each game compares the
	// current checkpoint with (its Wins, Draws and Losses count
	// comparisons): 1 for two seats; 0 in the metrics of earlier
	// versions, which wrote it for more seats only. PairElo is per
	// opening group, whose games cover every seating (a pair for two).
	Comparisons int `json:"comparisons,omitempty"`
	// Lead, for a game of more than two seats, is the current
	// checkpoint's lead per opening group (Result.Lead): the points a
	// game it finished above the mean of the others.
	Lead *Estimate `json:"lead,omitempty"`
}

// Summary is a gauntlet's result.
type Summary struct {
	// Current is the spec the current checkpoint played as.
	Current string `json:"current"`
	// Games is the number of games played in all.
	Games int `json:"games"`
	// VsPrevious is the result against the previous checkpoint, nil
	// without one.
	VsPrevious *Standing `json:"vs_previous,omitempty"`
	// VsBaselines has one entry per baseline, in order.
	VsBaselines []Standing `json:"vs_baselines"`
}

// RunGauntlet plays a gauntlet. Every player is loaded, and every error in
// a spec or checkpoint reported, before any game starts.
func RunGauntlet(ctx context.Context, o GauntletOptions) (Summary, error) {
	if o.Game == nil {
		return Summary{}, errors.New("gauntlet: no game")
	}
	if o.Current == "" {
		return Summary{}, errors.New("gauntlet: no current checkpoint")
	}
	if o.Games < 1 {
		return Summary{}, fmt.Errorf("gauntlet: games must be 1 or more, got %d", o.Games)
	}
	if o.Previous == "" && len(o.Baselines) == 0 {
		return Summary{}, errors.New("gauntlet: no opponents (no previous checkpoint and no baselines)")
	}
	netSpec := o.NetPlayer
	if netSpec == "" {
		netSpec = "policy"
	}
	netPlayer := func(path string) string {
		if strings.Contains(netSpec, ":") {
			return netSpec + ",net=" + path
		}
		return netSpec + ":net=" + path
	}
	loader := players.NewLoader(o.Game)
	defer loader.Close()
	cur, err := loader.Load(netPlayer(o.Current))
	if err != nil {
		return Summary{}, fmt.Errorf("gauntlet: %w", err)
	}
	var opponents []*players.Maker
	if o.Previous != "" {
		m, err := loader.Load(netPlayer(o.Previous))
		if err != nil {
			return Summary{}, fmt.Errorf("gauntlet: %w", err)
		}
		opponents = append(opponents, m)
	}
	for _, b := range o.Baselines {
		m, err := loader.Load(b)
		if err != nil {
			return Summary{}, fmt.Errorf("gauntlet: %w", err)
		}
		opponents = append(opponents, m)
	}
	seed := o.Seed
	if seed == 0 {
		h := fnv.New64a()
		h.Write([]byte(o.Current))
		seed = h.Sum64()
	}
	plies := o.OpeningPlies
	if plies == 0 {
		plies = 8
	}
	parallel := o.Parallel
	if parallel == 0 {
		parallel = 16
	}
	sum := Summary{Current: cur.Name}
	for i, opp := range opponents {
		// The current checkpoint sits at a table with copies of the
		// opponent in every other seat, every seating of every opening.
		table := []*players.Maker{cur}
		for len(table) < o.Game.Players() {
			table = append(table, opp)
		}
		seatings := Seatings(o.Game.Players())
		res, err := Run(ctx, Config{
			Game: o.Game, Players: table, Groups: (o.Games + seatings - 1) / seatings,
			OpeningPlies: plies, Parallel: parallel, Seed: seed + uint64(i),
		})
		if err != nil {
			return sum, fmt.Errorf("gauntlet against %s: %w", opp.Name, err)
		}
		st := tally(opp.Name, res)
		sum.Games += len(res.Outcomes)
		if i == 0 && o.Previous != "" {
			sum.VsPrevious = &st
		} else {
			sum.VsBaselines = append(sum.VsBaselines, st)
		}
	}
	return sum, nil
}

// Games is the number of games behind a standing: each game compares the
// current checkpoint with every other seat.
func (s Standing) Games() int {
	if s.Comparisons == 0 {
		return s.Wins + s.Draws + s.Losses
	}
	return (s.Wins + s.Draws + s.Losses) / s.Comparisons
}

// ChallengeStanding is the standing of a challenge's challenger
// (Config.Challenge) against the copies of opponent: its comparisons
// with every other seat, as a gauntlet tallies them, and its lead per
// opening group.
func ChallengeStanding(opponent string, res *Result) Standing {
	st := tally(opponent, res)
	_, lead := res.Lead(0)
	st.Lead = &lead
	return st
}

// tally scores the games of player 0 against the other seats' players.
// Each game compares player 0's result with each other seat's: a win
// when ahead, a draw when level, a loss when behind. The game's score is
// the mean of its comparisons; the Elo interval comes from the spread of
// game scores (Elo) and of opening-group means (PairElo), since the
// comparisons within a game are not independent. With two seats these
// are the trinomial and pentanomial intervals.
func tally(opponent string, res *Result) Standing {
	seats := res.Seats
	st := Standing{Opponent: opponent, Comparisons: seats - 1}
	var gameScores []float64
	groupScores := map[[2]int][]float64{}
	for _, out := range res.Outcomes {
		me := -1
		for seat, p := range out.Seats {
			if p == 0 {
				me = seat
			}
		}
		score := 0.0
		for seat := range out.Seats {
			switch {
			case seat == me:
				continue
			case out.Result[me] > out.Result[seat]:
				st.Wins++
				score++
			case out.Result[me] == out.Result[seat]:
				st.Draws++
				score += 0.5
			default:
				st.Losses++
			}
		}
		score /= float64(seats - 1)
		gameScores = append(gameScores, score)
		key := [2]int{out.Table, out.Group}
		groupScores[key] = append(groupScores[key], score)
	}
	var groupMeans []float64
	for _, xs := range groupScores {
		groupMeans = append(groupMeans, mean(xs))
	}
	st.Score = mean(gameScores)
	st.Elo, st.PairElo = sampleElo(gameScores), sampleElo(groupMeans)
	return st
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// sampleElo is the Elo interval of a sample of scores in [0, 1], each one
// observation (dist with every value its own count).
func sampleElo(xs []float64) Interval {
	counts := make([]int, len(xs))
	for i := range counts {
		counts[i] = 1
	}
	return dist(xs, counts)
}
