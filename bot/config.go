package bot

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/excerpt"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
)

// OptionsFor returns the options of a bot for game g with settings c
// (package searchconfig): its search's parameters, threads, tactical
// aids and symmetry averaging, its leaf values (Values: the NNUE read
// here), and its own guard and endgame, which are made here and nowhere
// else. A guard, endgame or NNUE asked of a game without a classical
// search is an error; Config.Fit drops the defaults' first.
func OptionsFor(g engine.Game, c searchconfig.Config) (Options, error) {
	if err := c.Validate(); err != nil {
		return Options{}, err
	}
	if c.Kind == searchconfig.AlphaBeta {
		return Options{}, errors.New("bot: a bot of the alphabeta kind takes no tree search's options (see NewAlphaBeta)")
	}
	p := c.Params()
	aids := c.Tactics()
	o := Options{Params: &p, Threads: c.Threads, Tactics: &aids, AverageSymmetries: c.Symmetries}
	values, err := Values(g, c)
	if err != nil {
		return Options{}, err
	}
	o.Values = values
	if c.Guard > 0 {
		gd, err := NewGuard(g, c.Guard, c.GuardDepth)
		if err != nil {
			return Options{}, err
		}
		o.Guard = gd
	}
	if c.Endgame > 0 {
		e, err := NewEndgame(g, c.Endgame, c.EndgameDepth)
		if err != nil {
			return Options{}, err
		}
		o.Endgame = e
	}
	return o, nil
}

// Values reads the leaf values of the mcts kind that c asks for in game
// g (searchconfig.Config.Value): nil for value net, the net's own; for
// nnue and qnnue the values of the efficiently updatable net c.NNUE
// names (a net file, a generation run directory's newest accepted net,
// or "default", the one built in), and for hand and qhand those of the
// classical search's hand-written evaluation, at the leaf or after the
// classical search's quiescence. Its errors name the setting, among them
// that g has no such evaluation.
func Values(g engine.Game, c searchconfig.Config) (*neteval.Values, error) {
	eval, net := searchconfig.EvalNNUE, c.NNUERef()
	switch c.Value {
	case searchconfig.ValueNet:
		return nil, nil
	case searchconfig.ValueNNUE, searchconfig.ValueQNNUE:
	case searchconfig.ValueHand, searchconfig.ValueQHand:
		eval, net = plugin.EvalHand, ""
	default:
		return nil, fmt.Errorf("value must be %s, got %q", strings.Join([]string{searchconfig.ValueNet, searchconfig.ValueNNUE, searchconfig.ValueQNNUE, searchconfig.ValueHand, searchconfig.ValueQHand}, " or "), c.Value)
	}
	cl := games.ClassicalOf(g)
	switch {
	case eval == plugin.EvalHand && !games.HasEvaluation(g, eval):
		return nil, fmt.Errorf("value %s: %s has no hand-written evaluation (%s have); give value %s", c.Value, g.Name(), games.EvaluationNames(eval), searchconfig.ValueNet)
	case eval == plugin.EvalHand:
	case !games.HasEvaluation(g, searchconfig.EvalNNUE):
		return nil, fmt.Errorf("value %s: %s has no efficiently updatable net (%s has); give value %s", c.Value, g.Name(), games.EvaluationNames(searchconfig.EvalNNUE), searchconfig.ValueNet)
	}
	ev, err := cl.Evaluation(eval, net)
	if err != nil {
		return nil, fmt.Errorf("value %s: %w", c.Value, err)
	}
	q := c.Value == searchconfig.ValueQNNUE || c.Value == searchconfig.ValueQHand
	return &neteval.Values{Evaluation: ev, Quiescence: q}, nil
}

// LimitsOf returns the limits of one search that c asks for: its
// simulations, nodes and time when any is set, else its level's
// (simulations for the mcts kind, nodes for alphabeta).
func LimitsOf(c searchconfig.Config) (Limits, error) {
	sims, nodes, t, err := c.LimitsOf()
	if err != nil {
		return Limits{}, err
	}
	l := Limits{Sims: sims, Nodes: nodes, Time: t}
	return l, l.Validate()
}

// Resolve reads the nets c names by what they hold (checkpoints.Identify),
// so that every face takes a net the same way: a net that net names
// (given says which keys were given; nil: none) that is an NNUE, file or
// run, makes the bot of the alphabeta kind with that NNUE, and a conv
// net the bot of the mcts kind; nnue must name an NNUE, and one given
// must be read by the bot (searchconfig.Config.ReadsNNUE). A kind given
// that cannot use the net given, or a reference that is neither, is an
// error that names the setting and what it holds.
func Resolve(c searchconfig.Config, given func(key string) bool) (searchconfig.Config, error) {
	if given == nil {
		given = func(string) bool { return false }
	}
	if given("nnue") && c.NNUE != "" && c.NNUE != shipped.Ref {
		h, err := checkpoints.Identify(c.NNUE)
		if err != nil {
			return c, fmt.Errorf("nnue: %w", err)
		}
		if !h.NNUE() {
			return c, fmt.Errorf("nnue %s is %s, not an efficiently updatable net; give it as net to play the tree search with it",
				excerpt.Quote(c.NNUE), h)
		}
	}
	if !given("net") || c.Net == searchconfig.NoNet || c.Net == "" || c.Net == shipped.Ref {
		return c, nnueRead(c, given)
	}
	h, err := checkpoints.Identify(c.Net)
	if err != nil {
		return c, err
	}
	switch {
	case h.NNUE() && given("kind") && c.Kind == searchconfig.MCTS:
		return c, fmt.Errorf("net %s is %s, which the mcts kind cannot search with: give kind alphabeta, or nnue %s with value nnue for the tree's leaf values",
			excerpt.Quote(c.Net), h, c.Net)
	case h.NNUE() && given("nnue") && c.NNUE != c.Net:
		return c, fmt.Errorf("net %s and nnue %s name two NNUEs: give one", excerpt.Quote(c.Net), excerpt.Quote(c.NNUE))
	case h.NNUE() && given("eval") && c.Eval != searchconfig.EvalNNUE:
		return c, fmt.Errorf("net %s is %s, which eval %s does not read: give eval %s", excerpt.Quote(c.Net), h, c.Eval, searchconfig.EvalNNUE)
	case h.NNUE():
		c.Kind, c.Eval, c.NNUE, c.Net = searchconfig.AlphaBeta, searchconfig.EvalNNUE, c.Net, shipped.Ref
	case given("kind") && c.Kind == searchconfig.AlphaBeta:
		return c, fmt.Errorf("net %s is %s, which the alphabeta kind cannot search with: give kind mcts, or an NNUE", excerpt.Quote(c.Net), h)
	default:
		c.Kind = searchconfig.MCTS
		if !given("nodes") {
			c.Nodes = 0
		}
	}
	return c, nnueRead(c, given)
}

