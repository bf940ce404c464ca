package alphabeta

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"trench/engine"
	"trench/engine/trench"
	"trench/internal/searchlimits"
	"trench/internal/ttable"
)

// maxPly bounds the search's distance from the root, quiescence included.
const maxPly = 128

// MaxDepth is the deepest nominal depth a search may be asked for.
const MaxDepth = 64

// DefaultTableBits is the default size of the transposition table:
// 2^DefaultTableBits entries of 16 bytes (32 MiB).
const DefaultTableBits = 21

// ErrGameOver is returned when searching a finished game.
var ErrGameOver = errors.New("alphabeta: the game is over")

// Limits bound one search: a depth, a time or a node count (see
// searchlimits.Limits).
type Limits searchlimits.Limits

// Validate reports limits that cannot be searched with.
func (l Limits) Validate() error {
	if err := searchlimits.Limits(l).Check(MaxDepth); err != nil {
		return fmt.Errorf("alphabeta: %w", err)
	}
	return nil
}

// Result is what a search found.
type Result struct {
	// Move is the best move found.
	Move trench.Move
	// Score is its score for the side to move, in centipoints; beyond
	// ±(Win-10000) it is a forced win or loss in Win-|Score| plies.
	Score int
	// Depth is the depth of the last finished iteration.
	Depth int
	// PV is the principal variation, Move first.
	PV []trench.Move
	// Nodes is the number of positions searched, quiescence included.
	Nodes uint64
	// Elapsed is the search's duration.
	Elapsed time.Duration
	// Lines are the root moves a multi-PV search (SearchLines with more
	// than one line) searched in full, best first, the first Move's; nil
	// for a search of one line.
	Lines []Line
}

// Line is one root move a multi-PV search searched in full: its exact
// score at the depth of the last finished iteration and its main line.
type Line struct {
	// Move is the root move.
	Move trench.Move
	// Score is its score for the side to move, in centipoints, as
	// Result's.
	Score int
	// Depth is the depth it was searched to.
	Depth int
	// PV is its principal variation, Move first.
	PV []trench.Move
}

// Forced is +1 when l's score is a forced win for the side to move, -1
// when it is a forced loss, and 0 otherwise.
func (l Line) Forced() int { return Result{Score: l.Score}.Forced() }

// NodesPerSecond is the search's speed.
func (r Result) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Elapsed.Seconds()
}

// Forced is +1 when Score is a forced win for the side to move, -1 when
// it is a forced loss, and 0 otherwise.
func (r Result) Forced() int {
	switch {
	case r.Score > winBound:
		return 1
	case r.Score < -winBound:
		return -1
	}
	return 0
}

// Searcher searches Trench positions. It keeps its transposition table and
// move-ordering statistics from one search to the next; it is not safe
// for concurrent use (give each game its own Searcher).
type Searcher struct {
	tt   *ttable.Table[trench.Move]
	eval Evaluator
	// hand is set when eval is Hand: the search calls Evaluate
	// directly.
	hand    bool
	killers [maxPly][2]trench.Move
	history [2][64][64]int32

	// children holds the child position of each ply, so that making a
	// move copies into the searcher rather than onto the heap.
	children [maxPly]trench.Position
	moves    [maxPly][trench.MaxMoves]trench.Move
	orders   [maxPly][trench.MaxMoves]int32
	pv       [maxPly][maxPly]trench.Move
	pvLen    [maxPly]int

	nodes     uint64
	nodeLimit uint64
	deadline  time.Time
	ctx       context.Context
	stopped   bool
}

// New returns an engine with a transposition table of 2^tableBits
// entries (DefaultTableBits if tableBits is 0) and the hand-written
// evaluation.
func New(tableBits int) (*Searcher, error) {
	return NewWith(tableBits, Hand{})
}

