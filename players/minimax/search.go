package minimax

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"trench/engine"
	"trench/internal/searchlimits"
	"trench/internal/ttable"
	"trench/mcts"
	"trench/tactics"
)

// MaxDepth is the deepest nominal depth a search may be asked for.
const MaxDepth = 32

// maxPly bounds the search's distance from the root.
const maxPly = MaxDepth + 1

// Scores are integers: a net value v in [-1, 1] scores v·ValueScale, and
// a won game Win less the plies to the win.
const (
	// ValueScale is the score of a net value of 1.
	ValueScale = 10_000
	// Win is the score of a game won at the root.
	Win = 30_000
	// winBound separates won and lost scores from evaluations.
	winBound = Win - 1_000
)

// DefaultTableBits is the default size of the transposition table:
// 2^DefaultTableBits entries of 24 bytes (6 MiB).
const DefaultTableBits = 18

// priorCacheSize bounds the nodes whose priors are kept between
// iterations and moves; past it the cache starts afresh.
const priorCacheSize = 1 << 16

// ErrGameOver is returned when searching a finished game.
var ErrGameOver = errors.New("minimax: the game is over")

// Limits bound one search: a depth, a time or a node count, leaves
// included (see searchlimits.Limits).
type Limits searchlimits.Limits

// Validate reports limits that cannot be searched with.
func (l Limits) Validate() error {
	if err := searchlimits.Limits(l).Check(MaxDepth); err != nil {
		return fmt.Errorf("minimax: %w", err)
	}
	return nil
}

// Options choose how the leaves are judged and how the net is called.
type Options struct {
	// Quiescence plays out the captures pending at a leaf (tactics.Resolve)
	// before the net judges it.
	Quiescence bool
	// Material in [0, 1] is the weight of the material lead in a leaf's
	// value: v = (1-Material)·net + Material·tanh(lead/tactics.MaterialScale).
	Material float64
	// Static is a hand-written evaluation of a position that is not
	// over, for its side to move, in [-1, 1]; StaticWeight in [0, 1] is
	// its weight in a leaf's value: v = (1-StaticWeight)·v +
	// StaticWeight·Static. Nil is no static evaluation.
	Static       func(engine.State) float32
	StaticWeight float64
	// Batch evaluates the children of a node one ply above the leaves in
	// one net call; without it they are evaluated one at a time, so that a
	// cut-off spares the rest.
	Batch bool
	// TableBits sets the transposition table to 2^TableBits entries
	// (DefaultTableBits if 0).
	TableBits int
}

// Validate reports options that cannot search game g, and games of more
// or fewer than two players.
func (o Options) Validate(g engine.Game) error {
	if n := g.Players(); n != 2 {
		return fmt.Errorf("minimax searches two-player games; %s has %d players", g.Name(), n)
	}
	if !(o.Material >= 0 && o.Material <= 1) {
		return fmt.Errorf("minimax: material weight must be in [0, 1], got %v", o.Material)
	}
	if !(o.StaticWeight >= 0 && o.StaticWeight <= 1) {
		return fmt.Errorf("minimax: static evaluation weight must be in [0, 1], got %v", o.StaticWeight)
	}
	if o.StaticWeight > 0 && o.Static == nil {
		return errors.New("minimax: a static evaluation weight without a static evaluation")
	}
	if bits := o.tableBits(); bits < 10 || bits > 30 {
		return fmt.Errorf("minimax: table size must be 2^10..2^30 entries, got 2^%d", bits)
	}
	return nil
}

// tableBits is TableBits or its default.
func (o Options) tableBits() int {
	if o.TableBits == 0 {
		return DefaultTableBits
	}
	return o.TableBits
}

// DefaultOptions are the options the engine plays with. Batch is off: the
// net's pass costs as much per position in a batch as alone, and batching
// gives up the cut-offs among a frontier node's children (at depth 4 it
// evaluates eight times the positions).
//
// Material is 0.75: with the shipped net at depth 2 against alphabeta at
// depth 2, over the same 100 openings, weights 0, 0.5, 0.75 and 1 scored
// 20%, 47%, 67% and 58%.
var DefaultOptions = Options{Quiescence: true, Material: 0.75}