// nnueRead refuses an NNUE given as nnue to a bot that would not read
// it (searchconfig.Config.ReadsNNUE), rather than play without it.
func nnueRead(c searchconfig.Config, given func(key string) bool) error {
	switch {
	case !given("nnue") || c.ReadsNNUE():
		return nil
	case c.Kind == searchconfig.AlphaBeta:
		return fmt.Errorf("nnue %s is read by eval %s, not by eval %s: give eval %s, or leave nnue out",
			excerpt.Quote(c.NNUE), searchconfig.EvalNNUE, c.Eval, searchconfig.EvalNNUE)
	default:
		return fmt.Errorf("nnue %s is read by the %s kind's value %s or %s, not by value %s: give one of those, or leave nnue out",
			excerpt.Quote(c.NNUE), c.Kind, searchconfig.ValueNNUE, searchconfig.ValueQNNUE, c.Value)
	}
}

// Maker makes the bots of one game with one set of settings, having read
// once what they share: the alphabeta kind's evaluation (its NNUE), or
// the tree search's conv net and its leaf values. Every face makes its
// bots with one: play, serve, engine, analysis and the arena.
type Maker struct {
	game engine.Game
	cfg  searchconfig.Config
	// eval is the alphabeta kind's evaluation; net the mcts kind's
	// conv net, nil to search with tactics.Fallback.
	eval plugin.ClassicalEvaluation
	net  *neteval.Net
	name string
}

// NetLoader reads the conv net a reference names (neteval.LoadNet's
// references), for a Maker.
type NetLoader func(ref string) (*neteval.Net, error)

// LoadNets returns the NetLoader of neteval.LoadNet for g, which warns on
// warn of the checkpoints passed over on the way, and gives no net (a
// search with tactics.Fallback) for the built-in net of a game that has
// none (tic-tac-toe).
func LoadNets(g engine.Game, warn io.Writer) NetLoader {
	return func(ref string) (*neteval.Net, error) {
		net, err := neteval.LoadNet(g, ref)
		if errors.Is(err, neteval.ErrNoDefaultNet) {
			return nil, nil
		}
		if err == nil {
			net.WarnPassed(warn)
		}
		return net, err
	}
}

// NewMaker reads what settings c, resolved (Resolve) and checked, need
// for game g: the alphabeta kind's evaluation, or the mcts kind's net by
// load (nil: LoadNets(g, io.Discard)). The net searchconfig.NoNet, or a
// nil net from load, searches with tactics.Fallback. It makes one bot to
// check that bots can be made.
func NewMaker(g engine.Game, c searchconfig.Config, load NetLoader) (*Maker, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &Maker{game: g, cfg: c}
	if c.Kind == searchconfig.AlphaBeta {
		ev, err := Evaluation(g, c)
		if err != nil {
			return nil, err
		}
		m.eval = ev
	} else if c.Net != searchconfig.NoNet {
		if load == nil {
			load = LoadNets(g, io.Discard)
		}
		net, err := load(c.Net)
		if err != nil {
			return nil, err
		}
		m.net = net
	}
	b, err := m.New(0, nil)
	if err != nil {
		return nil, err
	}
	m.name = b.String()
	return m, nil
}

// New makes a bot. A bot of the mcts kind seeds its search with seed and
// evaluates through shared when it is not nil (a neteval.Batcher over
// the Maker's net, shared by the bots of games played at once); the
// alphabeta kind takes neither.
func (m *Maker) New(seed uint64, shared mcts.Evaluator) (Bot, error) {
	if m.cfg.Kind == searchconfig.AlphaBeta {
		return NewAlphaBeta(m.game, m.eval, m.cfg)
	}
	o, err := OptionsFor(m.game, m.cfg)
	if err != nil {
		return nil, err
	}
	o.Params.Seed = seed
	if m.net != nil {
		o.Evaluator = shared
	}
	return New(m.game, m.net, o)
}

// Game returns the game of the Maker's bots.
func (m *Maker) Game() engine.Game { return m.game }

// Config returns the settings of the Maker's bots.
func (m *Maker) Config() searchconfig.Config { return m.cfg }

// Net returns the conv net the mcts kind's bots search with, or nil
// (the alphabeta kind, or a search without a net).
func (m *Maker) Net() *neteval.Net { return m.net }

// String names the bots' search and the net it read, e.g. "alphabeta
// with nnue net checkpoints/shipped/trench.nnue (built in)": the words
// every face that plays prints first.
func (m *Maker) String() string { return m.name }
