package players

import (
	"context"
	"fmt"
	"time"

	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/excerpt"
	"trench/internal/settings"
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

// alphaBetaSettings are the alphabeta player's options.
type alphaBetaSettings struct {
	Depth  int           `key:"depth" min:"1" max:"MaxDepth" help:"plies searched per move, the default only when neither time nor nodes is given"`
	Time   time.Duration `key:"time" min:"1ns" max:"1h" help:"time per move, e.g. 200ms (with depth or nodes, whichever ends first)"`
	Nodes  int           `key:"nodes" min:"1" max:"MaxNodes" help:"nodes per move, quiescence included (with depth or time, whichever ends first)"`
	TT     int           `key:"tt" min:"10" max:"30" help:"its table holds 2^tt entries"`
	Eval   string        `key:"eval" help:"its evaluation: hand (the hand-written one, the default without nnue), rules (Trench: the score difference alone), material (Trichess: the piece points alone) or nnue (the efficiently updatable net nnue names, the default with nnue); the old spelling eval=net still reads"`
	NNUE   string        `key:"nnue" alias:"net" help:"the efficiently updatable net of eval nnue: a net file of the game's, a run directory of trench train --preset nnue (its newest accepted net) or default (the one built in, Trench's alone)"`
	Search string        `key:"search" help:"Trichess's three-player search: brs (Best-Reply Search, BRS+, the default), paranoid or maxn (max^n with shallow pruning); Trench has one search"`
}

// alphaBetaDefaults are the alphabeta player's settings where its spec
// gives none.
func alphaBetaDefaults() alphaBetaSettings { return alphaBetaSettings{Depth: 3, TT: 18} }

// alphaBetaDeclared reads the alphabeta player's options. Its depth goes
// as deep as the deepest classical search of the games (Trench's: 64).
var alphaBetaDeclared = settings.Must[alphaBetaSettings](settings.Options{Bounds: map[string]float64{
	"MaxDepth": float64(classicalMaxDepth()),
	"MaxNodes": maxNodes,
}})

// alphaBetaUsage describes the alphabeta player and its options, for
// --help.
var alphaBetaUsage = declaredUsage("alphabeta[:KEY=VALUE,...]: the classical search (Trench and Trichess) by depth, time or nodes per move: the fixed classical yardstick, where bot:kind=alphabeta is the bot. Its options, the old key still read:",
	alphaBetaDeclared, alphaBetaDefaults())

// classicalMaxDepth is the deepest search the games' classical searches
// take.
func classicalMaxDepth() int {
	depth := 0
	for _, p := range games.Plugins() {
		if p.Classical != nil {
			depth = max(depth, p.Classical.MaxDepth())
		}
	}
	return depth
}

func loadAlphaBeta(l *Loader, s Spec) (*Maker, error) {
	c, err := classicalOf(l, s)
	if err != nil {
		return nil, err
	}
	o := alphaBetaDefaults()
	given, err := readOptions(s, alphaBetaDeclared, &o)
	if err != nil {
		return nil, err
	}
	// Without eval=, the classical search chooses: its default, or with
	// nnue= the evaluation that reads a net.
	ev, err := c.Evaluation(o.Eval, o.NNUE)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	if given["search"] {
		if ev, err = withAlgorithm(c, ev, o.Search); err != nil {
			return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
		}
	}
	var lim plugin.ClassicalLimits
	lim.Depth, lim.Time, lim.Nodes = depthFirstLimits(o.Depth, o.Time, o.Nodes, given)
	return &Maker{Timed: lim.Time > 0, newPlayer: func(seed uint64) (Player, error) {
		e, err := ev.NewSearcher(o.TT)
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
