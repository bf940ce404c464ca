package datagen

import (
	"context"
	"fmt"
	"math/rand/v2"

	trichessab "trench/alphabeta/trichess"
	"trench/engine/trichess"
	"trench/nnue/data"
)

// TrichessPlayer plays Trichess games with one engine, as Player does
// Trench's: the search (Algorithm, BRS+ by default) with an evaluation
// at a node budget a move, from random openings, each position kept
// with every seat's lead (trichessab.Searcher.SeatLeads) and the titles the game ended
// with.
type TrichessPlayer struct {
	cfg       Config
	s         *trichessab.Searcher
	positions []trichess.Position
	leads     [][3]int
}

// NewTrichessPlayer returns a player of games under cfg (its Workers
// and ShardGames unused) whose engine searches with algorithm a and
// eval.
func NewTrichessPlayer(cfg Config, a trichessab.Algorithm, eval trichessab.Evaluator) (*TrichessPlayer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("datagen: %w", err)
	}
	s, err := trichessab.New(a, cfg.TableBits)
	if err != nil {
		return nil, err
	}
	s.SetEvaluator(eval)
	return &TrichessPlayer{cfg: cfg, s: s}, nil
}

// opening returns a random opening that is not over and, if the config
// judges openings, whose mover's lead by a shallow search is within the
// margin, counting the ones dropped. After 100 dropped in a row it
// takes the next.
func (g *TrichessPlayer) opening(ctx context.Context, rng *rand.Rand) (*trichess.State, int, error) {
	dropped := 0
	for {
		st := trichess.NewState(trichess.StartPosition())
		for i := 0; i < g.cfg.RandomPlies && !st.Over(); i++ {
			st.PlayMove(st.Moves()[rng.IntN(len(st.Moves()))])
		}
		if st.Over() {
			continue
		}
		if g.cfg.OpeningDepth == 0 || dropped >= 100 {
			return st, dropped, nil
		}
		g.s.Clear()
		r, err := g.s.Search(ctx, st.Position, trichessab.Limits{Depth: g.cfg.OpeningDepth})
		if err != nil {
			return nil, dropped, err
		}
		if ctx.Err() != nil {
			return nil, dropped, ctx.Err()
		}
		if r.Score >= -g.cfg.OpeningMargin && r.Score <= g.cfg.OpeningMargin {
			return st, dropped, nil
		}
		dropped++
	}
}

// Play plays game id and returns the records of its positions kept,
// with what it did. Its moves depend only on cfg and id. Positions
// whose best move captures or whose lead is a finished game's are left
// out unless the config keeps them. When ctx is done it returns ctx's
// error and no records.
func (g *TrichessPlayer) Play(ctx context.Context, id uint64) ([]data.TrichessRecord, Stats, error) {
	var st Stats
	rng := gameRand(g.cfg.Seed, id)
	s, dropped, err := g.opening(ctx, rng)
	st.Dropped = dropped
	if err != nil {
		return nil, st, err
	}
	g.s.Clear()
	g.positions, g.leads = g.positions[:0], g.leads[:0]
	limits := trichessab.Limits{SoftNodes: g.cfg.SoftNodes, Nodes: g.cfg.HardNodes}
	for ply := 0; !s.Over(); ply++ {
		r, err := g.s.Search(ctx, s.Position, limits)
		if err != nil {
			return nil, st, err
		}
		if ctx.Err() != nil {
			return nil, st, ctx.Err()
		}
		st.Searched++
		_, _, capture := s.PieceAt(r.Move.To())
		if g.cfg.keeps(capture, r.Forced()) {
			g.positions = append(g.positions, s.Position)
			g.leads = append(g.leads, [3]int(g.s.SeatLeads(&s.Position, r)))
		} else {
			st.Skipped++
		}
		m := r.Move
		if ply < g.cfg.RandomMoves && g.cfg.RandomChance > 0 && rng.Float64() < g.cfg.RandomChance {
			moves := s.Moves()
			m = moves[rng.IntN(len(moves))]
		}
		s.PlayMove(m)
	}
	records, err := data.LabelTrichess(id, g.positions, g.leads, s.Outcome())
	return records, st, err
}
