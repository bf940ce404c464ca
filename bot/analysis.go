package bot

import (
	"fmt"
	"math"
	"sort"
	"time"

	"trench/engine"
	"trench/mcts"
	"trench/nn"
	"trench/tactics"
)

// Analysis is what one search found, seen from the player to move, with
// every player's view in Players.
//
// A bot of the alphabeta kind fills it from the classical engine's
// search: Value is its score as the mover's expected result,
// 2σ(cp/400) − 1 (the NNUE's scale, for every evaluation; ±1 for a
// forced result), split into Win and Loss with no Draw; ScoreDiff is 0
// (it estimates no final score); PV is its principal variation; Nodes
// and Depth say how far it searched; Moves holds the root moves it
// searched in full, best first (the chosen move alone unless
// Limits.MultiPV asked for more), each with its value as Q, its Score,
// Depth and PV; Sims and Visits are 0.
type Analysis struct {
	// Position is the searched position's text form.
	Position string `json:"position"`
	// ToMove is the player to move.
	ToMove int `json:"to_move"`
	// Action is the chosen move's action index; Move is its notation.
	Action int    `json:"action"`
	Move   string `json:"move"`
	// Win, Draw and Loss are the mover's chances, summing to 1: Win minus
	// Loss is the search's value, and Draw comes from the net.
	Win  float64 `json:"win"`
	Draw float64 `json:"draw"`
	Loss float64 `json:"loss"`
	// Value is the search's value for the mover, in [-1, 1].
	Value float64 `json:"value"`
	// ScoreDiff is the expected final score difference, the mover's points
	// minus the best opponent's, from the net's score head over the
	// searched replies.
	ScoreDiff float64 `json:"score_diff"`
	// Players is the same evaluation for every player, indexed by player
	// number (Players[ToMove] repeats the fields above).
	Players []PlayerEval `json:"players"`
	// PV is the principal variation in move notation, the chosen move
	// first; PVActions holds the same moves as action indices.
	PV        []string `json:"pv"`
	PVActions []int    `json:"pv_actions"`
	// Moves are the root's moves, most visited first (the tree search),
	// or those searched in full, best first (the alphabeta kind).
	Moves []MoveStats `json:"moves"`
	// Sims is the number of simulations this search ran; Visits the
	// root's visits, including those kept from earlier searches (the
	// mcts kind).
	Sims   int `json:"sims"`
	Visits int `json:"visits"`
	// Nodes is the positions this search visited, quiescence included,
	// and Depth the depth of its last finished iteration, in plies (the
	// alphabeta kind; 0 for mcts).
	Nodes int `json:"nodes,omitempty"`
	Depth int `json:"depth,omitempty"`
	// Elapsed is the search's duration.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Limits describes the limits searched with.
	Limits string `json:"limits"`
	// Stopped is true when the search was cut short by its context.
	Stopped bool `json:"stopped,omitempty"`
	// Guard says how the classical search overruled the search's move
	// (see Guard); empty when it did not.
	Guard string `json:"guard,omitempty"`
	// Endgame says what the classical search chose in the game's endgame
	// (see Endgame), in place of the tree search; empty when the tree
	// chose.
	Endgame string `json:"endgame,omitempty"`
}

// PlayerEval is the search's view of one player's prospects.
type PlayerEval struct {
	// Value is the search's value for the player, in [-1, 1]: its
	// expected utility (the game's Result), blended with the net's score.
	Value float64 `json:"value"`
	// Win, Draw and Loss split Value into chances summing to 1 (Win minus
	// Loss is Value); Draw comes from the net's value head, and is zero
	// without a net.
	Win  float64 `json:"win"`
	Draw float64 `json:"draw"`
	Loss float64 `json:"loss"`
	// ScoreDiff is the player's expected final points minus the best other
	// player's, from the net's score head (zero without a net).
	ScoreDiff float64 `json:"score_diff"`
}

