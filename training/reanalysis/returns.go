package reanalysis

import (
	"context"
	"fmt"
	"math"

	"trench/datasets"
	"trench/engine"
	"trench/training/relabel"
)

// Returns copies the newest shards of directory src into directory dst
// as Relabel does, giving every position its game's λ-return as its
// search value: the values stored for the positions after it in the same
// game, each later one weighted λ times less than the one before, and
// the game's result after the last (TD(λ), as in KataGo's short-term
// value targets). Lambda 1 gives the result alone; lambda 0 the next
// position's stored value. The stored values are those of the search
// that played each move, or a teacher's after an earlier Relabel. Every
// position must have one, and each game's positions must stand together
// in the order they were played, as self-play writes them. opt.Policy
// and opt.Batch do not apply.
func Returns(ctx context.Context, g engine.Game, src, dst string, lambda float64, opt Options) (relabel.Stats, error) {
	if !(lambda >= 0 && lambda <= 1) {
		return relabel.Stats{}, fmt.Errorf("reanalysis: lambda must be in [0, 1], got %v", lambda)
	}
	if opt.Policy {
		return relabel.Stats{}, fmt.Errorf("reanalysis: λ-returns are values; they give no policy")
	}
	return relabel.Copy(ctx, g, src, dst, opt.copyOptions(), func() (relabel.ShardLabeller, error) { return returns{lambda: float32(lambda)}, nil })
}

// returns is the labeller of Returns.
type returns struct {
	lambda float32
}

// Relabel sets each sample's search value to its λ-return, game by game.
func (r returns) Relabel(samples []datasets.Sample) error {
	for start := 0; start < len(samples); {
		end := start + 1
		for end < len(samples) && samples[end].GameID == samples[start].GameID {
			end++
		}
		if err := r.game(samples[start:end], start); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// game sets the λ-returns of one game's positions, the first of which is
// the shard's position first, working back from the result.
func (r returns) game(positions []datasets.Sample, first int) error {
	last := positions[len(positions)-1]
	players := len(last.Result)
	ret := make([]float32, players)
	copy(ret, last.Result)
	next := last.SearchValue
	for i := len(positions) - 1; i >= 0; i-- {
		p := &positions[i]
		if len(p.Result) != players || len(p.SearchValue) != players {
			return fmt.Errorf("position %d (game %d): %d results and %d stored values for a game of %d players; λ-returns need every position's search value",
				first+i, p.GameID, len(p.Result), len(p.SearchValue), players)
		}
		for k, v := range p.SearchValue {
			if math.IsNaN(float64(v)) {
				return fmt.Errorf("position %d (game %d): stored value %d is not a number", first+i, p.GameID, k)
			}
		}
		if i < len(positions)-1 {
			for k := range ret {
				ret[k] = (1-r.lambda)*next[k] + r.lambda*ret[k]
			}
		}
		next = p.SearchValue
		p.SearchValue = append([]float32(nil), ret...)
	}
	return nil
}
