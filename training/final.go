package training

import (
	"context"
	"fmt"
	"path/filepath"

	"trench/arena"
	"trench/checkpoints"
)

// finalMatch plays the match a run ends with (Config.FinalGames): its
// newest checkpoint, playing as --eval-player, against the same search
// without a net, on random openings, and prints the result, so that the
// end of a run says whether the net learned.
func (r *runner) finalMatch(ctx context.Context) error {
	paths, err := checkpoints.List(r.dir)
	if err != nil || len(paths) == 0 {
		return err
	}
	newest := paths[len(paths)-1]
	opponent, err := r.cfg.noNetPlayer()
	if err != nil {
		return err
	}
	fmt.Fprintf(r.opt.Progress, "the net against the search without it: %s as %s against %s, %d games\n",
		filepath.Base(newest), r.cfg.EvalPlayer, opponent, r.cfg.FinalGames)
	s, err := arena.RunGauntlet(ctx, arena.GauntletOptions{
		Game: r.game, Current: newest, Baselines: []string{opponent}, Games: r.cfg.FinalGames,
		NetPlayer: r.cfg.EvalPlayer, Seed: r.cfg.Seed ^ 0x66696e616c,
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("the final match: %w", err)
	}
	for _, b := range s.VsBaselines {
		fmt.Fprintf(r.opt.Progress, "  %s: %s\n", filepath.Base(newest), finalVerdict(b))
	}
	return nil
}

// finalVerdict is a final match's result in words: the score, the Elo
// with its interval, and whether the interval says the net helps.
func finalVerdict(s arena.Standing) string {
	n := s.Wins + s.Draws + s.Losses
	verdict := "the interval takes in 0: no sure gain over the search without a net"
	switch {
	case s.Elo.Low > 0:
		verdict = "the net helps the search"
	case s.Elo.High < 0:
		verdict = "the net hurts the search"
	}
	return fmt.Sprintf("%d-%d-%d in %d comparisons, score %.1f%%, Elo %s: %s", s.Wins, s.Draws, s.Losses, n, 100*s.Score, s.Elo, verdict)
}
