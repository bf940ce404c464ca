// Package record is a game as people play it: a start position, the moves
// played, taking moves back, and the endings that only interactive play
// has (resignation, an agreed armistice) besides the rules' own. It reads
// and writes games as small text files:
//
//	[Game "trench"]
//	[Start "4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1"]
//	[Black "you"]
//	[White "trench level 4"]
//	[Ending "resign 1"]
//	[Result "black wins 3-0 (white resigned)"]
//
//	1. d4e5 e6e5 2. c4c5 ...
//
// Trichess games are written the same way, with its position string and
// moves such as We2We4, numbered by rounds of three.
//
// Tags are one a line, values quoted as Go strings. Game and Start are
// required; Ending, when present, is "resign N" (player N resigned; two-
// player games only) or
// "armistice"; Result is for people and is recomputed on reading; other
// tags are kept as they are. The moves follow in their notation, with
// optional move numbers ("1.").
package record

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"trench/engine"
	"trench/games"
)

// ErrOver is returned when a move is played in a finished game.
var ErrOver = errors.New("the game is over")

// Game is one game as played, in progress or finished: its rules, start,
// moves and ending.
type Game struct {
	game    engine.Game
	states  []engine.State // states[0] is the start, states[i] follows moves[:i]
	moves   []int
	notes   []string // each move's notation
	ending  Ending
	resignr int // the player who resigned
	// Tags are the file's descriptive tags (player names and others),
	// in order; Game, Start, Ending and Result are not among them.
	Tags []Tag
}

// Tag is one descriptive tag of a game file.
type Tag struct{ Key, Value string }

// Ending is how a game ended, or NotOver.
type Ending int

// The ways a game ends.
const (
	NotOver Ending = iota
	// ByRules: the rules ended it (a winning score, the quiet-ply limit,
	// no legal move).
	ByRules
	// Resignation: a player resigned and lost.
	Resignation
	// Armistice: the players agreed to stop, scored as at the quiet-ply
	// limit.
	Armistice
)

// New starts a game from start.
func New(start engine.State) *Game {
	g := &Game{game: start.Game(), states: []engine.State{start.Clone()}}
	if start.Over() {
		g.ending = ByRules
	}
	return g
}

// EngineGame returns the game being played.
func (g *Game) EngineGame() engine.Game { return g.game }

// Start returns a copy of the start position.
func (g *Game) Start() engine.State { return g.states[0].Clone() }

// Current returns a copy of the current position.
func (g *Game) Current() engine.State { return g.states[len(g.states)-1].Clone() }

// Position returns a copy of the position after the first n moves.
func (g *Game) Position(n int) engine.State { return g.states[n].Clone() }

// Len is the number of moves played.
func (g *Game) Len() int { return len(g.moves) }

// Moves returns the moves played as actions.
func (g *Game) Moves() []int { return slices.Clone(g.moves) }

// Notation returns the moves played in notation.
func (g *Game) Notation() []string { return slices.Clone(g.notes) }

// Ending is how the game ended, NotOver while it goes on.
func (g *Game) Ending() Ending { return g.ending }

// Over reports whether the game has ended, by the rules or by the players.
func (g *Game) Over() bool { return g.ending != NotOver }

// Play plays a move given in notation. The error says why an illegal or
// malformed move is refused; the game is then unchanged.
func (g *Game) Play(text string) (int, error) {
	if g.Over() {
		return 0, ErrOver
	}
	a, err := g.states[len(g.states)-1].ParseAction(text)
	if err != nil {
		return 0, err
	}
	return a, g.PlayAction(a)
}

// PlayAction plays an action; an illegal one is refused with an error
// wrapping engine.ErrIllegalAction.
func (g *Game) PlayAction(a int) error {
	if g.Over() {
		return ErrOver
	}
	cur := g.states[len(g.states)-1]
	next := cur.Clone()
	if err := engine.PlayChecked(next, a); err != nil {
		return err
	}
	g.notes = append(g.notes, cur.ActionString(a))
	g.moves = append(g.moves, a)
	g.states = append(g.states, next)
	if next.Over() {
		g.ending = ByRules
	}
	return nil
}

// Undo takes back up to n moves, and any resignation or armistice, and
// returns how many moves it took back.
func (g *Game) Undo(n int) int {
	n = max(0, min(n, len(g.moves)))
	g.moves = g.moves[:len(g.moves)-n]
	g.notes = g.notes[:len(g.notes)-n]
	g.states = g.states[:len(g.states)-n]
	g.ending = NotOver
	if g.states[len(g.states)-1].Over() {
		g.ending = ByRules
	}
	return n
}

