package trichess

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"trench/engine/trichess"
	"trench/internal/excerpt"
	"trench/internal/searchlimits"
	"trench/internal/ttable"
)

// Algorithm is a three-player search: BRS, Paranoid or MaxN.
type Algorithm uint8

// The algorithms.
const (
	// BRS is Best-Reply Search, BRS+: one layer for both opponents, in
	// which the other opponent plays its first move by move ordering.
	BRS Algorithm = iota
	// Paranoid takes both opponents to play against the root player.
	Paranoid
	// MaxN has each player maximise its own lead, with shallow pruning.
	MaxN
)

// Default is the algorithm of a search that names none: BRS, which led
// the other two at 200 ms a move, +1.50 and +1.11 points a game over two
// matches of 18 games (docs/trichess.md).
const Default = BRS

// algorithmNames are the algorithms' names, in Algorithm order.
var algorithmNames = []string{"brs", "paranoid", "maxn"}

// AlgorithmNames lists the algorithms' names, the default first.
func AlgorithmNames() []string {
	names := []string{Default.String()}
	for a, n := range algorithmNames {
		if Algorithm(a) != Default {
			names = append(names, n)
		}
	}
	return names
}

// String is the algorithm's name: brs, paranoid or maxn.
func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// ParseAlgorithm reads an algorithm's name, "" for the default.
func ParseAlgorithm(name string) (Algorithm, error) {
	if name == "" {
		return Default, nil
	}
	for i, n := range algorithmNames {
		if n == name {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("unknown search %s (known: %s)", excerpt.Quote(name), strings.Join(AlgorithmNames(), ", "))
}

// Scores are leads in centipoints, from the point of view of a player.
const (
	// TitleUnit is the score of a finished game's lead of one point, in
	// half title points: a player's lead in a finished game is twice its
	// title's points less the other two's, from -4 (mated, serf) to +6
	// (seigneur by échec et fat), and scores that times TitleUnit, less
	// one TitleUnit-th for each ply from the root, so that the search
	// prefers a quick win and a slow loss.
	TitleUnit = 100_000
	// winBound separates finished games' scores from evaluations.
	winBound = TitleUnit / 2
	// evalBound bounds an evaluation's lead.
	evalBound = winBound - 10_000
	// infinity is beyond every score.
	infinity = 10 * TitleUnit
	// minLead is the least lead a player can have: mated, serf.
	minLead = -4 * TitleUnit
)

// maxPly bounds the search's distance from the root, quiescence included.
const maxPly = 128

// MaxDepth is the deepest nominal depth a search may be asked for.
const MaxDepth = 64

// maxQuiesce bounds the plies of BRS's and Paranoid's quiescence search,
// maxQuiesceMaxN those of MaxN's, which prunes far less; checkEvasions
// is the plies of it in which a player in check tries all its moves
// rather than standing pat.
const (
	maxQuiesce     = 12
	maxQuiesceMaxN = 4
	checkEvasions  = 1
)

// DefaultTableBits is the default size of the transposition table:
// 2^DefaultTableBits entries of 24 bytes (48 MiB).
const DefaultTableBits = 21

// ErrGameOver is returned when searching a finished game.
var ErrGameOver = errors.New("trichess alphabeta: the game is over")

// Limits bound one search: a depth, a time or a node count (see
// searchlimits.Limits).
type Limits searchlimits.Limits

// Validate reports limits that cannot be searched with.
func (l Limits) Validate() error {
	if err := searchlimits.Limits(l).Check(MaxDepth); err != nil {
		return fmt.Errorf("trichess alphabeta: %w", err)
	}
	return nil
}

// Result is what a search found.
type Result struct {
	// Move is the best move found.
	Move trichess.Move
	// Score is the root player's lead, in centipoints; beyond ±winBound
	// (Forced) a finished game's (see TitleUnit).
	Score int
	// Leads is each player's lead: of the principal variation's end
	// with MaxN; with BRS and Paranoid, which follow the root player's
	// lead alone, Score for it and the opposite of half of it for each
	// opponent.
	Leads Values
	// Depth is the depth of the last finished iteration.
	Depth int
	// PV is the principal variation, Move first.
	PV []trichess.Move
	// Nodes is the number of positions searched, quiescence included.
	Nodes uint64
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

// Forced is +1 when Score is a finished game in which the root player
// leads, -1 when one in which it trails, and 0 otherwise (an evaluation,
// or a finished game in which every player has the same title).
func (r Result) Forced() int { return forced(r.Score) }

func forced(score int) int {
	switch {
	case score > winBound:
		return 1
	case score < -winBound:
		return -1
	}
	return 0
}

// Title is the root player's title when Score is a finished game's, and
// false otherwise.
func (r Result) Title() (trichess.Title, bool) { return TitleOf(r.Score) }

// TitleOf is the title of the player whose lead is lead (a Score or one
// of Leads) when it is a finished game's, and false otherwise.
func TitleOf(lead int) (trichess.Title, bool) {
	switch t := titleLead(lead); {
	case forced(lead) == 0:
		return 0, false
	case t >= 5:
		return trichess.Seigneur, true
	case t >= 1:
		return trichess.Chevalier, true
	case t >= -2:
		return trichess.Vassal, true
	}
	return trichess.Serf, true
}

// ttData is what the table keeps with a position's score: the best move
// and, for MaxN, the leads of the next and previous players.
type ttData struct {
	move   trichess.Move
	others [2]int32
}

// Searcher searches Trichess positions with one algorithm. It keeps its
// transposition table and move-ordering statistics from one search to
// the next; it is not safe for concurrent use (give each game its own
// Searcher).
type Searcher struct {
	algorithm Algorithm
	tt        *ttable.Table[ttData]
	eval      Evaluator
	// hand is set when eval is Hand: the search calls Evaluate
	// directly and tells it nothing.
	hand bool
	// leader is eval when it gives one player's lead alone, else nil.
	leader leader
	// moved is, for each search ply, the moves played from the root to
	// the node there: the evaluator's ply, which BRS's layer of
	// opponents, two moves a search ply, sets apart from the search's.
	moved   [maxPly]int
	killers [maxPly][2]trichess.Move
	history [3][trichess.NumSquares][trichess.NumSquares]int32

	// The positions, move lists and move orders of each ply live in
	// the searcher, so that a search allocates nothing. BRS's layer of
	// opponents uses three positions and two lists a ply.
	children [maxPly][3]trichess.Position
	moves    [maxPly][trichess.MaxMoves]trichess.Move
	replies  [maxPly][trichess.MaxMoves]trichess.Move
	orders   [maxPly][trichess.MaxMoves]int32
	replyOrd [maxPly][trichess.MaxMoves]int32
	pv       [maxPly][2 * maxPly]trichess.Move
	pvLen    [maxPly]int
	root     trichess.Color

	nodes     uint64
	nodeLimit uint64
	deadline  time.Time
	ctx       context.Context
	stopped   bool
}

// New returns a searcher with algorithm a and a transposition table of
// 2^tableBits entries (DefaultTableBits if tableBits is 0).
func New(a Algorithm, tableBits int) (*Searcher, error) {
	if int(a) >= len(algorithmNames) {
		return nil, fmt.Errorf("trichess alphabeta: unknown algorithm %d", a)
	}
	if tableBits == 0 {
		tableBits = DefaultTableBits
	}
	if tableBits < 10 || tableBits > 30 {
		return nil, fmt.Errorf("trichess alphabeta: table size must be 2^10..2^30 entries, got 2^%d", tableBits)
	}
	return &Searcher{algorithm: a, tt: ttable.NewTable[ttData](tableBits), eval: Hand{}, hand: true}, nil
}

// Algorithm is the searcher's algorithm.
func (s *Searcher) Algorithm() Algorithm { return s.algorithm }

// SeatLeads is every seat's lead in p that r, the searcher's last search
// of p, says: with max^n, or for a finished game, the leads it backed
// up; with BRS+ and paranoid, which search the mover's lead alone, the
// mover's is the search's score and each other seat's its lead by the
// searcher's evaluation less half of what the search took from or gave
// to the mover's evaluated lead, so that the two opponents keep the
// difference the evaluation sees between them (r.Leads gives both the
// same). It resets the evaluation's root to p.
func (s *Searcher) SeatLeads(p *trichess.Position, r Result) Values {
	if s.algorithm == MaxN || r.Forced() != 0 {
		return r.Leads
	}
	s.eval.SetRoot(p)
	e := s.eval.Leads(0, p)
	m := p.SideToMove()
	d := r.Score - e[m]
	var out Values
	for c := range out {
		out[c] = e[c] - d/2
	}
	out[m] = r.Score
	return out
}

// SetEvaluator makes e, which the searcher then owns, the evaluation of
// its searches; nil is Hand.
func (s *Searcher) SetEvaluator(e Evaluator) {
	if e == nil {
		e = Hand{}
	}
	_, s.hand = e.(Hand)
	s.leader, _ = e.(leader)
	s.eval = e
}

// Clear forgets everything learnt from earlier searches, for a new game.
func (s *Searcher) Clear() {
	s.tt.Clear()
	s.killers = [maxPly][2]trichess.Move{}
	s.history = [3][trichess.NumSquares][trichess.NumSquares]int32{}
}

// rootKeys make BRS's and Paranoid's table entries depend on the root
// player, whose lead their scores are.
var rootKeys = [3]uint64{0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb}

// key is p's table key.
func (s *Searcher) key(p *trichess.Position) uint64 {
	if s.algorithm == MaxN {
		return p.Hash()
	}
	return p.Hash() ^ rootKeys[s.root]
}

// Search searches p within limits. When ctx is done the search stops and
// returns what it found so far; only a search that found nothing returns
// ctx's error.
func (s *Searcher) Search(ctx context.Context, p trichess.Position, limits Limits) (Result, error) {
	if err := limits.Validate(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	var buf [trichess.MaxMoves]trichess.Move
	rootMoves := p.GenerateMoves(buf[:0])
	if len(rootMoves) == 0 {
		return Result{}, ErrGameOver
	}
	s.ctx, s.nodes, s.nodeLimit, s.stopped = ctx, 0, limits.Nodes, false
	s.deadline = time.Time{}
	if limits.Time > 0 {
		s.deadline = start.Add(limits.Time)
	}
	s.root = p.SideToMove()
	s.setRoot(&p)
	maxDepth := limits.Depth
	if maxDepth == 0 {
		maxDepth = MaxDepth
	}
	// Age the history so that old positions weigh less.
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= 8
			}
		}
	}
	s.killers = [maxPly][2]trichess.Move{}

	res := Result{Move: rootMoves[0]}
	for depth := 1; depth <= maxDepth; depth++ {
		var score int
		var leads Values
		switch s.algorithm {
		case BRS:
			score = s.brs(&p, 0, depth, -infinity, infinity)
		case Paranoid:
			score = s.paranoid(&p, 0, depth, -infinity, infinity)
		case MaxN:
			leads = s.maxn(&p, 0, depth, 0, false)
			score = leads[s.root]
		}
		if s.stopped {
			// A move that became the root's best in the unfinished
			// iteration was searched in full: it is at least as good
			// (or, in the first, the best found).
			if s.pvLen[0] > 0 {
				res.Move = s.pv[0][0]
				res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
			}
			break
		}
		if s.algorithm != MaxN {
			leads = rootLeads(s.root, score)
		}
		res.Move, res.Score, res.Leads, res.Depth = s.pv[0][0], score, leads, depth
		res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		if !searchlimits.Limits(limits).Deepen(score, winBound, time.Since(start), s.nodes) {
			break
		}
	}
	if len(res.PV) == 0 {
		res.PV = append(res.PV, res.Move)
	}
	res.Nodes = s.nodes
	res.Elapsed = time.Since(start)
	if res.Depth == 0 && ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, nil
}

// Quiesce is the quiescence search of p alone, for its player to move,
// as Search would value p at its horizon: Score and Leads, with no move.
func (s *Searcher) Quiesce(p trichess.Position) Result {
	start := time.Now()
	s.ctx, s.nodes, s.nodeLimit, s.stopped, s.deadline = context.Background(), 0, 0, false, time.Time{}
	s.root = p.SideToMove()
	s.setRoot(&p)
	var r Result
	if s.algorithm == MaxN {
		r.Leads = s.quiesceMaxN(&p, 0, 0, 0, false)
		r.Score = r.Leads[s.root]
	} else {
		r.Score = s.quiesce(&p, 0, 0, -infinity, infinity)
		r.Leads = rootLeads(s.root, r.Score)
	}
	r.Nodes, r.Elapsed = s.nodes, time.Since(start)
	return r
}

// rootLeads are the leads BRS and Paranoid report: score for the root
// player, the opposite of half of it for each opponent.
func rootLeads(root trichess.Color, score int) Values {
	var l Values
	l[root] = score
	l[root.Next()], l[root.Prev()] = -score/2, -score/2
	return l
}

// visit counts a node and reports whether the search must stop: the
// node limit, the deadline or the context, checked every 1024 nodes.
func (s *Searcher) visit() bool {
	s.nodes++
	if s.nodes&1023 == 0 {
		switch {
		case s.nodeLimit > 0 && s.nodes >= s.nodeLimit:
			s.stopped = true
		case !s.deadline.IsZero() && time.Now().After(s.deadline):
			s.stopped = true
		case s.ctx.Err() != nil:
			s.stopped = true
		}
	}
	return s.stopped
}

// terminalLeads are the players' leads in p, a finished game, ply plies
// from the root.
func terminalLeads(p *trichess.Position, ply int) Values {
	pts := p.Outcome().Points()
	var l Values
	for c := trichess.White; c <= trichess.Black; c++ {
		l[c] = (2*pts[c] - pts[c.Next()] - pts[c.Prev()]) * (TitleUnit - ply)
	}
	return l
}

// setRoot makes p, the root, the position at ply 0 of the search and of
// the evaluator.
func (s *Searcher) setRoot(p *trichess.Position) {
	s.moved[0] = 0
	if !s.hand {
		s.eval.SetRoot(p)
	}
}

// play makes child p after m, p the position at ply, and tells the
// evaluator: child is the position at ply+1, one move further.
func (s *Searcher) play(ply int, p, child *trichess.Position, m trichess.Move) {
	*child = *p
	child.Play(m)
	if !s.hand {
		s.eval.Push(s.moved[ply], p, child, m)
	}
	s.moved[ply+1] = s.moved[ply] + 1
}

// playReply makes b a after reply, a the position after the first move
// of BRS's layer of opponents at ply, and tells the evaluator: b is the
// position at ply+1, two moves further than ply's.
func (s *Searcher) playReply(ply int, a, b *trichess.Position, reply trichess.Move) {
	*b = *a
	b.Play(reply)
	if !s.hand {
		s.eval.Push(s.moved[ply]+1, a, b, reply)
	}
	s.moved[ply+1] = s.moved[ply] + 2
}

// evalLeads is the evaluation's leads in p, the position at ply, bounded
// by evalBound.
func (s *Searcher) evalLeads(ply int, p *trichess.Position) Values {
	var l Values
	if s.hand {
		l = Evaluate(p).Leads()
	} else {
		l = s.eval.Leads(s.moved[ply], p)
	}
	for c := range l {
		l[c] = max(-evalBound, min(evalBound, l[c]))
	}
	return l
}

// evalLead is the evaluation's lead of player c in p, the position at
// ply, bounded by evalBound: the lead alone when the evaluator gives it.
func (s *Searcher) evalLead(ply int, p *trichess.Position, c trichess.Color) int {
	if s.leader != nil {
		return max(-evalBound, min(evalBound, s.leader.Lead(s.moved[ply], p, c)))
	}
	return s.evalLeads(ply, p)[c]
}

// toTable and fromTable move a finished game's score between the root's
// frame (plies from the root) and the table's (plies from the node).
func toTable(score, ply int) int32 {
	if t := titleLead(score); t != 0 {
		score += t * ply
	}
	return int32(score)
}

func fromTable(score int32, ply int) int {
	s := int(score)
	if t := titleLead(s); t != 0 {
		s -= t * ply
	}
	return s
}

// titleLead is the lead in half title points of a finished game's score,
// 0 for an evaluation.
func titleLead(score int) int {
	if forced(score) == 0 {
		return 0
	}
	return int(math.Round(float64(score) / TitleUnit))
}

// updatePV makes m, then the line of ply+1, the line of ply.
func (s *Searcher) updatePV(ply int, m trichess.Move) {
	s.pv[ply][0] = m
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// updatePV2 makes m, reply, then the line of ply+1, the line of ply.
func (s *Searcher) updatePV2(ply int, m, reply trichess.Move) {
	s.pv[ply][0], s.pv[ply][1] = m, reply
	n := copy(s.pv[ply][2:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 2
}
