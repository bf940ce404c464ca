package bot

import (
	"context"
	"errors"
	"fmt"

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

// alphaBeta is the state of a bot of the alphabeta kind: the game's
// classical search searching with the bot's evaluation, one searcher (one
// engine, its table kept from move to move) for the bot's lifetime, and
// the position to search.
type alphaBeta struct {
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
func NewAlphaBeta(g engine.Game, ev plugin.ClassicalEvaluation, c searchconfig.Config) (*Bot, error) {
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
	ab := &alphaBeta{classical: cl, searcher: s, pos: g.Start()}
	doc := fmt.Sprintf("%s with %s", cl.Name(), ev)
	if c.Endgame > 0 && c.Eval != "hand" {
		ab.endgame = c.Endgame
		doc += fmt.Sprintf("; from %g points the hand-written evaluation", c.Endgame)
	}
	return &Bot{game: g, evalDoc: doc, threads: 1, ab: ab}, nil
}

// handing reports whether the hand-written evaluation searches s.
func (a *alphaBeta) handing(s engine.State) bool {
	return a.endgame > 0 && (&Endgame{Points: a.endgame}).reached(s)
}

// search searches the bot's position within limits, with the bot's lock
// held, into a.last, and reports whether ctx stopped it.
func (a *alphaBeta) search(ctx context.Context, limits Limits) (stopped bool, err error) {
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
	a.last, err = s.Search(ctx, a.pos, plugin.ClassicalLimits{Nodes: uint64(limits.Nodes), Time: limits.Time})
	if err != nil {
		return false, err
	}
	return ctx.Err() != nil, nil
}

// analysis turns the last search's result into an Analysis: win and
// loss from its value, no draw and no expected score.
func (a *alphaBeta) analysis(g engine.Game) *Analysis {
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
	an.Moves = []MoveStats{{Move: an.Move, Action: r.Action, Q: r.Value, PV: an.PV}}
	return an
}

// result fills r as mcts.Result for a player that wants only the move:
// the action, the principal variation and every player's value.
func (a *alphaBeta) result(g engine.Game, r *mcts.Result) {
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