// MoveStats is what the search found about one root move.
type MoveStats struct {
	Move   string `json:"move"`
	Action int    `json:"action"`
	// Visits is the number of simulations through the move.
	Visits int `json:"visits"`
	// Q is the move's mean value for the mover, in [-1, 1] (0 unvisited;
	// the alphabeta kind: its search's value).
	Q float64 `json:"q"`
	// Score is the alphabeta kind's score of the move for the mover, in
	// points of the game's score (0 when Q is ±1, a forced result), and
	// Depth the depth it was searched to, in plies; both 0
	// for the tree search.
	Score float64 `json:"score,omitempty"`
	Depth int     `json:"depth,omitempty"`
	// Prior is the net's probability for the move (0 for the alphabeta
	// kind).
	Prior float64 `json:"prior"`
	// PV is the main line from the move, the move first: the chosen
	// move's is the Analysis's PV; another visited move's follows the
	// tree's most visited replies. Unvisited moves have none.
	PV []string `json:"pv,omitempty"`
	// Estimated says that the net evaluated the position after the move
	// (the analysis does for the most visited moves, up to eight, and for
	// finished positions takes their outcome): Draw and ScoreDiff are
	// then the mover's draw chance and expected final score difference
	// after the move; otherwise they are zero.
	Estimated bool    `json:"estimated,omitempty"`
	Draw      float64 `json:"draw,omitempty"`
	ScoreDiff float64 `json:"score_diff,omitempty"`
}

// maxAnalysed bounds the root children the analysis evaluates for the
// draw chance and the expected score.
const maxAnalysed = 8

// analyse turns a search result at root into an Analysis.
func (b *Tree) analyse(root engine.State, r *mcts.Result) (*Analysis, error) {
	mover := root.ToMove()
	a := &Analysis{
		Position: root.String(),
		ToMove:   mover,
		Action:   r.Action,
		Move:     root.ActionString(r.Action),
		Value:    float64(r.Value[mover]),
		Visits:   r.Visits,
	}
	a.PVActions, a.PV = notation(root, r.PV)
	var line []int
	for _, st := range r.Actions {
		m := MoveStats{
			Move: root.ActionString(st.Action), Action: st.Action,
			Visits: st.Visits, Q: float64(st.Q), Prior: float64(st.Prior),
		}
		switch {
		case st.Action == r.Action:
			m.PV = a.PV
		case st.Visits > 0:
			line = b.tree.Line(st.Action, line[:0])
			_, m.PV = notation(root, line)
		}
		a.Moves = append(a.Moves, m)
	}
	sort.SliceStable(a.Moves, func(i, j int) bool {
		if a.Moves[i].Visits != a.Moves[j].Visits {
			return a.Moves[i].Visits > a.Moves[j].Visits
		}
		if (a.Moves[i].Action == r.Action) != (a.Moves[j].Action == r.Action) {
			return a.Moves[i].Action == r.Action
		}
		return a.Moves[i].Prior > a.Moves[j].Prior
	})
	players := b.game.Players()
	draw, diff := b.drawAndScore(root, a.Moves)
	a.Players = make([]PlayerEval, players)
	for p := range a.Players {
		q := 0.0
		if p < len(r.Value) {
			q = max(-1, min(1, float64(r.Value[p])))
		}
		d := min(draw[p], 1-math.Abs(q))
		a.Players[p] = PlayerEval{Value: q, Win: (1 + q - d) / 2, Draw: d, Loss: (1 - q - d) / 2, ScoreDiff: diff[p]}
	}
	me := a.Players[mover]
	a.Win, a.Draw, a.Loss, a.ScoreDiff = me.Win, me.Draw, me.Loss, me.ScoreDiff
	return a, nil
}

// notation plays line from root while the game lasts and its moves are
// legal, and returns the moves played, as actions and in move notation.
func notation(root engine.State, line []int) ([]int, []string) {
	var acts []int
	var moves []string
	s := root.Clone()
	for _, act := range line {
		if s.Over() {
			break
		}
		move := s.ActionString(act)
		if engine.PlayChecked(s, act) != nil {
			break
		}
		acts = append(acts, act)
		moves = append(moves, move)
	}
	return acts, moves
}