// NewWith returns a searcher like New that evaluates with eval, which it
// then owns.
func NewWith(tableBits int, eval Evaluator) (*Searcher, error) {
	if eval == nil {
		return nil, errors.New("alphabeta: no evaluator")
	}
	if tableBits == 0 {
		tableBits = DefaultTableBits
	}
	if tableBits < 10 || tableBits > 30 {
		return nil, fmt.Errorf("alphabeta: table size must be 2^10..2^30 entries, got 2^%d", tableBits)
	}
	_, hand := eval.(Hand)
	return &Searcher{tt: ttable.NewTable[trench.Move](tableBits), eval: eval, hand: hand}, nil
}

// Clear forgets everything learnt from earlier searches, for a new game.
func (e *Searcher) Clear() {
	e.tt.Clear()
	e.killers = [maxPly][2]trench.Move{}
	e.history = [2][64][64]int32{}
}

// FromState returns the Trench position of s, or an error naming the
// game if s is not a Trench state.
func FromState(s engine.State) (*trench.Position, error) {
	ts, ok := s.(*trench.State)
	if !ok {
		return nil, fmt.Errorf("alphabeta plays only trench, not %s", s.Game().Name())
	}
	return &ts.Position, nil
}

// Search searches p within limits. When ctx is done the search stops and
// returns what it found so far; only a search that found nothing returns
// ctx's error.
func (e *Searcher) Search(ctx context.Context, p trench.Position, limits Limits) (Result, error) {
	return e.SearchLines(ctx, p, limits, 1)
}

// SearchLines searches p within limits as Search does, for the best
// lines root moves (multi-PV): each iteration searches every root move
// with a window whose lower end is the lines-th best score found so far,
// so that the best lines moves get exact scores and main lines, in
// Result.Lines, best first. Lines 0 or 1 is Search. A search stopped in
// an iteration reports the last finished one's lines.
func (e *Searcher) SearchLines(ctx context.Context, p trench.Position, limits Limits, lines int) (Result, error) {
	if err := limits.Validate(); err != nil {
		return Result{}, err
	}
	if lines < 0 {
		return Result{}, fmt.Errorf("alphabeta: lines must not be negative, got %d", lines)
	}
	start := time.Now()
	rootMoves := p.GenerateMoves(nil)
	if len(rootMoves) == 0 {
		return Result{}, ErrGameOver
	}
	deadline := time.Time{}
	if limits.Time > 0 {
		deadline = start.Add(limits.Time)
	}
	e.begin(ctx, &p, limits.Nodes, deadline)
	maxDepth := limits.Depth
	if maxDepth == 0 {
		maxDepth = MaxDepth
	}
	// Age the history so that old games weigh less.
	for c := range e.history {
		for f := range e.history[c] {
			for t := range e.history[c][f] {
				e.history[c][f][t] /= 8
			}
		}
	}
	e.killers = [maxPly][2]trench.Move{}

	var res Result
	if lines <= 1 {
		res = e.deepen(&p, rootMoves, limits, maxDepth, start)
	} else {
		res = e.deepenLines(&p, rootMoves, min(lines, len(rootMoves)), limits, maxDepth, start)
	}
	res.Nodes = e.nodes
	res.Elapsed = time.Since(start)
	if res.Depth == 0 && ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, nil
}

// deepen searches p, whose moves are rootMoves, one iteration deeper at a
// time up to maxDepth, within limits, for its best move.
func (e *Searcher) deepen(p *trench.Position, rootMoves []trench.Move, limits Limits, maxDepth int, start time.Time) Result {
	res := Result{Move: rootMoves[0]}
	for depth := 1; depth <= maxDepth; depth++ {
		score := e.negamax(p, depth, -Win-1, Win+1, 0)
		if e.stopped {
			// A move that raised the root's alpha in the unfinished
			// iteration was searched in full: it is at least as good.
			if e.pvLen[0] > 0 && depth > 1 {
				res.Move = e.pv[0][0]
				res.PV = append(res.PV[:0], e.pv[0][:e.pvLen[0]]...)
			}
			break
		}
		res.Move, res.Score, res.Depth = e.pv[0][0], score, depth
		res.PV = append(res.PV[:0], e.pv[0][:e.pvLen[0]]...)
		if !searchlimits.Limits(limits).Deepen(score, winBound, time.Since(start), e.nodes) {
			break
		}
	}
	return res
}

