package players

import (
	"context"
	"fmt"
	"path/filepath"

	"trench/bot"
	"trench/engine"
	"trench/games"
	"trench/internal/excerpt"
	"trench/mcts"
	"trench/neteval"
	"trench/tactics"
)

// NoNet, as an mcts player's net, searches with bot.Fallback: capture-first
// priors and a material evaluation, no net.
const NoNet = "none"

// maxBatch bounds the states a shared net evaluates in one pass.
const maxBatch = 256

// maxThreads bounds an mcts player's threads.
const maxThreads = 256

// SharedNet is a loaded net with the batcher through which every player
// that names it evaluates, so that the positions of concurrent games go
// through the net together.
type SharedNet struct {
	// Net is the loaded net.
	Net *bot.Net
	// Eval gathers the players' evaluations into batches.
	Eval *neteval.Batcher
	// Direct evaluates in the caller's goroutine. Time-limited players
	// use it: through the batcher, whose one goroutine runs every game's
	// net calls, concurrent games would share one core's net time.
	Direct *neteval.Evaluator
}

func (n *SharedNet) close() { n.Eval.Close() }

// Net loads the net that ref names (a checkpoint file, a run directory
// or "default"; see bot.LoadNet), or returns the one already loaded for
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
	net, err := bot.LoadNet(l.game, ref)
	if err != nil {
		return nil, err // it names the file or the game
	}
	key := bot.DefaultNet
	if refKey != bot.DefaultNet {
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
// bot.DefaultNet for the built-in net, else the absolute path.
func netKey(ref string) (string, error) {
	if ref == "" || ref == bot.DefaultNet {
		return bot.DefaultNet, nil
	}
	return filepath.Abs(ref)
}

func loadPolicy(l *Loader, s Spec) (*Maker, error) {
	o, err := newOptions(s, "net")
	if err != nil {
		return nil, err
	}
	net, err := l.Net(o.str("net", bot.DefaultNet))
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

func loadMCTS(l *Loader, s Spec) (*Maker, error) {
	o, err := newOptions(s, "net", "sims", "time", "threads", "algo", "ptemp", "cpuct", "fpu", "rootfpu", "mmw", "solver", "quiesce", "qvalue", "mat", "cprior", "guard", "guarddepth", "endgame", "endgamedepth", "sym")
	if err != nil {
		return nil, err
	}
	var limits bot.Limits
	if limits.Sims, err = o.int("sims", 0, 1, bot.MaxSims); err != nil {
		return nil, err
	}
	if limits.Time, err = o.duration("time"); err != nil {
		return nil, err
	}
	if limits == (bot.Limits{}) {
		limits.Sims = 200
	}
	threads, err := o.int("threads", 1, 1, maxThreads)
	if err != nil {
		return nil, err
	}
	params := mcts.DefaultParams()
	if params.PolicyTemperature, err = o.float("ptemp", params.PolicyTemperature, 0.1, 10); err != nil {
		return nil, err
	}
	if params.CPUCT, err = o.float("cpuct", params.CPUCT, 0, 20); err != nil {
		return nil, err
	}
	if params.FPUReduction, err = o.float("fpu", params.FPUReduction, 0, 2); err != nil {
		return nil, err
	}
	if params.RootFPUReduction, err = o.float("rootfpu", params.RootFPUReduction, 0, 2); err != nil {
		return nil, err
	}
	switch algo := o.str("algo", "puct"); algo {
	case "puct":
	case "gumbel":
		params.Algorithm = mcts.Gumbel
		params.GumbelScale = 0
	default:
		return nil, fmt.Errorf("player %s: algo must be puct or gumbel, got %s", excerpt.Quote(s.String()), excerpt.Quote(algo))
	}
	if params.MinimaxWeight, err = o.float("mmw", 0, 0, 1); err != nil {
		return nil, err
	}
	solver, err := o.int("solver", 0, 0, 1)
	if err != nil {
		return nil, err
	}
	params.Solver = solver == 1
	aids, err := tacticsOptions(o)
	if err != nil {
		return nil, err
	}
	// guard: the share of a time limit kept for the guard's checks;
	// endgame: the score from which the classical engine chooses.
	guard, err := classicalOption(l, s, o, "guard", 0.5, bot.DefaultGuardDepth)
	if err != nil {
		return nil, err
	}
	endgame, err := classicalOption(l, s, o, "endgame", 1000, bot.DefaultEndgameDepth)
	if err != nil {
		return nil, err
	}
	sym, err := o.int("sym", 0, 0, 1)
	if err != nil {
		return nil, err
	}
	opts := bot.Options{Threads: threads, Tactics: &aids, AverageSymmetries: sym == 1}
	var shared *SharedNet
	var net *bot.Net // nil: bot.Fallback
	if ref := o.str("net", bot.DefaultNet); ref != NoNet {
		if shared, err = l.Net(ref); err != nil {
			return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
		}
		net, opts.Evaluator = shared.Net, shared.Eval
		if limits.Time > 0 {
			opts.Evaluator = shared.Direct
		}
	}
	newBot := func(seed uint64) (*bot.Bot, error) {
		p := params
		p.Seed = seed
		o := opts
		o.Params = &p
		if guard.value > 0 {
			g, err := bot.NewGuard(l.game, guard.value, guard.depth)
			if err != nil {
				return nil, err
			}
			o.Guard = g
		}
		if endgame.value > 0 {
			e, err := bot.NewEndgame(l.game, endgame.value, endgame.depth)
			if err != nil {
				return nil, err
			}
			o.Endgame = e
		}
		return bot.New(l.game, net, o)
	}
	// One bot made now reports a bad option before any game starts.
	if _, err := newBot(0); err != nil {
		return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
	}
	return &Maker{Net: shared, Timed: limits.Time > 0, Threads: threads, newPlayer: func(seed uint64) (Player, error) {
		b, err := newBot(seed)
		if err != nil {
			return nil, err
		}
		return &mctsPlayer{bot: b, limits: limits}, nil
	}}, nil
}

// tacticsOptions reads the tactical aids of an mcts player (package
// tactics), tactics.Play's unless the spec sets them.
func tacticsOptions(o *options) (tactics.Settings, error) {
	t := tactics.Play
	q, err := o.int("quiesce", 1, 0, 1)
	if err != nil {
		return t, err
	}
	t.Quiescence = q == 1
	switch qv := o.str("qvalue", "net"); qv {
	case "net":
	case "shift":
		t.ShiftValues = true
	default:
		return t, fmt.Errorf("player %s: qvalue must be shift or net, got %s", excerpt.Quote(o.spec.String()), excerpt.Quote(qv))
	}
	if t.Material, err = o.float("mat", t.Material, 0, 1); err != nil {
		return t, err
	}
	if t.CapturePrior, err = o.float("cprior", t.CapturePrior, 0, 1); err != nil {
		return t, err
	}
	return t, nil
}

// classicalSetting is what an mcts player asks of the game's classical
// engine in one role, the guard (bot.Guard) or the endgame (bot.Endgame):
// a value, 0 for the role unused, and the depth of its searches under a
// limit of simulations.
type classicalSetting struct {
	value float64
	depth int
}

// classicalOption reads the option name, in 0..max and 0 (unused) by
// default, and name+"depth" ("guarddepth", "endgamedepth"), in 1..64 and
// defaultDepth by default, which needs name. A value above 0 needs a game with a
// classical engine. Each bot gets its own guard or endgame with these
// settings (bot.NewGuard, bot.NewEndgame).
func classicalOption(l *Loader, s Spec, o *options, name string, max float64, defaultDepth int) (classicalSetting, error) {
	value, err := o.float(name, 0, 0, max)
	if err != nil {
		return classicalSetting{}, err
	}
	depthName := name + "depth"
	depth, err := o.int(depthName, defaultDepth, 1, 64)
	if err != nil {
		return classicalSetting{}, err
	}
	if value == 0 {
		if _, set := o.get(depthName); set {
			return classicalSetting{}, fmt.Errorf("player %s: %s needs %s", excerpt.Quote(s.String()), depthName, name)
		}
		return classicalSetting{}, nil
	}
	if games.ClassicalOf(l.game) == nil {
		return classicalSetting{}, fmt.Errorf("player %s: %s needs a classical engine, which %s has and %s has not",
			excerpt.Quote(s.String()), name, games.ClassicalNames(), l.game.Name())
	}
	return classicalSetting{value: value, depth: depth}, nil
}

// mctsPlayer is a bot.Bot in a seat: the same search, tree reuse and
// limits as trench play's bot.
type mctsPlayer struct {
	bot    *bot.Bot
	limits bot.Limits
	res    mcts.Result
}

func (p *mctsPlayer) Move(ctx context.Context, s engine.State) (int, error) {
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
