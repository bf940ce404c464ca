package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
	"trench/searchconfig"
)

// AlphaBetaTableBits sizes the table of a bot of the alphabeta kind:
// 2^18 entries (4 MiB), as the arena's alphabeta player's by default, so
// that the two search alike, and small enough for a server keeping a bot
// for each of hundreds of games.
const AlphaBetaTableBits = 18

// Evaluation loads the evaluation of the alphabeta kind that c asks for
// in game g: c.Eval, with the net c.NNUE names for nnue (a net file, a
// generation run directory's newest accepted net, or "default", the one
// built in). It is read once, to be shared by the bots NewAlphaBeta
// makes of it; an error says when g has no classical search.
func Evaluation(g engine.Game, c searchconfig.Config) (plugin.ClassicalEvaluation, error) {
	cl := games.ClassicalOf(g)
	if cl == nil {
		return nil, fmt.Errorf("kind alphabeta: %s has no classical search (%s)", g.Name(), games.ClassicalHave())
	}
	net := ""
	if c.Eval == searchconfig.EvalNNUE {
		net = c.NNUERef()
	}
	return cl.Evaluation(c.Eval, net)
}

// AlphaBeta is the bot of the alphabeta kind: the game's classical
// search searching with the bot's evaluation, one searcher (one engine,
// its table kept from move to move) for the bot's lifetime, and the
// position to search.
type AlphaBeta struct {
	mu        sync.Mutex
	game      engine.Game
	doc       string
	classical plugin.Classical
	searcher  plugin.ClassicalSearcher
	// endgame is the score from which the hand-written evaluation's
	// searcher, hand, made on the first move that needs it, searches in
	// place of searcher; 0 for never (and when the evaluation is the
	// hand-written one already).
	endgame float64
	hand    plugin.ClassicalSearcher
	pos     engine.State
	// last is the last search's result.
	last plugin.ClassicalResult
}

// NewAlphaBeta returns a bot of the alphabeta kind for game g, which has
// a classical search, searching with ev (from Evaluation) and settings
// c: its own searcher of the classical search, whose table it keeps
// between moves (cleared by NewGame), limited by nodes (levels:
// searchconfig.LevelNodes) or time. It searches on one thread, with
// neither guard (it is the classical search already) nor tree;
// c.Endgame, if set, is the score from which it searches with the
// hand-written evaluation instead of ev. Its analyses take win and loss
// from the search's score (plugin.ClassicalResult.Value) with no draw
// chance and no expected score.
func NewAlphaBeta(g engine.Game, ev plugin.ClassicalEvaluation, c searchconfig.Config) (*AlphaBeta, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cl := games.ClassicalOf(g)
	if cl == nil {
		return nil, fmt.Errorf("kind alphabeta: %s has no classical search (%s)", g.Name(), games.ClassicalHave())
	}
	if ev == nil {
		return nil, errors.New("kind alphabeta: no evaluation")
	}
	s, err := ev.NewSearcher(AlphaBetaTableBits)
	if err != nil {
		return nil, err
	}
	b := &AlphaBeta{game: g, classical: cl, searcher: s, pos: g.Start()}
	b.doc = fmt.Sprintf("%s with %s", cl.Name(), ev)
	if c.Endgame > 0 && c.Eval != plugin.EvalHand {
		b.endgame = c.Endgame
		b.doc += fmt.Sprintf("; from %g points the hand-written evaluation", c.Endgame)
	}
	return b, nil
}

// Game returns the bot's game.
func (a *AlphaBeta) Game() engine.Game { return a.game }

// Kind is searchconfig.AlphaBeta.
func (a *AlphaBeta) Kind() string { return searchconfig.AlphaBeta }

// String names the search and its evaluation, with the net it read.
func (a *AlphaBeta) String() string { return a.doc }

// Position returns a copy of the position the bot searches.
func (a *AlphaBeta) Position() engine.State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pos.Clone()
}

// SetPosition makes s the position to search; the table stays.
func (a *AlphaBeta) SetPosition(s engine.State) error {
	if err := sameGame(s, a.game); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pos = s.Clone()
	return nil
}

// NewGame clears the table and goes back to the game's start.
func (a *AlphaBeta) NewGame() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pos = a.game.Start()
	a.searcher.Clear()
	if a.hand != nil {
		a.hand.Clear()
	}
}

// Play plays action at the current position. The error wraps
// engine.ErrIllegalAction for an illegal action.
func (a *AlphaBeta) Play(action int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return engine.PlayChecked(a.pos, action)
}

