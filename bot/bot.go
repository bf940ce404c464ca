// Package bot is the face of the engine that a player uses: it loads a net
// (a checkpoint file, a run directory's newest checkpoint or the net
// embedded in the binary), searches positions with mcts over that net
// within a limit of simulations or time, keeps its search tree from one
// move to the next, and reports the chosen move with the search's analysis:
// each player's value, win/draw/loss chances and expected final score
// difference, the principal variation and the statistics of every root
// move. It plays games of any number of players; a game without a net
// (Trichess has none built in) can be searched with Fallback, a material
// evaluator. Searches see captures through package tactics (tactics.Play
// unless Options say otherwise).
//
// Package bot knows nothing of terminals, web pages or protocols; the
// trench command's play, serve and engine subcommands are built on it.
package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"trench/engine"
	"trench/mcts"
	"trench/neteval"
	"trench/tactics"
)

// Options configure a Bot.
type Options struct {
	// Params are the search's parameters; the zero value means
	// mcts.DefaultParams (PUCT, no noise, the most visited move).
	Params *mcts.Params
	// Threads is the number of goroutines searching one tree; 0 means 1.
	Threads int
	// Tactics are the search's tactical aids; nil means tactics.Play.
	Tactics *tactics.Settings
}

// Bot searches positions of one game with one net, keeping its tree
// between moves. Its methods are safe for concurrent use; searches run one
// at a time.
type Bot struct {
	mu   sync.Mutex
	game engine.Game
	// net is nil for a bot made by NewWithEvaluator.
	net     *Net
	eval    mcts.Evaluator
	evalDoc string
	tree    *mcts.Tree
	threads int
	res     mcts.Result
	// scratch for the analysis's net calls
	input, policy, value, score []float32
}

// New returns a bot for game g playing with net, rooted at g's start.
func New(g engine.Game, net *Net, opts Options) (*Bot, error) {
	ev, err := neteval.New(g, net.Inference)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", net.Source, err)
	}
	b, err := build(g, ev, net.String(), opts)
	if err != nil {
		return nil, err
	}
	b.net = net
	return b, nil
}

// NewWithEvaluator returns a bot for game g that searches with ev instead
// of a net (for example Fallback); doc describes the evaluator for people.
// Its analyses take every player's chances from the search's values alone:
// no draw chance and no expected score.
func NewWithEvaluator(g engine.Game, ev mcts.Evaluator, doc string, opts Options) (*Bot, error) {
	if ev == nil {
		return nil, errors.New("bot: no evaluator")
	}
	return build(g, ev, doc, opts)
}

func build(g engine.Game, ev mcts.Evaluator, doc string, opts Options) (*Bot, error) {
	p := mcts.DefaultParams()
	if opts.Params != nil {
		p = *opts.Params
	}
	if opts.Threads < 0 {
		return nil, fmt.Errorf("threads must not be negative, got %d", opts.Threads)
	}
	aids := tactics.Play
	if opts.Tactics != nil {
		aids = *opts.Tactics
	}
	if err := aids.Validate(); err != nil {
		return nil, err
	}
	if _, ok := g.Start().(engine.Captures); ok && !aids.Off() {
		ev = aids.Wrap(ev)
		doc += "; tactical aids: " + aids.String()
	}
	tree, err := mcts.NewTree(g.Start(), p)
	if err != nil {
		return nil, err
	}
	return &Bot{game: g, eval: ev, evalDoc: doc, tree: tree, threads: max(1, opts.Threads)}, nil
}

// Net returns the bot's net, or nil for a bot made by NewWithEvaluator.
func (b *Bot) Net() *Net { return b.net }

// String describes what the bot searches with: its net, or its evaluator.
func (b *Bot) String() string { return b.evalDoc }

// Game returns the bot's game.
func (b *Bot) Game() engine.Game { return b.game }

// Position returns a copy of the position the bot searches.
func (b *Bot) Position() engine.State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tree.State()
}

// SetPosition makes s the position to search. When s follows the current
// position by one or two moves (the bot's move and the reply), the search
// tree below it is kept; otherwise the tree starts afresh.
func (b *Bot) SetPosition(s engine.State) error {
	if s.Game().Name() != b.game.Name() {
		return fmt.Errorf("a %s position given to a %s bot", s.Game().Name(), b.game.Name())
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	root := b.tree.State()
	want := s.String()
	if root.String() == want {
		return nil
	}
	if path := findPath(root, want, 2); path != nil {
		for _, a := range path {
			if err := b.tree.Advance(a); err != nil {
				return err
			}
		}
		return nil
	}
	b.tree.Reset(s)
	return nil
}

// NewGame forgets the search tree: the next search starts afresh from the
// game's start, even when the bot is there already.
func (b *Bot) NewGame() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tree.Reset(b.game.Start())
}

// findPath returns the actions that lead from s to the position whose
// text is want in at most depth plies, or nil.
func findPath(s engine.State, want string, depth int) []int {
	if depth == 0 || s.Over() {
		return nil
	}
	for _, a := range s.LegalActions(nil) {
		c := s.Clone()
		c.Play(a)
		if c.String() == want {
			return []int{a}
		}
		if p := findPath(c, want, depth-1); p != nil {
			return append([]int{a}, p...)
		}
	}
	return nil
}

// Play plays action at the current position, keeping the subtree below
// it. The error wraps engine.ErrIllegalAction for an illegal action.
func (b *Bot) Play(action int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tree.Advance(action)
}

// Search searches the current position within limits and returns the move
// it would play with its analysis; it does not play the move. When ctx is
// done before the limit, the search stops and reports what it found so far
// (Analysis.Stopped); only a search that could not evaluate the position at
// all returns ctx's error.
func (b *Bot) Search(ctx context.Context, limits Limits) (*Analysis, error) {
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	root := b.tree.State()
	if root.Over() {
		return nil, mcts.ErrGameOver
	}
	start := time.Now()
	before := 1 // the root's own evaluation is not a simulation
	if b.tree.Result(&b.res) == nil {
		before = b.res.Visits
	}
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if limits.Time > 0 {
		sctx, cancel = context.WithTimeout(ctx, limits.Time)
	}
	defer cancel()
	sims := limits.Sims
	if sims == 0 {
		sims = MaxSims
	}
	err := b.tree.Search(sctx, b.eval, sims, b.threads)
	stopped := false
	if err != nil {
		if sctx.Err() == nil || !errors.Is(err, sctx.Err()) {
			return nil, err
		}
		stopped = ctx.Err() != nil
	}
	if err := b.tree.Result(&b.res); err != nil {
		if errors.Is(err, mcts.ErrNotSearched) && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	a, err := b.analyse(root, &b.res)
	if err != nil {
		return nil, err
	}
	a.Sims = b.res.Visits - before
	a.Elapsed = time.Since(start)
	a.Stopped = stopped
	a.Limits = limits.String()
	return a, nil
}
