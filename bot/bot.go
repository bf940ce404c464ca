// Package bot is the AI as a player: with a net (neteval.LoadNet: a
// checkpoint file, a run directory's newest checkpoint or the net
// embedded in the binary), it searches positions with mcts over that net
// within a limit of simulations or time, keeps its search tree from one
// move to the next, and reports the chosen move with the search's
// analysis: each player's value, win/draw/loss chances and expected final
// score difference, the principal variation and the statistics of every
// root move. It plays games of any number of players; a game without a
// net (tic-tac-toe has none built in) can be searched with
// tactics.Fallback, a material evaluator. Searches see captures through
// package tactics (tactics.Play unless Options say otherwise). Its leaves
// may take their values from Trench's NNUE instead of the net, which
// then gives the priors alone (Options.Values). A bot's
// settings are a searchconfig.Config: OptionsFor turns them into Options,
// guard and endgame included, and Load makes a bot of them.
//
// A bot of the alphabeta kind (searchconfig.AlphaBeta; NewAlphaBeta)
// searches instead with the game's classical search and an evaluation
// (Evaluation: hand-written, the rules', or an NNUE), keeping one engine
// and its table from move to move, within nodes or time, on one thread;
// its analysis says what Analysis's doc says for that kind.
//
// Every search-based player runs a Bot: the trench command's play, serve
// and engine subcommands, and the arena's mcts player (package players),
// which training's evaluation matches use too. Two rules hold for all of
// them:
//
//   - Tree reuse: given a new position (SetPosition), a bot keeps the
//     subtree of the moves actually played since its root, however many
//     plies they are (its own move and every reply), as long as the tree
//     leads there; any other position starts a fresh tree.
//   - Limits: a search stops at its simulations or its time, whichever
//     comes first. A time limit that ends before the root's first
//     evaluation does not leave the bot without a move: the search runs on
//     until the root and one simulation are evaluated. Only the caller's
//     context stops a search that has nothing; one stopped with something
//     reports it (Analysis.Stopped).
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

// Bot searches positions of one game with one net, keeping its tree
// between moves; or, of the alphabeta kind (NewAlphaBeta), with the
// game's classical engine, keeping its table. Its methods are safe for concurrent use; searches run one
// at a time.
type Bot struct {
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
	// ab is set for a bot of the alphabeta kind (NewAlphaBeta), which has
	// no tree, evaluator or net.
	ab *alphaBeta
	// scratch for the analysis's net calls
	input, policy, value, score, leads []float32
}

// New returns a bot for game g playing with net, rooted at g's start; a
// nil net plays with tactics.Fallback, a search without a net (for a game that
// has none), and ignores opts.Evaluator.
func New(g engine.Game, net *neteval.Net, opts Options) (*Bot, error) {
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
	return &Bot{game: g, eval: ev, evalDoc: doc, tree: tree, threads: max(1, opts.Threads), guard: opts.Guard, endgame: opts.Endgame}, nil
}

// Net returns the bot's net, or nil for a bot made by NewWithEvaluator.
func (b *Bot) Net() *neteval.Net { return b.net }

// String describes what the bot searches with: its net, or its evaluator.
func (b *Bot) String() string { return b.evalDoc }

// Kind is the bot's kind of search: searchconfig.MCTS or AlphaBeta.
func (b *Bot) Kind() string {
	if b.ab != nil {
		return searchconfig.AlphaBeta
	}
	return searchconfig.MCTS
}

// Game returns the bot's game.
func (b *Bot) Game() engine.Game { return b.game }

// Position returns a copy of the position the bot searches.
func (b *Bot) Position() engine.State {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ab != nil {
		return b.ab.pos.Clone()
	}
	return b.tree.State()
}

// SetPosition makes s the position to search. When the tree leads from
// its root to s, however many moves that is, the subtree below s is kept
// (mcts.Tree.AdvanceTo); otherwise the tree starts afresh.
func (b *Bot) SetPosition(s engine.State) error {
	if !engine.Same(s.Game(), b.game) {
		return fmt.Errorf("a %s position given to a %s bot", s.Game().Name(), b.game.Name())
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ab != nil {
		b.ab.pos = s.Clone()
		return nil
	}
	if b.tree.State().String() == s.String() || b.tree.AdvanceTo(s) {
		return nil
	}
	b.tree.Reset(s)
	return nil
}

// NewGame forgets the search tree (the alphabeta kind: its table): the
// next search starts afresh from the game's start, even when the bot is
// there already.
func (b *Bot) NewGame() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ab != nil {
		b.ab.pos = b.game.Start()
		b.ab.searcher.Clear()
		if b.ab.hand != nil {
			b.ab.hand.Clear()
		}
		return
	}
	b.tree.Reset(b.game.Start())
}

// Play plays action at the current position, keeping the subtree below
// it. The error wraps engine.ErrIllegalAction for an illegal action.
func (b *Bot) Play(action int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ab != nil {
		return engine.PlayChecked(b.ab.pos, action)
	}
	return b.tree.Advance(action)
}

// Search searches the current position within limits and returns the move
// it would play with its analysis; it does not play the move. When ctx is
// done before the limit, the search stops and reports what it found so far
// (Analysis.Stopped); only a search that could not evaluate the position at
// all returns ctx's error.
func (b *Bot) Search(ctx context.Context, limits Limits) (*Analysis, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	if b.ab != nil {
		stopped, err := b.ab.search(ctx, limits)
		if err != nil {
			return nil, err
		}
		a := b.ab.analysis(b.game)
		a.Elapsed, a.Stopped, a.Limits = time.Since(start), stopped, limits.String()
		return a, nil
	}
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
func (b *Bot) Choose(ctx context.Context, limits Limits, r *mcts.Result) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ab != nil {
		if _, err := b.ab.search(ctx, limits); err != nil {
			return err
		}
		b.ab.result(b.game, r)
		return nil
	}
	_, _, _, err := b.search(ctx, limits, r)
	return err
}

// search searches the current position within limits into r, with b.mu
// held, by the package's rules for limits. It returns the root
// searched, the root's visits before the search (its own evaluation
// counting as one), and whether ctx stopped the search.
func (b *Bot) search(ctx context.Context, limits Limits, r *mcts.Result) (root engine.State, before int, stopped bool, err error) {
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
// (Options.Endgame) chooses the next move; for the alphabeta kind,
// whether the hand-written evaluation searches it.
func (b *Bot) InEndgame() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ab != nil {
		return b.ab.handing(b.ab.pos)
	}
	return b.endgame != nil && b.endgame.reached(b.tree.State())
}

// evaluateRoot fills r with the tree's result at its root, evaluating the
// root first (one simulation) when the tree has not yet, so that a move
// the endgame chooses comes with the root's statistics.
func (b *Bot) evaluateRoot(ctx context.Context, r *mcts.Result) error {
	if err := b.tree.Result(r); !errors.Is(err, mcts.ErrNotSearched) {
		return err
	}
	if err := b.tree.Search(ctx, b.eval, 1, 1); err != nil {
		return err
	}
	return b.tree.Result(r)
}
