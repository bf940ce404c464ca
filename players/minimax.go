package players

import (
	"context"
	"fmt"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/mcts"
	"trench/players/minimax"
	"trench/searchconfig"
	"trench/tactics"
)

func loadMinimax(l *Loader, s Spec) (*Maker, error) {
	o, err := newOptions(s, "net", "depth", "time", "nodes", "quiesce", "mat", "hand", "batch", "tt")
	if err != nil {
		return nil, err
	}
	var lim minimax.Limits
	if lim.Depth, lim.Time, lim.Nodes, err = o.searchLimits(minimax.MaxDepth); err != nil {
		return nil, err
	}
	opts := minimax.DefaultOptions
	q, err := o.int("quiesce", 1, 0, 1)
	if err != nil {
		return nil, err
	}
	opts.Quiescence = q == 1
	if opts.Material, err = o.float("mat", opts.Material, 0, 1); err != nil {
		return nil, err
	}
	if opts.StaticWeight, err = o.float("hand", 0, 0, 1); err != nil {
		return nil, err
	}
	if opts.StaticWeight > 0 {
		c := games.ClassicalOf(l.game)
		if c == nil {
			return nil, fmt.Errorf("player %q: hand blends the classical search's evaluation, which judges %s only, not %s", s, games.ClassicalNames(), l.game.Name())
		}
		opts.Static = c.Value
	}
	batch, err := o.int("batch", 0, 0, 1)
	if err != nil {
		return nil, err
	}
	opts.Batch = batch == 1
	if opts.TableBits, err = o.int("tt", minimax.DefaultTableBits, 10, 30); err != nil {
		return nil, err
	}
	if err := opts.Validate(l.game); err != nil {
		return nil, fmt.Errorf("player %q: %w", s, err)
	}
	var net *SharedNet
	var eval mcts.Evaluator = tactics.Fallback{}
	if ref := o.str("net", shipped.Ref); ref != searchconfig.NoNet {
		if net, err = l.Net(ref); err != nil {
			return nil, fmt.Errorf("player %q: %w", s, err)
		}
		eval = net.Eval
	}
	return &Maker{Net: net, Timed: lim.Time > 0, newPlayer: func(uint64) (Player, error) {
		m, err := minimax.New(l.game, eval, opts)
		if err != nil {
			return nil, err
		}
		return &minimaxPlayer{search: m, limits: lim}, nil
	}}, nil
}

// minimaxPlayer plays the best move of an alpha-beta search with the net
// at its leaves.
type minimaxPlayer struct {
	search *minimax.Searcher
	limits minimax.Limits
}

func (p *minimaxPlayer) Move(ctx context.Context, s engine.State) (int, error) {
	r, err := p.search.Search(ctx, s, p.limits)
	if err != nil {
		return 0, err
	}
	return r.Action, nil
}