// drawAndScore estimates each player's draw chance and expected final
// score difference: the net's outputs for the most visited replies,
// weighted by visits, or for the root itself when no reply was visited.
// Finished positions count with their true outcome. Without a net only
// finished positions say anything; the rest count as no draw and no
// score difference. Each reply evaluated gets the root mover's view of it
// in its MoveStats (Estimated, Draw, ScoreDiff).
func (b *Tree) drawAndScore(root engine.State, moves []MoveStats) (draw, diff []float64) {
	players := b.game.Players()
	draw, diff = make([]float64, players), make([]float64, players)
	var states []engine.State
	var weights []float64
	for _, m := range moves {
		if m.Visits == 0 || len(states) == maxAnalysed {
			break
		}
		c := root.Clone()
		c.Play(m.Action)
		states = append(states, c)
		weights = append(weights, float64(m.Visits))
	}
	replies := len(states) > 0
	if !replies {
		states, weights = []engine.State{root}, []float64{1}
	}
	mover := root.ToMove()
	var pending []int
	for i, s := range states {
		if !s.Over() && b.net != nil {
			pending = append(pending, i)
		}
	}
	seats := 0
	if n := len(pending); n > 0 {
		c := b.net.Inference.Config()
		fs, na := c.Shape.Size(), c.Actions
		seats = c.Seats
		b.input = grow(b.input, n*fs)
		b.policy = grow(b.policy, n*na)
		b.value = grow(b.value, n*seats*3)
		b.score = grow(b.score, n*seats)
		for j, i := range pending {
			states[i].EncodeFeatures(b.input[j*fs : (j+1)*fs])
		}
		b.net.Inference.Forward(b.input, n, b.policy, b.value, b.score)
		if c.ValueBase == nn.ValueBaseMaterial {
			for j, i := range pending {
				b.leads = tactics.ApplyValueOffsets(states[i], b.value[j*seats*3:(j+1)*seats*3], b.score[j*seats:(j+1)*seats], b.leads)
			}
		}
	}
	var total float64
	j := 0
	for i, s := range states {
		total += weights[i]
		if s.Over() {
			res, sc := s.Result(nil), s.Scores(nil)
			for p := range players {
				d := 0.0
				if res[p] == 0 && players == 2 {
					d = 1
				}
				sd := scoreDiff(sc, p)
				draw[p] += weights[i] * d
				diff[p] += weights[i] * sd
				if replies && p == mover {
					moves[i].Estimated, moves[i].Draw, moves[i].ScoreDiff = true, d, sd
				}
			}
			continue
		}
		if b.net == nil {
			continue
		}
		wdl := b.value[j*seats*3 : (j+1)*seats*3]
		score := b.score[j*seats : (j+1)*seats]
		j++
		for p := range players {
			seat := (p - s.ToMove() + players) % players
			var d, sd float64
			switch {
			case seat < seats:
				d, sd = float64(wdl[3*seat+1]), float64(score[seat])
			default: // one seat for two players: the other side's view
				d, sd = float64(wdl[1]), -float64(score[0])
			}
			draw[p] += weights[i] * d
			diff[p] += weights[i] * sd
			if replies && p == mover {
				moves[i].Estimated, moves[i].Draw, moves[i].ScoreDiff = true, d, sd
			}
		}
	}
	for p := range players {
		draw[p] /= total
		diff[p] /= total
	}
	return draw, diff
}

// scoreDiff is player p's points minus the best other player's.
func scoreDiff(scores []float32, p int) float64 {
	best := math.Inf(-1)
	for i, s := range scores {
		if i != p {
			best = max(best, float64(s))
		}
	}
	return float64(scores[p]) - best
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// Armistice margins: how much better than stopping the bot's
// evaluation may be and still count as "not expecting to gain".
const (
	armisticeValue  = 0.05
	armisticePoints = 0.5
)

// AcceptsArmistice decides an armistice offered to player in position s
// (docs/rules.md, End of the game, 4): the player accepts when it is not behind
// on points and a, the analysis of s, does not expect it to gain by playing
// on, neither in result (its value is no better than the result of
// stopping now) nor in points (the expected final score difference is no
// better than the current one). Only two-player games have armistices.
func AcceptsArmistice(s engine.State, player int, a *Analysis) bool {
	if s.Game().Players() != 2 || s.Over() {
		return false
	}
	now := scoreDiff(s.Scores(nil), player)
	if now < 0 {
		return false
	}
	value, diff := a.Value, a.ScoreDiff
	if a.ToMove != player {
		value, diff = -value, -diff
	}
	stop := 0.0
	if now > 0 {
		stop = 1
	}
	return value <= stop+armisticeValue && diff <= now+armisticePoints
}

// Effort says how much the search did, e.g. "400 sims" or "123456
// nodes, depth 7".
func (a *Analysis) Effort() string {
	if a.Nodes > 0 {
		return fmt.Sprintf("%d nodes, depth %d", a.Nodes, a.Depth)
	}
	return fmt.Sprintf("%d sims", a.Sims)
}

// For returns the win, draw and loss chances and the expected final score
// difference from player's side.
func (a *Analysis) For(player int) (win, draw, loss, scoreDiff float64) {
	if player >= 0 && player < len(a.Players) {
		e := a.Players[player]
		return e.Win, e.Draw, e.Loss, e.ScoreDiff
	}
	if player == a.ToMove {
		return a.Win, a.Draw, a.Loss, a.ScoreDiff
	}
	return a.Loss, a.Draw, a.Win, -a.ScoreDiff
}
