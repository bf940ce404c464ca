package players

import (
	"context"
	"fmt"
	"time"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/internal/excerpt"
	"trench/internal/settings"
	"trench/mcts"
	"trench/players/minimax"
	"trench/searchconfig"
	"trench/tactics"
)

// minimaxSettings are the minimax player's options.
type minimaxSettings struct {
	Net     string        `key:"net" help:"the net at the leaves: a checkpoint file, a run directory (its newest checkpoint), default (the one built in) or none (no net: a material evaluation)"`
	Depth   int           `key:"depth" min:"1" max:"MaxDepth" help:"plies searched per move, the default only when neither time nor nodes is given"`
	Time    time.Duration `key:"time" min:"1ns" max:"1h" help:"time per move, e.g. 200ms (with depth or nodes, whichever ends first)"`
	Nodes   int           `key:"nodes" min:"1" max:"MaxNodes" help:"nodes per move, leaves included (with depth or time, whichever ends first)"`
	Quiesce bool          `key:"quiesce" help:"play out the captures pending at a leaf before the net judges it, as for mcts"`
	Mat     float64       `key:"mat" min:"0" max:"1" help:"weight of the material lead in a leaf's value, blended with the net's, as for mcts"`
	Hand    float64       `key:"hand" min:"0" max:"1" help:"weight of alphabeta's hand-written evaluation blended into the leaves' values (Trench only)"`
	Batch   bool          `key:"batch" help:"evaluate the children of a node above the leaves in one net call instead of one leaf at a time"`
	TT      int           `key:"tt" min:"10" max:"30" help:"its table holds 2^tt entries"`
}

// minimaxDefaults are the minimax player's settings where its spec gives
// none: the built-in net, depth 3 and the search's default options.
func minimaxDefaults() minimaxSettings {
	o := minimax.DefaultOptions
	return minimaxSettings{Net: shipped.Ref, Depth: 3, Quiesce: o.Quiescence, Mat: o.Material,
		Hand: o.StaticWeight, Batch: o.Batch, TT: minimax.DefaultTableBits}
}

// minimaxDeclared reads the minimax player's options.
var minimaxDeclared = settings.Must[minimaxSettings](settings.Options{Bounds: map[string]float64{
	"MaxDepth": minimax.MaxDepth,
	"MaxNodes": maxNodes,
}})

// minimaxUsage describes the minimax player and its options, for --help.
var minimaxUsage = declaredUsage("minimax[:KEY=VALUE,...]: alpha-beta search with the net's value at the leaves (two-player games), by depth, time or nodes per move. Its options:",
	minimaxDeclared, minimaxDefaults())

func loadMinimax(l *Loader, s Spec) (*Maker, error) {
	o := minimaxDefaults()
	given, err := readOptions(s, minimaxDeclared, &o)
	if err != nil {
		return nil, err
	}
	var lim minimax.Limits
	lim.Depth, lim.Time, lim.Nodes = depthFirstLimits(o.Depth, o.Time, o.Nodes, given)
	opts := minimax.Options{Quiescence: o.Quiesce, Material: o.Mat, StaticWeight: o.Hand, Batch: o.Batch, TableBits: o.TT}
	if opts.StaticWeight > 0 {
		c := games.ClassicalOf(l.game)
		if c == nil {
			return nil, fmt.Errorf("player %s: hand blends the classical search's evaluation, which judges %s only, not %s", excerpt.Quote(s.String()), games.ClassicalNames(), l.game.Name())
		}
		opts.Static = c.Value
	}
	if err := opts.Validate(l.game); err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	var net *SharedNet
	var eval mcts.Evaluator = tactics.Fallback{}
	if o.Net != searchconfig.NoNet {
		if net, err = l.Net(o.Net); err != nil {
			return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
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