// Result is what a search found.
type Result struct {
	// Action is the best move found.
	Action int
	// Score is its score for the side to move: a net value times
	// ValueScale, or beyond ±(Win-1000) a forced win or loss in
	// Win-|Score| plies.
	Score int
	// Depth is the depth of the last finished iteration.
	Depth int
	// PV is the principal variation, Action first.
	PV []int
	// Nodes is the number of positions searched, leaves included.
	Nodes uint64
	// NetStates is the number of positions the net evaluated, in
	// NetCalls calls.
	NetStates, NetCalls uint64
	// Elapsed is the search's duration.
	Elapsed time.Duration
}

// NodesPerSecond is the search's speed.
func (r Result) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Elapsed.Seconds()
}

// Searcher searches the positions of one game with an evaluator. It keeps
// its transposition table and the nodes' priors from one search to the
// next; it is not safe for concurrent use (give each game its own).
type Searcher struct {
	game engine.Game
	eval mcts.Evaluator
	opts Options
	tt   *ttable.Table[int32]
	// priors holds the evaluator's priors of the nodes it has judged,
	// in LegalActions order, by engine.SearchKey.
	priors map[uint64][]float32

	levels [maxPly]level
	pv     [maxPly][maxPly]int
	pvLen  [maxPly]int
	// The leaves of one evaluation: the positions the net judges, which
	// of the leaves each answers and its key, and the answers.
	netStates []engine.State
	netLeaf   []int
	netKeys   []uint64
	netEvals  []mcts.Evaluation
	// mat receives the material values blended into the net's.
	mat []float32

	nodes, netCount, calls uint64
	nodeLimit              uint64
	deadline               time.Time
	ctx                    context.Context
	stopped                bool
	err                    error
}

// level is the buffers of one ply.
type level struct {
	actions []int
	order   []float32
	// states holds the children's positions, reused from node to node.
	states []engine.State
	// leaves holds the positions leafScores judges, scores their scores.
	leaves []engine.State
	scores []int
	// eval receives the evaluator's answer for the node's priors.
	eval []mcts.Evaluation
}

// New returns a searcher of game g's positions that judges them with
// eval. It refuses games of more or fewer than two players.
func New(g engine.Game, eval mcts.Evaluator, opts Options) (*Searcher, error) {
	if err := opts.Validate(g); err != nil {
		return nil, err
	}
	return &Searcher{
		game: g, eval: eval, opts: opts,
		tt:     ttable.NewTable[int32](opts.tableBits()),
		priors: map[uint64][]float32{},
		ctx:    context.Background(),
	}, nil
}

// Clear forgets everything learnt from earlier searches, for a new game.
func (s *Searcher) Clear() {
	s.tt.Clear()
	clear(s.priors)
}

// Search searches st within limits. When ctx is done the search stops and
// returns what it found so far; only a search that found nothing returns
// ctx's error. An error of the evaluator ends the search with that error.
func (s *Searcher) Search(ctx context.Context, st engine.State, limits Limits) (Result, error) {
	if err := limits.Validate(); err != nil {
		return Result{}, err
	}
	if !engine.Same(st.Game(), s.game) {
		return Result{}, fmt.Errorf("minimax: a %s searcher was given a %s position", s.game.Name(), st.Game().Name())
	}
	start := time.Now()
	if st.Over() {
		return Result{}, ErrGameOver
	}
	root := st.Clone()
	s.ctx, s.stopped, s.err = ctx, false, nil
	s.nodes, s.netCount, s.calls = 0, 0, 0
	s.nodeLimit = limits.Nodes
	s.deadline = time.Time{}
	if limits.Time > 0 {
		s.deadline = start.Add(limits.Time)
	}
	maxDepth := limits.Depth
	if maxDepth == 0 {
		maxDepth = MaxDepth
	}
	res := Result{Action: root.LegalActions(nil)[0]}
	for depth := 1; depth <= maxDepth; depth++ {
		score := s.negamax(root, depth, -Win-1, Win+1, 0)
		if s.stopped {
			// A move that raised the root's alpha in the unfinished
			// iteration was searched in full: it is at least as good.
			if s.err == nil && s.pvLen[0] > 0 && depth > 1 {
				res.Action = s.pv[0][0]
				res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
			}
			break
		}
		res.Action, res.Score, res.Depth = s.pv[0][0], score, depth
		res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		if !searchlimits.Limits(limits).Deepen(score, winBound, time.Since(start), s.nodes) {
			break
		}
	}
	res.Nodes, res.NetStates, res.NetCalls = s.nodes, s.netCount, s.calls
	res.Elapsed = time.Since(start)
	if s.err != nil {
		return res, s.err
	}
	if res.Depth == 0 && ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, nil
}