// Search searches the current position within limits (nodes or time,
// and the lines to search in full) and returns the move with its
// analysis: the search's value as win and loss, its main line, depth and
// nodes, and each line's move in Moves, best first.
func (a *AlphaBeta) Search(ctx context.Context, limits Limits) (*Analysis, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	start := time.Now()
	stopped, err := a.search(ctx, limits)
	if err != nil {
		return nil, err
	}
	an := a.analysis()
	an.Elapsed, an.Stopped, an.Limits = time.Since(start), stopped, limits.String()
	return an, nil
}

// Choose searches as Search does and fills r with the move, the main
// line and every player's value.
func (a *AlphaBeta) Choose(ctx context.Context, limits Limits, r *mcts.Result) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.search(ctx, limits); err != nil {
		return err
	}
	a.result(r)
	return nil
}

// InEndgame reports whether the hand-written evaluation searches the
// current position (NewAlphaBeta's endgame).
func (a *AlphaBeta) InEndgame() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.handing(a.pos)
}

// handing reports whether the hand-written evaluation searches s.
func (a *AlphaBeta) handing(s engine.State) bool {
	return a.endgame > 0 && (&Endgame{Points: a.endgame}).reached(s)
}

// search searches the bot's position within limits, with the bot's lock
// held, into a.last, and reports whether ctx stopped it.
func (a *AlphaBeta) search(ctx context.Context, limits Limits) (stopped bool, err error) {
	if err := limits.Validate(); err != nil {
		return false, err
	}
	if limits.Sims > 0 {
		return false, fmt.Errorf("the alphabeta kind searches by nodes or time, not by %d simulations", limits.Sims)
	}
	if a.pos.Over() {
		return false, mcts.ErrGameOver
	}
	s := a.searcher
	if a.handing(a.pos) {
		if a.hand == nil {
			if a.hand, err = a.classical.NewSearcher(AlphaBetaTableBits); err != nil {
				return false, err
			}
		}
		s = a.hand
	}
	a.last, err = s.Search(ctx, a.pos, plugin.ClassicalLimits{Nodes: uint64(limits.Nodes), Time: limits.Time, MultiPV: limits.MultiPV})
	if err != nil {
		return false, err
	}
	return ctx.Err() != nil, nil
}

// analysis turns the last search's result into an Analysis: win and
// loss from its value, no draw and no expected score.
func (a *AlphaBeta) analysis() *Analysis {
	g := a.game
	r := a.last
	root := a.pos
	mover := root.ToMove()
	an := &Analysis{
		Position: root.String(), ToMove: mover, Action: r.Action, Move: root.ActionString(r.Action),
		Value: r.Value, Nodes: int(r.Nodes), Depth: r.Depth,
	}
	an.PVActions, an.PV = notation(root, r.PV)
	if len(an.PV) == 0 {
		an.PVActions, an.PV = []int{r.Action}, []string{an.Move}
	}
	an.Players = make([]PlayerEval, g.Players())
	for p := range an.Players {
		v := playerValue(r, p, mover)
		an.Players[p] = PlayerEval{Value: v, Win: (1 + v) / 2, Loss: (1 - v) / 2}
	}
	me := an.Players[mover]
	an.Win, an.Loss = me.Win, me.Loss
	if len(r.Lines) == 0 {
		an.Moves = []MoveStats{{Move: an.Move, Action: r.Action, Q: r.Value, Score: points(r.Score, r.Forced), Depth: r.Depth, PV: an.PV}}
		return an
	}
	for _, l := range r.Lines {
		m := MoveStats{Move: root.ActionString(l.Action), Action: l.Action, Q: l.Value, Score: points(l.Score, l.Forced), Depth: l.Depth}
		_, m.PV = notation(root, l.PV)
		an.Moves = append(an.Moves, m)
	}
	return an
}

// points is a classical search's score, in points, for MoveStats.Score:
// 0 for a forced result (forced ±1), whose score is not in points.
func points(score float64, forced int) float64 {
	if forced != 0 {
		return 0
	}
	return score
}

// result fills r as mcts.Result for a player that wants only the move:
// the action, the principal variation and every player's value.
func (a *AlphaBeta) result(r *mcts.Result) {
	g := a.game
	mover := a.pos.ToMove()
	r.Action, r.Visits, r.Proven = a.last.Action, 0, a.last.Forced != 0
	r.PV = append(r.PV[:0], a.last.PV...)
	r.Actions = r.Actions[:0]
	r.Value = r.Value[:0]
	for p := range g.Players() {
		r.Value = append(r.Value, float32(playerValue(a.last, p, mover)))
	}
}

// playerValue is player's value in r, a search of a position where mover
// is to move: its own in r.Players for a game of more than two players,
// else r.Value for the mover and its negation for the other.
func playerValue(r plugin.ClassicalResult, player, mover int) float64 {
	switch {
	case player < len(r.Players):
		return r.Players[player]
	case player != mover:
		return -r.Value
	}
	return r.Value
}