// ErrNoResignation is returned by Resign for games whose rules have no
// resignation: those of more than two players (Trichess ends only by its
// rules: mates, pats, échec et fat, the quiet-ply limit, repetition).
var ErrNoResignation = errors.New("the rules have no resignation")

// Resign ends the game with player's resignation, which two-player games
// allow.
func (g *Game) Resign(player int) error {
	if g.Over() {
		return ErrOver
	}
	if g.game.Players() != 2 {
		return fmt.Errorf("%s: %w for %d players", g.game.Name(), ErrNoResignation, g.game.Players())
	}
	if player < 0 || player >= g.game.Players() {
		return fmt.Errorf("no player %d in %s", player, g.game.Name())
	}
	g.ending, g.resignr = Resignation, player
	return nil
}

// AgreeArmistice ends the game by agreement, scored by points.
func (g *Game) AgreeArmistice() error {
	if g.Over() {
		return ErrOver
	}
	if g.game.Players() != 2 {
		return fmt.Errorf("%s has no armistice", g.game.Name())
	}
	g.ending = Armistice
	return nil
}

// Outcome is how a finished game came out.
type Outcome struct {
	// Result is each player's utility: +1 win, -1 loss, 0 draw.
	Result []float32
	// Scores are each player's points.
	Scores []float32
	// Winner is the winning player, or -1 for a draw.
	Winner int
	// Reason says why the game ended, e.g. "white resigned".
	Reason string
}

// Outcome returns the result of a finished game; ok is false while the
// game goes on.
func (g *Game) Outcome() (o Outcome, ok bool) {
	cur := g.states[len(g.states)-1]
	o.Scores = cur.Scores(nil)
	o.Winner = -1
	switch g.ending {
	case NotOver:
		return o, false
	case ByRules:
		o.Result = cur.Result(nil)
		o.Reason = "by the rules"
		if g.game.Players() > 2 {
			// Titles, not a winner: say how it ended ("checkmate").
			o.Reason = engine.EndReason(cur)
		}
	case Resignation:
		o.Result = make([]float32, g.game.Players())
		for p := range o.Result {
			o.Result[p] = 1
		}
		o.Result[g.resignr] = -1
		o.Reason = PlayerName(g.game, g.resignr) + " resigned"
	case Armistice:
		o.Result = byPoints(o.Scores)
		o.Reason = "armistice"
	}
	best := float32(-2)
	for p, r := range o.Result {
		if r > best {
			best, o.Winner = r, p
		} else if r == best {
			o.Winner = -1
		}
	}
	if best <= 0 {
		o.Winner = -1
	}
	return o, true
}

// byPoints scores two players as at the quiet-ply limit: the higher score
// wins, equal scores draw.
func byPoints(s []float32) []float32 {
	r := make([]float32, len(s))
	switch {
	case s[0] > s[1]:
		r[0], r[1] = 1, -1
	case s[1] > s[0]:
		r[0], r[1] = -1, 1
	}
	return r
}

// Summary describes a finished game's outcome, e.g.
// "black wins 25-12 (by the rules)" or "draw 4-4 (armistice)"; for more
// than two players each player's points, e.g. "white 3, red 1, black 0
// (checkmate)".
func (o Outcome) Summary(g engine.Game) string {
	if len(o.Scores) > 2 {
		parts := make([]string, len(o.Scores))
		for p, s := range o.Scores {
			parts[p] = fmt.Sprintf("%s %v", PlayerName(g, p), s)
		}
		return fmt.Sprintf("%s (%s)", strings.Join(parts, ", "), o.Reason)
	}
	pts := ""
	for i, s := range o.Scores {
		if i > 0 {
			pts += "-"
		}
		pts += fmt.Sprint(s)
	}
	if o.Winner < 0 {
		return fmt.Sprintf("draw %s (%s)", pts, o.Reason)
	}
	return fmt.Sprintf("%s wins %s (%s)", PlayerName(g, o.Winner), pts, o.Reason)
}

// PlayerName is a player's name, as its game's plug-in names its seats:
// "black" and "white" for two players, "white", "red" and "black" for
// Trichess, "player N" otherwise.
func PlayerName(g engine.Game, p int) string { return games.SeatName(g, p) }
