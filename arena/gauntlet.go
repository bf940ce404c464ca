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
	// Comparisons is, in a game of more than two seats, the number of
	// other seats each game compares the current checkpoint with (its
	// Wins, Draws and Losses count comparisons); 0 for two seats. There
	// PairElo is per opening group, whose games cover every seating.
	Comparisons int `json:"comparisons,omitempty"`
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
		var st Standing
		if seats := o.Game.Players(); seats > 2 {
			st, err = multiStanding(ctx, o.Game, cur, opp, o.Games, plies, parallel, seed+uint64(i))
			if err != nil {
				return sum, err
			}
			sum.Games += st.Games()
		} else {
			res, err := Run(ctx, Config{
				Game: o.Game, Players: []*players.Maker{cur, opp}, Pairs: (o.Games + 1) / 2,
				OpeningPlies: plies, Parallel: parallel, Seed: seed + uint64(i),
			})
			if err != nil {
				return sum, fmt.Errorf("gauntlet against %s: %w", opp.Name, err)
			}
			m := res.Meetings[0]
			st = Standing{Opponent: opp.Name, Wins: m.Wins, Draws: m.Draws, Losses: m.Losses,
				Score: m.Score(), Elo: m.Elo(), PairElo: m.PairElo()}
			sum.Games += res.Games
		}
		if i == 0 && o.Previous != "" {
			sum.VsPrevious = &st
		} else {
			sum.VsBaselines = append(sum.VsBaselines, st)
		}
	}
	return sum, nil
}

// Games is the number of games behind a standing in a game of more than
// two players: each game compares the current checkpoint with every
// other seat.
func (s Standing) Games() int {
	if s.Comparisons == 0 {
		return s.Wins + s.Draws + s.Losses
	}
	return (s.Wins + s.Draws + s.Losses) / s.Comparisons
}

// multiStanding plays the current checkpoint against a table of copies of
// opp in a game of more than two seats, every seating of every opening
// group (RunMulti), games games rounded up to whole groups. Each game
// compares the current checkpoint's result with each other seat's: a
// win when ahead, a draw when level, a loss when behind. The game's score
// is the mean of its comparisons; the Elo interval comes from the spread
// of game scores (Elo) and of opening-group means (PairElo), since the
// comparisons within a game are not independent.
func multiStanding(ctx context.Context, g engine.Game, cur, opp *players.Maker, games, plies, parallel int, seed uint64) (Standing, error) {
	seats := g.Players()
	table := []*players.Maker{cur}
	for len(table) < seats {
		table = append(table, opp)
	}
	perGroup := 1
	for k := 2; k <= seats; k++ {
		perGroup *= k
	}
	res, err := RunMulti(ctx, MultiConfig{
		Game: g, Players: table, Groups: (games + perGroup - 1) / perGroup,
		OpeningPlies: plies, Parallel: parallel, Seed: seed,
	})
	if err != nil {
		return Standing{}, fmt.Errorf("gauntlet against %s: %w", opp.Name, err)
	}
	return tally(opp.Name, seats, res.Outcomes), nil
}

// tally scores the games of player 0 against the other seats' players.
func tally(opponent string, seats int, outcomes []Outcome) Standing {
	st := Standing{Opponent: opponent, Comparisons: seats - 1}
	var gameScores []float64
	groupScores := map[[2]int][]float64{}
	for _, out := range outcomes {
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
