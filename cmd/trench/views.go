package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"trench/bot"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/record"
)

// gameView is what trench play knows about one game: how to draw and
// describe its positions, its squares and its evaluations.
type gameView interface {
	// title is the game's name for people.
	title() string
	// example is a move to show in the greeting.
	example() string
	// help lists the moves' notation and the commands.
	help() string
	// draw writes the board with marks (keyed by square number).
	draw(w io.Writer, st boardStyle, s engine.State, marks map[int]squareMark)
	// status is the line under the board: scores, counters, whose turn.
	status(s engine.State, humans []bool) string
	// lastMove marks the move action played in prev.
	lastMove(prev engine.State, action int) map[int]squareMark
	// pieceMoves marks and describes the legal moves of the piece on the
	// square named text.
	pieceMoves(s engine.State, text string) (map[int]squareMark, []string, error)
	// normalize puts a typed move or square into the game's notation
	// (e.g. Trichess's capital section letters).
	normalize(text string) string
	// engineName is how the engine playing seat p is called.
	engineName(p int) string
	// evalText describes an analysis for people from player p's side.
	evalText(a *bot.Analysis, p int) string
	// result describes a finished game.
	result(g *record.Game) string
}

// newView returns the view of game g.
func newView(g engine.Game) (gameView, error) {
	switch g.Name() {
	case trench.Game.Name():
		return trenchView{}, nil
	case trichess.Game.Name():
		return trichessView{}, nil
	}
	return nil, fmt.Errorf("trench play cannot show %s games (it plays trench and trichess)", g.Name())
}

// trenchView is Trench in the terminal.
type trenchView struct{}

func (trenchView) title() string                { return "Trench" }
func (trenchView) example() string              { return "d4d5" }
func (trenchView) help() string                 { return playHelp }
func (trenchView) normalize(text string) string { return text }
func (trenchView) engineName(int) string        { return "trench" }
func (trenchView) result(g *record.Game) string {
	o, _ := g.Outcome()
	return o.Summary(trench.Game)
}

func (trenchView) draw(w io.Writer, st boardStyle, s engine.State, marks map[int]squareMark) {
	m := map[trench.Square]squareMark{}
	for sq, k := range marks {
		m[trench.Square(sq)] = k
	}
	st.drawBoard(w, &s.(*trench.State).Position, m)
}

// status gives the scores, the quiet-ply count and whose move it is.
func (trenchView) status(s engine.State, _ []bool) string {
	return statusLine(&s.(*trench.State).Position)
}

// statusLine gives the scores, the quiet-ply count and whose move it is.
func statusLine(pos *trench.Position) string {
	turn := fmt.Sprintf("move %d, %s to play", pos.MoveNumber(), pos.SideToMove())
	if pos.Over() {
		turn = "game over"
	}
	return fmt.Sprintf("Black %d  White %d  (25 wins) · quiet plies %d/%d · %s",
		pos.Score(trench.Black), pos.Score(trench.White), pos.QuietPlies(), trench.QuietLimit, turn)
}

func (trenchView) lastMove(prev engine.State, action int) map[int]squareMark {
	m, _ := trench.ActionToMove(action, prev.(*trench.State).SideToMove())
	return map[int]squareMark{int(m.From()): markFrom, int(m.To()): markLast}
}

func (trenchView) pieceMoves(s engine.State, text string) (map[int]squareMark, []string, error) {
	sq, err := trench.ParseSquare(text)
	if err != nil {
		return nil, nil, err
	}
	pos := &s.(*trench.State).Position
	c, _, ok := pos.PieceAt(sq)
	if !ok {
		return nil, nil, fmt.Errorf("no piece on %s", sq)
	}
	if c != pos.SideToMove() {
		return nil, nil, fmt.Errorf("the piece on %s is %s's; %s is to move", sq, c, pos.SideToMove())
	}
	marks := map[int]squareMark{int(sq): markFrom}
	var list []string
	for _, m := range pos.GenerateMoves(nil) {
		if m.From() != sq {
			continue
		}
		took := pos.Captured(m)
		desc := m.String()
		if took != 0 {
			var names []string
			for b := took; b != 0; b &= b - 1 {
				s := trench.Square(trailingZeros(b))
				marks[int(s)] = markCapture
				_, k, _ := pos.PieceAt(s)
				names = append(names, fmt.Sprintf("%s %s", k, s))
			}
			sort.Strings(names)
			desc += " takes " + strings.Join(names, ", ")
		} else {
			marks[int(m.To())] = markTarget
		}
		list = append(list, desc)
	}
	return marks, list, nil
}

func trailingZeros(b uint64) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

// evalText describes an analysis from player's side: "W 48% D 9% L 43%,
// expected +1.2 points".
func (trenchView) evalText(a *bot.Analysis, player int) string { return evalText(a, player) }

const playHelp = `Moves: from-square then to-square, e.g. d4d5 (see docs/rules.md).
Commands:
  moves SQUARE   legal moves of the piece on SQUARE: <x> the piece, * a square
                 it can reach, [x] a piece it would take
  hint           the engine's suggestion for you
  go             let the engine play your move
  undo           take back your last move
  armistice      offer to stop and score by points
  resign         give up
  save FILE / load FILE
  new            new game          level N   engine strength 1..8
  view           diamond/square    board     draw the board again
  quit
`

