// Package bot is the AI as a player. A Bot searches positions of one
// game and reports the move it would play with the search's analysis:
// each player's value, win/draw/loss chances and expected final score
// difference where its search knows them, the principal variation and
// the statistics of the root moves. It has two searchers:
//
//   - AlphaBeta (searchconfig.AlphaBeta, the kind people play Trench
//     against): the game's classical full-width search with an
//     evaluation (the NNUE built in, a trained one, or the hand-written
//     one), keeping one engine and its table from move to move, within
//     nodes or time, on one thread.
//   - Tree (searchconfig.MCTS): mcts over a conv net (neteval.LoadNet: a
//     checkpoint file, a run directory's newest checkpoint or the net
//     embedded in the binary) within simulations or time, keeping its
//     tree from one move to the next; a game without a net searches with
//     tactics.Fallback, a material evaluator. Searches see captures
//     through package tactics; leaves may take their values from the
//     NNUE instead (Options.Values); a guard and an endgame may hand
//     moves to the classical search.
//
// A bot's settings are a searchconfig.Config, and a Maker, made once
// from them, reads the net they name once and makes the bots of every
// face: play, serve, engine, analysis and the arena's bot player (package
// players), which training's evaluation matches use too. Two rules hold
// for all of them:
//
//   - Reuse: given a new position (SetPosition), a tree bot keeps the
//     subtree of the moves actually played since its root, however many
//     plies they are, as long as the tree leads there; an alpha-beta bot
//     keeps its table.
//   - Limits: a search stops at its limit (simulations or nodes) or its
//     time, whichever comes first. A time limit that ends before the
//     root's first evaluation does not leave the bot without a move. Only
//     the caller's context stops a search that has nothing; one stopped
//     with something reports it (Analysis.Stopped).
//
// Package bot knows nothing of terminals, web pages or protocols.
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
	"trench/searchconfig"
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
	// Games whose states do not report captures (engine.Captures) are
	// searched without them.
	Tactics *tactics.Settings
	// Evaluator, if set, evaluates the positions of a bot made by New
	// with a net in place of an evaluator of its own over that net, which
	// it must evaluate with: for example a neteval.Batcher shared by the
	// bots of games played at once.
	Evaluator mcts.Evaluator
	// Guard, if set, has a classical search check the search's moves (see
	// Guard); the bot then owns its Searcher.
	Guard *Guard
	// Endgame, if set, has a classical search choose the moves once the
	// game nears its end (see Endgame); the bot then owns it.
	Endgame *Endgame
	// AverageSymmetries has every evaluation averaged over the board's
	// symmetries (mcts.SymmetryAverage), at that many times the work.
	AverageSymmetries bool
	// Values, if set, value the search's leaves in place of the net (or
	// Fallback), which then gives the priors alone: the game's NNUE,
	// each search thread with a valuer of its own (neteval.Values).
	Values *neteval.Values
}

// Bot is the AI as a player: a searcher of one game's positions, of the
// alphabeta kind (*AlphaBeta) or the tree search (*Tree). Its methods are
// safe for concurrent use; searches run one at a time.
type Bot interface {
	// Game returns the bot's game.
	Game() engine.Game
	// Kind is the bot's kind of search: searchconfig.AlphaBeta or MCTS.
	Kind() string
	// String describes the searcher and what it evaluates with, e.g. the
	// net and the file it came from.
	String() string
	// Position returns a copy of the position the bot searches.
	Position() engine.State
	// SetPosition makes s the position to search, keeping what the bot
	// can of its earlier searches.
	SetPosition(s engine.State) error
	// NewGame forgets what earlier searches learnt (the tree, the table):
	// the next search starts afresh from the game's start.
	NewGame()
	// Play plays action at the current position. The error wraps
	// engine.ErrIllegalAction for an illegal action.
	Play(action int) error
	// Search searches the current position within limits and returns the
	// move it would play with its analysis; it does not play the move.
	// When ctx is done before the limit, the search stops and reports
	// what it found so far (Analysis.Stopped); only a search that found
	// nothing returns ctx's error.
	Search(ctx context.Context, limits Limits) (*Analysis, error)
	// Choose searches as Search does and fills r with the search's
	// result at the root: the chosen move (r.Action), every player's
	// value and the main line, with the root moves' statistics where the
	// search has them. It skips what only an analysis needs.
	Choose(ctx context.Context, limits Limits, r *mcts.Result) error
	// InEndgame reports whether a classical search with the hand-written
	// evaluation chooses the next move (the endgame), which then searches
	// with the whole limit at once.
	InEndgame() bool
}

