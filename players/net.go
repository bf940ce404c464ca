package players

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"trench/bot"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/internal/excerpt"
	"trench/internal/settings"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
)

// maxBatch bounds the states a shared net evaluates in one pass.
const maxBatch = 256

// SharedNet is a loaded net with the batcher through which every player
// that names it evaluates, so that the positions of concurrent games go
// through the net together.
type SharedNet struct {
	// Net is the loaded net.
	Net *neteval.Net
	// Eval gathers the players' evaluations into batches.
	Eval *neteval.Batcher
	// Direct evaluates in the caller's goroutine. Time-limited players
	// use it: through the batcher, whose one goroutine runs every game's
	// net calls, concurrent games would share one core's net time.
	Direct *neteval.Evaluator
}

func (n *SharedNet) close() { n.Eval.Close() }

// Net loads the net that ref names (a checkpoint file, a run directory
// or "default"; see neteval.LoadNet), or returns the one already loaded for
// the same ref or from the same file; a ref loaded before is not read
// again. Checkpoints of a run directory passed over because they do not
// load are reported to the loader's Warnings, once per net.
func (l *Loader) Net(ref string) (*SharedNet, error) {
	refKey, err := netKey(ref)
	if err != nil {
		return nil, fmt.Errorf("net %s: %w", excerpt.Quote(ref), err)
	}
	l.mu.Lock()
	n, ok := l.refs[refKey]
	l.mu.Unlock()
	if ok {
		return n, nil
	}
	net, err := neteval.LoadNet(l.game, ref)
	if err != nil {
		return nil, err // it names the file or the game
	}
	key := shipped.Ref
	if refKey != shipped.Ref {
		if key, err = netKey(net.Source); err != nil {
			return nil, fmt.Errorf("net %s: %w", excerpt.Quote(ref), err)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if n, ok := l.nets[key]; ok {
		l.refs[refKey] = n
		return n, nil
	}
	if l.Warnings != nil {
		net.WarnPassed(l.Warnings)
	}
	ev, err := neteval.New(l.game, net.Inference)
	if err != nil {
		return nil, fmt.Errorf("net %s for %s: %w", excerpt.Quote(ref), l.game.Name(), err)
	}
	n = &SharedNet{Net: net, Eval: neteval.NewBatcher(ev, maxBatch), Direct: ev}
	l.nets[key], l.refs[refKey] = n, n
	return n, nil
}

// netKey is what a loader files a net ref or a checkpoint path under:
// shipped.Ref for the built-in net, else the absolute path.
func netKey(ref string) (string, error) {
	if ref == "" || ref == shipped.Ref {
		return shipped.Ref, nil
	}
	return filepath.Abs(ref)
}

// policySettings are the policy player's options.
type policySettings struct {
	Net string `key:"net" help:"the net: a checkpoint file, a run directory (its newest checkpoint) or default (the one built in)"`
}

// policyDeclared reads the policy player's options.
var policyDeclared = settings.Must[policySettings](settings.Options{})

// policyUsage describes the policy player and its options, for --help.
var policyUsage = declaredUsage("policy[:KEY=VALUE,...]: the net's most likely move, no search. Its option:",
	policyDeclared, policySettings{Net: shipped.Ref})

func loadPolicy(l *Loader, s Spec) (*Maker, error) {
	o := policySettings{Net: shipped.Ref}
	if _, err := readOptions(s, policyDeclared, &o); err != nil {
		return nil, err
	}
	net, err := l.Net(o.Net)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	return &Maker{Net: net, newPlayer: func(uint64) (Player, error) {
		return &policyPlayer{net: net, evals: make([]mcts.Evaluation, 1)}, nil
	}}, nil
}

// policyPlayer plays the move the net's policy likes best.
type policyPlayer struct {
	net   *SharedNet
	evals []mcts.Evaluation
}

func (p *policyPlayer) Move(_ context.Context, s engine.State) (int, error) {
	ev := &p.evals[0]
	ev.Actions = s.LegalActions(ev.Actions)
	if len(ev.Actions) == 0 {
		return 0, fmt.Errorf("policy player: no legal move in %s", s)
	}
	if err := p.net.Eval.Evaluate([]engine.State{s}, p.evals); err != nil {
		return 0, err
	}
	best := 0
	for i, q := range ev.Policy {
		if q > ev.Policy[best] {
			best = i
		}
	}
	return ev.Actions[best], nil
}

// botUsage describes the bot player and its options, the bot's
// settings, for --help.
var botUsage = "bot[:KEY=VALUE,...]: the bot of trench play (package bot): kind=mcts, the net with tree search (a time-limited player evaluates its net on its own threads, not in the batches shared by all games), or kind=alphabeta, the classical search with eval's evaluation (hand, rules, or nnue: the net nnue names), on one thread, by level or nodes (the alphabeta player below is the fixed yardstick; this one is the bot). Its options are the bot's settings (package searchconfig), named as trench play's flags, by default the arena's (searchconfig.Arena: level 5, one thread, neither guard nor endgame); the old keys still read:\n" +
	strings.TrimRight(searchconfig.Usage(searchconfig.Arena(), "    "), "\n")

// loadBot reads a bot player's options into its settings (package
// searchconfig, from its Arena set), old keys included, and makes one bot
// now, so that a bad option is reported before any game starts. A bot of
// the alphabeta kind reads its evaluation once, shared by its games.
func loadBot(l *Loader, s Spec) (*Maker, error) {
	c := searchconfig.Arena()
	given := map[string]bool{}
	for _, o := range s.Options {
		if err := c.Set(o.Key, o.Value); err != nil {
			return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
		}
		key, _ := searchconfig.Canonical(o.Key)
		given[key] = true
	}
	if err := searchconfig.CheckLimits(func(k string) bool { return given[k] }, ""); err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	// The alphabeta kind of a game whose classical search lacks the
	// default evaluation (Trichess) takes its own.
	c.Fit(l.game, func(k string) bool { return given[k] })
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	c, err := bot.Resolve(c, func(k string) bool { return given[k] })
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	limits, err := bot.LimitsOf(c)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	var shared *SharedNet
	load := func(ref string) (*neteval.Net, error) {
		var err error
		if shared, err = l.Net(ref); err != nil {
			return nil, err
		}
		return shared.Net, nil
	}
	m, err := bot.NewMaker(l.game, c, load)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	var eval mcts.Evaluator
	if shared != nil {
		eval = shared.Eval
		if limits.Time > 0 {
			eval = shared.Direct
		}
	}
	threads := c.Threads
	if c.Kind == searchconfig.AlphaBeta {
		threads = 0 // the alphabeta kind's one thread is not the tree's
	}
	return &Maker{Net: shared, Timed: limits.Time > 0, Threads: threads, newPlayer: func(seed uint64) (Player, error) {
		b, err := m.New(seed, eval)
		if err != nil {
			return nil, err
		}
		return &botPlayer{bot: b, limits: limits}, nil
	}}, nil
}

// botPlayer is a bot.Bot in a seat: the same search, tree reuse (or
// table) and limits as trench play's bot.
type botPlayer struct {
	bot    bot.Bot
	limits bot.Limits
	res    mcts.Result
}

func (p *botPlayer) Move(ctx context.Context, s engine.State) (int, error) {
	if err := p.bot.SetPosition(s); err != nil {
		return 0, err
	}
	if err := p.bot.Choose(ctx, p.limits, &p.res); err != nil {
		return 0, err
	}
	// A game being stopped takes no move from a search cut short.
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return p.res.Action, nil
}