// trichessView is Trichess in the terminal.
type trichessView struct{}

func (trichessView) title() string   { return "Trichess" }
func (trichessView) example() string { return "We2We4" }
func (trichessView) help() string    { return trichessHelp }

// normalize capitalises the section letters of squares typed in lower
// case ("we2we4" → "We2We4") and a liberation's piece ("=q" → "=Q").
func (trichessView) normalize(text string) string {
	b := []byte(text)
	for _, i := range []int{0, 3} {
		if i < len(b) && (b[i] == 'w' || b[i] == 'r' || b[i] == 'b') {
			b[i] -= 'a' - 'A'
		}
	}
	if len(b) == 8 && b[6] == '=' && b[7] >= 'a' && b[7] <= 'z' {
		b[7] -= 'a' - 'A'
	}
	return string(b)
}

func (trichessView) engineName(p int) string { return trichess.Color(p).String() + " (engine)" }

func (trichessView) result(g *record.Game) string {
	if ts, ok := g.Current().(*trichess.State); ok && g.Ending() == record.ByRules {
		return ts.Outcome().String()
	}
	o, _ := g.Outcome()
	return o.Summary(trichess.Game)
}

func (trichessView) draw(w io.Writer, st boardStyle, s engine.State, marks map[int]squareMark) {
	st.drawTrichess(w, &s.(*trichess.State).Position, marks)
}

// status gives the material, checks, the quiet-ply count and whose move
// it is (and whether a person or the engine plays it).
func (trichessView) status(s engine.State, humans []bool) string {
	ts := s.(*trichess.State)
	var parts []string
	for c := trichess.White; c <= trichess.Black; c++ {
		who := "engine"
		if humans[c] {
			who = "you"
		}
		st := fmt.Sprintf("%s (%s) %d", c, who, ts.Material(c))
		if ts.InCheck(c) && !ts.Over() {
			st += " in check"
		}
		parts = append(parts, st)
	}
	turn := fmt.Sprintf("move %d, %s to play", ts.MoveNumber(), ts.SideToMove())
	if ts.Over() {
		turn = "game over"
	}
	return fmt.Sprintf("material %s · quiet plies %d/%d · %s", strings.Join(parts, ", "), ts.QuietPlies(), trichess.QuietLimit, turn)
}

func (trichessView) lastMove(prev engine.State, action int) map[int]squareMark {
	m, ok := prev.(*trichess.State).ActionToMove(action)
	if !ok {
		return nil
	}
	return map[int]squareMark{int(m.From()): markFrom, int(m.To()): markLast}
}

func (v trichessView) pieceMoves(s engine.State, text string) (map[int]squareMark, []string, error) {
	sq, err := trichess.ParseSquare(v.normalize(text))
	if err != nil {
		return nil, nil, err
	}
	ts := s.(*trichess.State)
	c, _, ok := ts.PieceAt(sq)
	if !ok {
		return nil, nil, fmt.Errorf("no piece on %s", sq)
	}
	if c != ts.SideToMove() {
		return nil, nil, fmt.Errorf("the piece on %s is %s's; %s is to move", sq, c, ts.SideToMove())
	}
	marks := map[int]squareMark{int(sq): markFrom}
	var list []string
	for _, m := range ts.Moves() {
		if m.From() != sq {
			continue
		}
		desc := m.String()
		if oc, k, took := ts.PieceAt(m.To()); took {
			marks[int(m.To())] = markCapture
			desc += fmt.Sprintf(" takes %s's %s", oc, k)
		} else {
			marks[int(m.To())] = markTarget
		}
		list = append(list, desc)
	}
	return marks, list, nil
}

// evalText gives every player's expected points and value, the player p
// first: "Red 1.6 pts (+0.07), Black 1.5 (-0.01), White 1.4 (-0.06)".
func (trichessView) evalText(a *bot.Analysis, p int) string {
	var parts []string
	for i := range a.Players {
		c := (p + i) % len(a.Players)
		e := a.Players[c]
		unit := ""
		if i == 0 {
			unit = " pts"
		}
		parts = append(parts, fmt.Sprintf("%s %.1f%s (%+.2f)", trichess.Color(c), trichess.ExpectedPoints(e.Value), unit, e.Value))
	}
	return "expected " + strings.Join(parts, ", ")
}

const trichessHelp = `Moves: from-square then to-square, e.g. We2We4, with =Q (or N, B, R, P) for a
liberation, e.g. Wd2Wd1=Q (see docs/trichess.md). A square is its section
W, R or B, a file a-h and a rank 1-4 (rank 1 the section's back rank).
Commands:
  moves SQUARE   legal moves of the piece on SQUARE: <x> the piece, * a square
                 it can reach, [x] a piece it would take
  hint           the engine's suggestion for the player to move
  go             let the engine play this move
  undo           take back the last move a person played (and the engine's
                 replies)
  save FILE / load FILE
  new            new game          level N   engine strength 1..8
  board          draw the board again
  quit
Trichess has no resignation or armistice: a game ends by mate, pat, échec et
fat, 150 plies without capture or pawn move, or threefold repetition.
`