// Tree is the bot of the tree search: it searches positions of one game
// with one net, or tactics.Fallback, keeping its tree between moves.
type Tree struct {
	mu   sync.Mutex
	game engine.Game
	// net is nil for a bot made by NewWithEvaluator.
	net     *neteval.Net
	eval    mcts.Evaluator
	evalDoc string
	tree    *mcts.Tree
	threads int
	guard   *Guard
	endgame *Endgame
	// guarded is what the guard did in the last search, and classical
	// what the endgame's classical search chose ("" for nothing).
	guarded, classical string
	res                mcts.Result
	// scratch for the analysis's net calls
	input, policy, value, score, leads []float32
}

// New returns a bot for game g playing with net, rooted at g's start; a
// nil net plays with tactics.Fallback, a search without a net (for a game that
// has none), and ignores opts.Evaluator.
func New(g engine.Game, net *neteval.Net, opts Options) (*Tree, error) {
	if net == nil {
		return build(g, tactics.Fallback{}, tactics.FallbackDoc, opts)
	}
	ev := opts.Evaluator
	if ev == nil {
		own, err := neteval.New(g, net.Inference)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", net.Source, err)
		}
		ev = own
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
func NewWithEvaluator(g engine.Game, ev mcts.Evaluator, doc string, opts Options) (*Tree, error) {
	if ev == nil {
		return nil, errors.New("bot: no evaluator")
	}
	return build(g, ev, doc, opts)
}

func build(g engine.Game, ev mcts.Evaluator, doc string, opts Options) (*Tree, error) {
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
	ev, chain := neteval.Chain(g, ev, opts.Values, aids, opts.AverageSymmetries)
	doc += chain
	if opts.Guard != nil {
		if err := opts.Guard.Validate(); err != nil {
			return nil, err
		}
		doc += "; guard: " + opts.Guard.String()
	}
	if opts.Endgame != nil {
		if err := opts.Endgame.Validate(); err != nil {
			return nil, err
		}
		doc += "; endgame: " + opts.Endgame.String()
	}
	tree, err := mcts.NewTree(g.Start(), p)
	if err != nil {
		return nil, err
	}
	return &Tree{game: g, eval: ev, evalDoc: doc, tree: tree, threads: max(1, opts.Threads), guard: opts.Guard, endgame: opts.Endgame}, nil
}

// Net returns the bot's net, or nil for a bot made by NewWithEvaluator.
func (b *Tree) Net() *neteval.Net { return b.net }

// String describes what the bot searches with: its net, or its evaluator.
func (b *Tree) String() string { return b.evalDoc }

// Kind is searchconfig.MCTS.
func (b *Tree) Kind() string { return searchconfig.MCTS }

// Game returns the bot's game.
func (b *Tree) Game() engine.Game { return b.game }

// Position returns a copy of the position the bot searches.
func (b *Tree) Position() engine.State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tree.State()
}

// SetPosition makes s the position to search. When the tree leads from
// its root to s, however many moves that is, the subtree below s is kept
// (mcts.Tree.AdvanceTo); otherwise the tree starts afresh.
func (b *Tree) SetPosition(s engine.State) error {
	if err := sameGame(s, b.game); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tree.State().String() == s.String() || b.tree.AdvanceTo(s) {
		return nil
	}
	b.tree.Reset(s)
	return nil
}

// NewGame forgets the search tree: the next search starts afresh from the game's start, even when the bot is
// there already.
func (b *Tree) NewGame() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tree.Reset(b.game.Start())
}

// Play plays action at the current position, keeping the subtree below
// it. The error wraps engine.ErrIllegalAction for an illegal action.
func (b *Tree) Play(action int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tree.Advance(action)
}