// checkStop notes whether the search must stop: its time, node limit or
// context is over.
func (s *Searcher) checkStop() bool {
	switch {
	case s.stopped:
	case s.nodeLimit > 0 && s.nodes >= s.nodeLimit,
		!s.deadline.IsZero() && time.Now().After(s.deadline):
		s.stopped = true
	default:
		select {
		case <-s.ctx.Done():
			s.stopped = true
		default:
		}
	}
	return s.stopped
}

// negamax searches st to depth plies and returns its score for the side
// to move, within the window (alpha, beta).
func (s *Searcher) negamax(st engine.State, depth, alpha, beta, ply int) int {
	s.pvLen[ply] = 0
	if st.Over() {
		return terminal(st, st.ToMove(), ply)
	}
	l := &s.levels[ply]
	if depth <= 0 || ply >= maxPly-1 {
		l.leaves = append(l.leaves[:0], st)
		l.scores = s.leafScores(l.leaves, l.scores[:0], ply)
		return l.scores[0]
	}
	s.nodes++
	if s.checkStop() {
		return 0
	}
	pvNode := beta-alpha > 1
	key := engine.SearchKey(st)
	ttAction := -1
	if en, ok := s.tt.Probe(key); ok {
		if en.Depth > 0 {
			ttAction = int(en.Move)
		}
		if !pvNode && ply > 0 && int(en.Depth) >= depth {
			if sc := ttable.FromTable(en.Score, ply, winBound); en.Cuts(sc, alpha, beta) {
				return sc
			}
		}
	}
	l.actions = st.LegalActions(l.actions)
	if depth == 1 && s.opts.Batch {
		return s.frontier(st, key, ply)
	}
	// One ply above the leaves, a net call for the priors costs more
	// than the leaves it spares: the node's priors are used only if
	// known (kept from when it was a leaf).
	if !s.orderMoves(st, key, ttAction, ply, depth >= 2) {
		return 0
	}
	me := st.ToMove()
	best, bestAction := -Win-1, l.actions[0]
	alpha0 := alpha
	for i := range l.actions {
		a := pickNext(l.actions, l.order, i)
		child := l.copyOf(0, st)
		child.Play(a)
		var sc int
		if i == 0 {
			sc = s.score(child, me, depth-1, alpha, beta, ply+1)
		} else {
			sc = s.score(child, me, depth-1, alpha, alpha+1, ply+1)
			if sc > alpha && sc < beta {
				sc = s.score(child, me, depth-1, alpha, beta, ply+1)
			}
		}
		if s.stopped {
			return 0
		}
		if sc <= best {
			continue
		}
		best, bestAction = sc, a
		if sc <= alpha {
			continue
		}
		alpha = sc
		s.setPV(ply, a)
		if sc >= beta {
			break
		}
	}
	bound := ttable.Exact
	switch {
	case best >= beta:
		bound = ttable.Lower
	case best <= alpha0:
		bound = ttable.Upper
	}
	s.tt.Store(key, depth, ttable.ToTable(best, ply, winBound), bound, int32(bestAction))
	return best
}

