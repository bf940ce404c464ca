package trench

import (
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strings"

	"trench/engine"
	"trench/engine/trench"
	"trench/games/plugin"
)

// view is Trench in the terminal.
type view struct{}

func (view) Example() string              { return "d4d5" }
func (view) Help() string                 { return help }
func (view) SquareView() bool             { return true }
func (view) Normalize(text string) string { return text }

func (view) Draw(w io.Writer, st plugin.Style, s engine.State, marks map[int]plugin.Mark) {
	m := map[trench.Square]plugin.Mark{}
	for sq, k := range marks {
		m[trench.Square(sq)] = k
	}
	drawBoard(w, st, &s.(*trench.State).Position, m)
}

// Status gives the scores, the quiet-ply count and whose move it is.
func (view) Status(s engine.State, _ []bool) string {
	pos := &s.(*trench.State).Position
	turn := fmt.Sprintf("move %d, %s to play", pos.MoveNumber(), pos.SideToMove())
	if pos.Over() {
		turn = "game over"
	}
	return fmt.Sprintf("Black %d  White %d  (25 wins) · quiet plies %d/%d · %s",
		pos.Score(trench.Black), pos.Score(trench.White), pos.QuietPlies(), trench.QuietLimit, turn)
}

func (view) LastMove(prev engine.State, action int) map[int]plugin.Mark {
	m, _ := trench.ActionToMove(action, prev.(*trench.State).SideToMove())
	return map[int]plugin.Mark{int(m.From()): plugin.MarkFrom, int(m.To()): plugin.MarkLast}
}

func (view) PieceMoves(s engine.State, text string) (map[int]plugin.Mark, []string, error) {
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
	marks := map[int]plugin.Mark{int(sq): plugin.MarkFrom}
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
				s := trench.Square(bits.TrailingZeros64(b))
				marks[int(s)] = plugin.MarkCapture
				_, k, _ := pos.PieceAt(s)
				names = append(names, fmt.Sprintf("%s %s", k, s))
			}
			sort.Strings(names)
			desc += " takes " + strings.Join(names, ", ")
		} else {
			marks[int(m.To())] = plugin.MarkTarget
		}
		list = append(list, desc)
	}
	return marks, list, nil
}

const help = `Moves: from-square then to-square, e.g. d4d5 (see docs/rules.md).
Commands:
  moves SQUARE   legal moves of the piece on SQUARE: <x> the piece, * a square
                 it can reach, [x] a piece it would take
  hint           the bot's suggestion for you
  go             let the bot play your move
  undo           take back your last move
  armistice      offer to stop and score by points
  resign         give up
  save FILE / load FILE
  new            new game          level N   bot strength 1..8
  view           diamond/square    board     draw the board again
  quit
`