// Search searches the current position within limits and returns the move
// it would play with its analysis; it does not play the move. When ctx is
// done before the limit, the search stops and reports what it found so far
// (Analysis.Stopped); only a search that could not evaluate the position at
// all returns ctx's error.
func (b *Tree) Search(ctx context.Context, limits Limits) (*Analysis, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	root, before, stopped, err := b.search(ctx, limits, &b.res)
	if err != nil {
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
	a.Guard = b.guarded
	a.Endgame = b.classical
	return a, nil
}

// Choose searches as Search does and fills r with the search's result at
// the root: the chosen move (r.Action) and every root move's statistics.
// It skips the analysis and the net calls that estimate draws and scores,
// which a player that only needs the move does not use. A search stopped
// by ctx fills r with what it found, as Search does.
func (b *Tree) Choose(ctx context.Context, limits Limits, r *mcts.Result) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, _, _, err := b.search(ctx, limits, r)
	return err
}

// search searches the current position within limits into r, with b.mu
// held, by the package's rules for limits. It returns the root
// searched, the root's visits before the search (its own evaluation
// counting as one), and whether ctx stopped the search.
func (b *Tree) search(ctx context.Context, limits Limits, r *mcts.Result) (root engine.State, before int, stopped bool, err error) {
	if err := limits.Validate(); err != nil {
		return nil, 0, false, err
	}
	if limits.Nodes > 0 {
		return nil, 0, false, fmt.Errorf("the mcts kind searches by simulations or time, not by %d nodes", limits.Nodes)
	}
	root = b.tree.State()
	if root.Over() {
		return nil, 0, false, mcts.ErrGameOver
	}
	before = 1 // the root's own evaluation is not a simulation
	if b.tree.Result(r) == nil {
		before = r.Visits
	}
	b.guarded, b.classical = "", ""
	start := time.Now()
	if b.endgame != nil && b.endgame.reached(root) {
		if err := b.evaluateRoot(ctx, r); err != nil {
			return nil, 0, false, err
		}
		if b.classical, err = b.endgame.choose(ctx, root, limits, r); err != nil || b.classical != "" {
			return root, before, ctx.Err() != nil, err
		}
	}
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if limits.Time > 0 {
		t := limits.Time - time.Since(start)
		if b.guard != nil {
			t -= b.guard.reserve(limits)
		}
		sctx, cancel = context.WithTimeout(ctx, t)
	}
	defer cancel()
	sims := limits.Sims
	if sims == 0 {
		sims = MaxSims
	}
	if err := b.tree.Search(sctx, b.eval, sims, b.threads); err != nil {
		if sctx.Err() == nil || !errors.Is(err, sctx.Err()) {
			return nil, 0, false, err
		}
		stopped = ctx.Err() != nil
	}
	err = b.tree.Result(r)
	if errors.Is(err, mcts.ErrNotSearched) && ctx.Err() == nil {
		// The time ran out before the root was evaluated: search one
		// simulation regardless, so that a move is found.
		if err = b.tree.Search(ctx, b.eval, 1, 1); err == nil {
			err = b.tree.Result(r)
		}
	}
	if err != nil {
		if ctx.Err() != nil && (errors.Is(err, mcts.ErrNotSearched) || errors.Is(err, ctx.Err())) {
			return nil, 0, false, ctx.Err()
		}
		return nil, 0, false, err
	}
	if b.guard != nil {
		if b.guarded, err = b.guard.review(ctx, root, limits, start, r); err != nil {
			return nil, 0, false, err
		}
	}
	return root, before, stopped, nil
}

// InEndgame reports whether the classical search of the bot's endgame
// (Options.Endgame) chooses the next move.
func (b *Tree) InEndgame() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.endgame != nil && b.endgame.reached(b.tree.State())
}

// evaluateRoot fills r with the tree's result at its root, evaluating the
// root first (one simulation) when the tree has not yet, so that a move
// the endgame chooses comes with the root's statistics.
func (b *Tree) evaluateRoot(ctx context.Context, r *mcts.Result) error {
	if err := b.tree.Result(r); !errors.Is(err, mcts.ErrNotSearched) {
		return err
	}
	if err := b.tree.Search(ctx, b.eval, 1, 1); err != nil {
		return err
	}
	return b.tree.Result(r)
}

// sameGame reports a position s of another game than g, a bot's.
func sameGame(s engine.State, g engine.Game) error {
	if !engine.Same(s.Game(), g) {
		return fmt.Errorf("a %s position given to a %s bot", s.Game().Name(), g.Name())
	}
	return nil
}