// score searches child, a position after a move of player me, within
// (alpha, beta) for me: negated when the opponent moves there, as it is
// when me moves again.
func (s *Searcher) score(child engine.State, me, depth, alpha, beta, ply int) int {
	if child.ToMove() == me {
		return s.negamax(child, depth, alpha, beta, ply)
	}
	return -s.negamax(child, depth, -beta, -alpha, ply)
}

// frontier searches a node one ply above the leaves whose legal actions
// are listed at ply: all its children go through the net in one call, so
// its score is exact whatever the window.
func (s *Searcher) frontier(st engine.State, key uint64, ply int) int {
	l := &s.levels[ply]
	me := st.ToMove()
	l.leaves = l.leaves[:0]
	for i, a := range l.actions {
		c := l.copyOf(i, st)
		c.Play(a)
		l.leaves = append(l.leaves, c)
	}
	l.scores = s.leafScores(l.leaves, l.scores[:0], ply+1)
	if s.stopped {
		return 0
	}
	best, bestAction := -Win-1, l.actions[0]
	for i, sc := range l.scores {
		if l.leaves[i].ToMove() != me {
			sc = -sc
		}
		if sc > best {
			best, bestAction = sc, l.actions[i]
		}
	}
	s.pv[ply][0], s.pvLen[ply] = bestAction, 1
	s.tt.Store(key, 1, ttable.ToTable(best, ply, winBound), ttable.Exact, int32(bestAction))
	return best
}

// leafScores appends to dst the score of each of leaves, positions at ply,
// for its own side to move: its result if it is over, else the net's value
// of the position its capture search reaches (blended with the material
// lead and the static evaluation), from the table when it holds the
// leaf. The net judges all the leaves it must in one call.
func (s *Searcher) leafScores(leaves []engine.State, dst []int, ply int) []int {
	s.netStates, s.netLeaf, s.netKeys = s.netStates[:0], s.netLeaf[:0], s.netKeys[:0]
	for i, c := range leaves {
		s.nodes++
		dst = append(dst, 0)
		me := c.ToMove()
		if c.Over() {
			dst[i] = terminal(c, me, ply)
			continue
		}
		key := engine.SearchKey(c)
		if en, ok := s.tt.Probe(key); ok && en.Bound == ttable.Exact {
			dst[i] = ttable.FromTable(en.Score, ply, winBound)
			continue
		}
		r := c
		if s.opts.Quiescence {
			if q := tactics.Resolve(c); q != nil {
				r = q
			}
		}
		if r.Over() {
			dst[i] = terminal(r, me, ply)
			s.tt.Store(key, 0, ttable.ToTable(dst[i], ply, winBound), ttable.Exact, -1)
			continue
		}
		s.netStates = append(s.netStates, r)
		s.netLeaf = append(s.netLeaf, i)
		s.netKeys = append(s.netKeys, key)
	}
	n := len(s.netStates)
	if n == 0 || s.checkStop() {
		return dst
	}
	for len(s.netEvals) < n {
		s.netEvals = append(s.netEvals, mcts.Evaluation{})
	}
	evals := s.netEvals[:n]
	for j, r := range s.netStates {
		evals[j].Actions = r.LegalActions(evals[j].Actions)
	}
	s.calls++
	s.netCount += uint64(n)
	if err := s.eval.Evaluate(s.netStates, evals); err != nil {
		s.err, s.stopped = fmt.Errorf("minimax: evaluating %d leaves: %w", n, err), true
		return dst
	}
	w := float32(s.opts.Material)
	for j, r := range s.netStates {
		i := s.netLeaf[j]
		me := leaves[i].ToMove()
		v := evals[j].Values[me]
		if w > 0 {
			if s.mat = tactics.MaterialValues(r, s.mat); len(s.mat) > 0 {
				v = (1-w)*v + w*s.mat[me]
			}
		}
		if ws := float32(s.opts.StaticWeight); ws > 0 {
			h := s.opts.Static(r)
			if r.ToMove() != me {
				h = -h
			}
			v = (1-ws)*v + ws*h
		}
		dst[i] = valueScore(v)
		s.tt.Store(s.netKeys[j], 0, ttable.ToTable(dst[i], ply, winBound), ttable.Exact, -1)
		if r == leaves[i] {
			// The leaf's own priors, which order its moves once a
			// deeper iteration searches it.
			s.keepPriors(s.netKeys[j], evals[j].Policy)
		}
	}
	return dst
}

