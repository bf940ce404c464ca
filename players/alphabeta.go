package players

import (
	"context"
	"fmt"

	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/excerpt"
)

// classicalOf returns the classical search of the loader's game, or an
// error naming the spec when it has none.
func classicalOf(l *Loader, s Spec) (plugin.Classical, error) {
	if c := games.ClassicalOf(l.game); c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("player %s: %s plays only %s, not %s, which has no classical search",
		excerpt.Quote(s.String()), s.Kind, games.ClassicalNames(), l.game.Name())
}

func loadAlphaBeta(l *Loader, s Spec) (*Maker, error) {
	c, err := classicalOf(l, s)
	if err != nil {
		return nil, err
	}
	o, err := newOptions(s, "depth", "time", "nodes", "tt", "eval", "nnue", "net", "search")
	if err != nil {
		return nil, err
	}
	// net= is nnue='s former name.
	net, ok := o.get("nnue")
	if old, given := o.get("net"); given {
		if ok {
			return nil, fmt.Errorf("player %s: give the net once, as nnue= (net= is its old name)", excerpt.Quote(s.String()))
		}
		net = old
	}
	// Without eval=, the engine chooses: its default, or with nnue= the
	// evaluation that reads a net.
	ev, err := c.Evaluation(o.str("eval", ""), net)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	if name, given := o.get("search"); given {
		if ev, err = withAlgorithm(c, ev, name); err != nil {
			return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
		}
	}
	var lim plugin.ClassicalLimits
	if lim.Depth, lim.Time, lim.Nodes, err = o.searchLimits(c.MaxDepth()); err != nil {
		return nil, err
	}
	bits, err := o.int("tt", 18, 10, 30)
	if err != nil {
		return nil, err
	}
	return &Maker{Timed: lim.Time > 0, newPlayer: func(seed uint64) (Player, error) {
		e, err := ev.NewSearcher(bits)
		if err != nil {
			return nil, err
		}
		return &alphaBetaPlayer{search: e, limits: lim}, nil
	}}, nil
}

// withAlgorithm returns ev searching with the algorithm named name, for
// a classical search that has more than one (Trichess's); an error for
// one that has not.
func withAlgorithm(c plugin.Classical, ev plugin.ClassicalEvaluation, name string) (plugin.ClassicalEvaluation, error) {
	a, ok := c.(plugin.ClassicalAlgorithms)
	if !ok {
		return nil, fmt.Errorf("search %s: this game's %s has one search algorithm, chosen for you", excerpt.Quote(name), c.Name())
	}
	return a.WithAlgorithm(ev, name)
}

// alphaBetaPlayer plays the classical search's best move.
type alphaBetaPlayer struct {
	search plugin.ClassicalSearcher
	limits plugin.ClassicalLimits
}

func (p *alphaBetaPlayer) Move(ctx context.Context, s engine.State) (int, error) {
	r, err := p.search.Search(ctx, s, p.limits)
	return r.Action, err
}
