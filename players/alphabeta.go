package players

import (
	"context"
	"fmt"

	"trench/alphabeta"
	"trench/engine"
	"trench/engine/trench"
	"trench/excerpt"
)

func loadAlphaBeta(l *Loader, s Spec) (*Maker, error) {
	if l.game.Name() != trench.Game.Name() {
		return nil, fmt.Errorf("player %s: alphabeta plays only trench, not %s", excerpt.Quote(s.String()), l.game.Name())
	}
	o, err := newOptions(s, "depth", "time", "nodes", "tt")
	if err != nil {
		return nil, err
	}
	var lim alphabeta.Limits
	if lim.Depth, lim.Time, lim.Nodes, err = o.searchLimits(alphabeta.MaxDepth); err != nil {
		return nil, err
	}
	bits, err := o.int("tt", 18, 10, 30)
	if err != nil {
		return nil, err
	}
	return &Maker{Timed: lim.Time > 0, newPlayer: func(seed uint64) (Player, error) {
		e, err := alphabeta.New(bits)
		if err != nil {
			return nil, err
		}
		return &alphaBetaPlayer{engine: e, limits: lim}, nil
	}}, nil
}

// alphaBetaPlayer plays the classical engine's best move.
type alphaBetaPlayer struct {
	engine *alphabeta.Engine
	limits alphabeta.Limits
}

func (p *alphaBetaPlayer) Move(ctx context.Context, s engine.State) (int, error) {
	pos, err := alphabeta.FromState(s)
	if err != nil {
		return 0, err
	}
	r, err := p.engine.Search(ctx, *pos, p.limits)
	if err != nil {
		return 0, err
	}
	return trench.MoveToAction(r.Move, pos.SideToMove()), nil
}