// orderMoves ranks the legal actions listed at ply for the order of
// search: the table's move, then captures by the material they take, then
// the rest by the evaluator's priors for st (which also break ties among
// captures), known or, if evaluate, asked of the evaluator; without them,
// in LegalActions order. It reports false when the evaluator failed.
func (s *Searcher) orderMoves(st engine.State, key uint64, ttAction, ply int, evaluate bool) bool {
	l := &s.levels[ply]
	priors := s.priors[key]
	if len(priors) != len(l.actions) && !evaluate {
		priors = nil
	} else if len(priors) != len(l.actions) {
		if len(l.eval) == 0 {
			l.eval = make([]mcts.Evaluation, 1)
		}
		l.eval[0].Actions = append(l.eval[0].Actions[:0], l.actions...)
		s.calls++
		s.netCount++
		if err := s.eval.Evaluate([]engine.State{st}, l.eval); err != nil {
			s.err, s.stopped = fmt.Errorf("minimax: evaluating %s: %w", st, err), true
			return false
		}
		priors = s.keepPriors(key, l.eval[0].Policy)
	}
	l.order = l.order[:0]
	for i, a := range l.actions {
		var o float32
		if priors != nil {
			o = priors[i]
		}
		switch {
		case a == ttAction:
			o = 1e9
		default:
			if t := tactics.Taken(st, a); t > 0 {
				o += 1e6 + 1e3*t
			}
		}
		l.order = append(l.order, o)
	}
	return true
}

// keepPriors keeps a copy of the priors of the node with key and returns
// it.
func (s *Searcher) keepPriors(key uint64, priors []float32) []float32 {
	if len(s.priors) >= priorCacheSize {
		clear(s.priors)
	}
	kept := append([]float32(nil), priors...)
	s.priors[key] = kept
	return kept
}

// pickNext moves the best-ranked action of actions[i:] to position i and
// returns it.
func pickNext(actions []int, order []float32, i int) int {
	best := i
	for j := i + 1; j < len(actions); j++ {
		if order[j] > order[best] {
			best = j
		}
	}
	actions[i], actions[best] = actions[best], actions[i]
	order[i], order[best] = order[best], order[i]
	return actions[i]
}

// setPV makes the line of ply the action followed by the line of ply+1.
func (s *Searcher) setPV(ply, action int) {
	s.pv[ply][0] = action
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// copyOf makes the level's i-th child position (i at most one past the
// last) a copy of st and returns it, reusing the position when the game
// can (engine.Copier).
func (l *level) copyOf(i int, st engine.State) engine.State {
	if i == len(l.states) {
		l.states = append(l.states, st.Clone())
		return l.states[i]
	}
	if c, ok := l.states[i].(engine.Copier); ok {
		c.CopyFrom(st)
	} else {
		l.states[i] = st.Clone()
	}
	return l.states[i]
}

// terminal is the score of the finished game st for player me, ply plies
// from the root: a win or a loss counts the plies to it, a draw or a
// partial result scores as a value.
func terminal(st engine.State, me, ply int) int {
	r := st.Result(nil)[me]
	switch {
	case r >= 1:
		return Win - ply
	case r <= -1:
		return -Win + ply
	}
	return valueScore(r)
}

// valueScore is the score of a value in [-1, 1].
func valueScore(v float32) int {
	return int(math.Round(float64(max(-1, min(1, v)) * ValueScale)))
}