// deepenLines is deepen for the best n of rootMoves (2 ≤ n ≤
// len(rootMoves)), Result.Lines: each iteration searches first the
// moves of the last one's lines, best first.
func (e *Searcher) deepenLines(p *trench.Position, rootMoves []trench.Move, n int, limits Limits, maxDepth int, start time.Time) Result {
	res := Result{Move: rootMoves[0]}
	// The first iteration takes the moves in the order of the search's
	// move ordering (the table's move first).
	var ttMove trench.Move
	if en, ok := e.tt.Probe(p.SearchKey()); ok {
		ttMove = en.Move
	}
	orders := make([]int32, len(rootMoves))
	e.orderMoves(p, rootMoves, orders, ttMove, 0)
	for i := range rootMoves {
		pickNext(rootMoves, orders, i)
	}
	for depth := 1; depth <= maxDepth; depth++ {
		lines := e.rootLines(p, rootMoves, depth, n)
		if e.stopped {
			break
		}
		res.Lines = lines
		res.Move, res.Score, res.Depth = lines[0].Move, lines[0].Score, depth
		res.PV = append(res.PV[:0], lines[0].PV...)
		e.tt.Store(p.SearchKey(), depth, ttable.ToTable(lines[0].Score, 0, winBound), ttable.Exact, lines[0].Move)
		// The next iteration searches the lines' moves first, best
		// first, then the others as they were.
		k := 0
		for _, l := range lines {
			j := k
			for rootMoves[j] != l.Move {
				j++
			}
			copy(rootMoves[k+1:j+1], rootMoves[k:j])
			rootMoves[k] = l.Move
			k++
		}
		if !searchlimits.Limits(limits).Deepen(lines[0].Score, winBound, time.Since(start), e.nodes) {
			break
		}
	}
	return res
}

// rootLines searches the root p's moves, in order, to depth, and returns
// the best n with their exact scores and main lines, best first, or nil
// when the search stopped. A move is searched first with a null window
// at the n-th best score so far (from the n-th move on), and again with
// a window open above when it beats it.
func (e *Searcher) rootLines(p *trench.Position, moves []trench.Move, depth, n int) []Line {
	e.pvLen[0] = 0
	e.nodes++
	lines := make([]Line, 0, n+1)
	for _, m := range moves {
		child := &e.children[0]
		*child = *p
		child.Play(m)
		if !e.hand {
			e.eval.Push(0, p, child, m)
		}
		var s int
		if len(lines) < n {
			s = -e.negamax(child, depth-1, -Win-1, Win+1, 1)
		} else {
			alpha := lines[n-1].Score
			s = -e.negamax(child, depth-1, -alpha-1, -alpha, 1)
			if s > alpha && !e.stopped {
				s = -e.negamax(child, depth-1, -Win-1, -alpha, 1)
			}
		}
		if e.stopped {
			return nil
		}
		if len(lines) == n && s <= lines[n-1].Score {
			continue
		}
		pv := make([]trench.Move, 0, e.pvLen[1]+1)
		pv = append(append(pv, m), e.pv[1][:e.pvLen[1]]...)
		i := len(lines)
		for i > 0 && lines[i-1].Score < s {
			i--
		}
		lines = slices.Insert(lines, i, Line{Move: m, Score: s, Depth: depth, PV: pv})
		if len(lines) > n {
			lines = lines[:n]
		}
	}
	return lines
}

// Quiesce scores p by the quiescence search alone, as the full search
// scores a position at its horizon (a depth-0 search): the side to move
// stands pat on the evaluation or captures, and so does each reply,
// until no capture is worth making. It evaluates with the searcher's
// evaluator, set to p as its root; it reads and writes neither the table
// nor the move-ordering statistics, and has no limit but the search's
// deepest ply. The result has the score (a forced win or loss beyond
// ±(Win-10000), as Search's, for a capture sequence that ends the game),
// the nodes and the time; a finished game scores its result. It has no
// move: Move is zero and PV empty.
func (e *Searcher) Quiesce(p trench.Position) Result {
	start := time.Now()
	e.begin(context.Background(), &p, 0, time.Time{})
	score := e.quiesce(&p, -Win-1, Win+1, 0)
	return Result{Score: score, Nodes: e.nodes, Elapsed: time.Since(start)}
}

// begin starts a search of root: its context, node limit (0: none) and
// deadline (zero: none), no node searched yet, and the evaluator set to
// root.
func (e *Searcher) begin(ctx context.Context, root *trench.Position, nodeLimit uint64, deadline time.Time) {
	e.ctx, e.stopped, e.nodes = ctx, false, 0
	e.nodeLimit, e.deadline = nodeLimit, deadline
	e.eval.SetRoot(root)
}

// checkStop notes whether the search must stop: its time, node limit or
// context is over.
func (e *Searcher) checkStop() {
	if e.nodeLimit > 0 && e.nodes >= e.nodeLimit {
		e.stopped = true
		return
	}
	if !e.deadline.IsZero() && time.Now().After(e.deadline) {
		e.stopped = true
		return
	}
	select {
	case <-e.ctx.Done():
		e.stopped = true
	default:
	}
}

// negamax searches p to depth plies and returns its score for the side
// to move, within the window (alpha, beta).
func (e *Searcher) negamax(p *trench.Position, depth, alpha, beta, ply int) int {
	e.pvLen[ply] = 0
	if ply > 0 && decided(p) {
		return terminal(p, ply)
	}
	if depth <= 0 || ply >= maxPly-1 {
		return e.quiesce(p, alpha, beta, ply)
	}
	e.nodes++
	if e.nodes&1023 == 0 {
		e.checkStop()
	}
	if e.stopped {
		return 0
	}
	pvNode := beta-alpha > 1
	key := p.SearchKey()
	var ttMove trench.Move
	if en, ok := e.tt.Probe(key); ok {
		ttMove = en.Move
		if !pvNode && ply > 0 && int(en.Depth) >= depth {
			if s := ttable.FromTable(en.Score, ply, winBound); en.Cuts(s, alpha, beta) {
				return s
			}
		}
	}
	moves := p.GenerateMoves(e.moves[ply][:0])
	if len(moves) == 0 {
		return terminal(p, ply)
	}
	e.orderMoves(p, moves, e.orders[ply][:len(moves)], ttMove, ply)

	us := p.SideToMove()
	best, bestMove := -Win-1, moves[0]
	alpha0 := alpha
	for i := range moves {
		m := pickNext(moves, e.orders[ply][:len(moves)], i)
		child := &e.children[ply]
		*child = *p
		child.Play(m)
		if !e.hand {
			e.eval.Push(ply, p, child, m)
		}
		var s int
		if i == 0 {
			s = -e.negamax(child, depth-1, -beta, -alpha, ply+1)
		} else {
			s = -e.negamax(child, depth-1, -alpha-1, -alpha, ply+1)
			if s > alpha && s < beta {
				s = -e.negamax(child, depth-1, -beta, -alpha, ply+1)
			}
		}
		if e.stopped {
			return 0
		}
		if s <= best {
			continue
		}
		best, bestMove = s, m
		if s <= alpha {
			continue
		}
		alpha = s
		e.pv[ply][0] = m
		copy(e.pv[ply][1:], e.pv[ply+1][:e.pvLen[ply+1]])
		e.pvLen[ply] = e.pvLen[ply+1] + 1
		if s >= beta {
			if p.Captured(m) == 0 {
				if e.killers[ply][0] != m {
					e.killers[ply][1] = e.killers[ply][0]
					e.killers[ply][0] = m
				}
				h := &e.history[us][m.From()][m.To()]
				*h += int32(depth * depth)
				if *h > 1<<20 {
					*h = 1 << 20
				}
			}
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
	e.tt.Store(key, depth, ttable.ToTable(best, ply, winBound), bound, bestMove)
	return best
}

// quiesce searches only captures from p until the position is quiet, so
// that the evaluation is not taken in the middle of an exchange.
func (e *Searcher) quiesce(p *trench.Position, alpha, beta, ply int) int {
	e.pvLen[ply] = 0
	e.nodes++
	if e.nodes&1023 == 0 {
		e.checkStop()
	}
	if e.stopped {
		return 0
	}
	if decided(p) {
		return terminal(p, ply)
	}
	// Stand pat before listing the captures: where the evaluation cuts
	// off, only whether any move is left (the third ending) is needed.
	var best int
	if e.hand {
		best = Evaluate(p)
	} else {
		best = e.eval.Evaluate(ply, p)
	}
	if best >= beta || ply >= maxPly-1 {
		if !p.HasMoves() {
			return terminal(p, ply)
		}
		return best
	}
	moves := p.GenerateCaptures(e.moves[ply][:0])
	if len(moves) == 0 && !p.HasMoves() {
		return terminal(p, ply)
	}
	if best > alpha {
		alpha = best
	}
	// Search the captures only, ordered by the value they take.
	orders := e.orders[ply][:len(moves)]
	for i, m := range moves {
		orders[i] = int32(capturedValue(p, m)*8 - int(attacker(p, m)))
	}
	for i := range moves {
		m := pickNext(moves, orders, i)
		child := &e.children[ply]
		*child = *p
		child.Play(m)
		if !e.hand {
			e.eval.Push(ply, p, child, m)
		}
		s := -e.quiesce(child, -beta, -alpha, ply+1)
		if e.stopped {
			return 0
		}
		if s > best {
			best = s
			if s > alpha {
				alpha = s
				if s >= beta {
					break
				}
			}
		}
	}
	return best
}

// Move-ordering ranks, highest first.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 24
	orderKiller1 = 1 << 22
	orderKiller2 = 1<<22 - 1
)

// orderMoves scores each move for the order of search: the table's move,
// then captures by the value taken (the least valuable attacker first),
// then the killer moves, then the rest by history.
func (e *Searcher) orderMoves(p *trench.Position, moves []trench.Move, orders []int32, ttMove trench.Move, ply int) {
	us := p.SideToMove()
	for i, m := range moves {
		switch {
		case m == ttMove:
			orders[i] = orderTT
		case p.Captured(m) != 0:
			orders[i] = orderCapture + int32(capturedValue(p, m)*8-int(attacker(p, m)))
		case m == e.killers[ply][0]:
			orders[i] = orderKiller1
		case m == e.killers[ply][1]:
			orders[i] = orderKiller2
		default:
			orders[i] = e.history[us][m.From()][m.To()]
		}
	}
}

// pickNext moves the best-ranked move of moves[i:] to position i and
// returns it.
func pickNext(moves []trench.Move, orders []int32, i int) trench.Move {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if orders[j] > orders[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	orders[i], orders[best] = orders[best], orders[i]
	return moves[i]
}

// capturedValue is the points move m takes.
func capturedValue(p *trench.Position, m trench.Move) int {
	captured := p.Captured(m)
	if captured == 0 {
		return 0
	}
	them := p.SideToMove().Other()
	v := 0
	for k := trench.Soldier; k <= trench.General; k++ {
		v += bits.OnesCount64(p.Pieces(them, k)&captured) * k.Value()
	}
	return v
}

// attacker is the kind of the piece that makes move m.
func attacker(p *trench.Position, m trench.Move) trench.Kind {
	_, k, _ := p.PieceAt(m.From())
	return k
}
