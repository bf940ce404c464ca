package trichess

import (
	"fmt"
	"io"
	"strings"

	"trench/engine"
	"trench/engine/trichess"
	"trench/games/plugin"
)

// view is Trichess in the terminal.
type view struct{}

func (view) Example() string  { return "We2We4" }
func (view) Help() string     { return help }
func (view) SquareView() bool { return false }

// Normalize capitalises the section letters of squares typed in lower
// case ("we2we4" → "We2We4") and a liberation's piece ("=q" → "=Q").
func (view) Normalize(text string) string {
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

func (view) Draw(w io.Writer, st plugin.Style, s engine.State, marks map[int]plugin.Mark) {
	drawBoard(w, st, &s.(*trichess.State).Position, marks)
}

// Status gives the material, checks, the quiet-ply count and whose move
// it is (and whether a person or the bot plays it).
func (view) Status(s engine.State, humans []bool) string {
	ts := s.(*trichess.State)
	var parts []string
	for c := trichess.White; c <= trichess.Black; c++ {
		who := "bot"
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

func (view) LastMove(prev engine.State, action int) map[int]plugin.Mark {
	m, ok := prev.(*trichess.State).ActionToMove(action)
	if !ok {
		return nil
	}
	return map[int]plugin.Mark{int(m.From()): plugin.MarkFrom, int(m.To()): plugin.MarkLast}
}

func (v view) PieceMoves(s engine.State, text string) (map[int]plugin.Mark, []string, error) {
	sq, err := trichess.ParseSquare(v.Normalize(text))
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
	marks := map[int]plugin.Mark{int(sq): plugin.MarkFrom}
	var list []string
	for _, m := range ts.Moves() {
		if m.From() != sq {
			continue
		}
		desc := m.String()
		if oc, k, took := ts.PieceAt(m.To()); took {
			marks[int(m.To())] = plugin.MarkCapture
			desc += fmt.Sprintf(" takes %s's %s", oc, k)
		} else {
			marks[int(m.To())] = plugin.MarkTarget
		}
		list = append(list, desc)
	}
	return marks, list, nil
}

const help = `Moves: from-square then to-square, e.g. We2We4, with =Q (or N, B, R, P) for a
liberation, e.g. Wd2Wd1=Q (see docs/trichess.md). A square is its section
W, R or B, a file a-h and a rank 1-4 (rank 1 the section's back rank).
Commands:
  moves SQUARE   legal moves of the piece on SQUARE: <x> the piece, * a square
                 it can reach, [x] a piece it would take
  hint           the bot's suggestion for the player to move
  go             let the bot play this move
  undo           take back the last move a person played (and the bot's
                 replies)
  save FILE / load FILE
  new            new game          level N   bot strength 1..8
  board          draw the board again
  quit
Trichess has no resignation or armistice: a game ends by mate, pat, échec et
fat, 150 plies without capture or pawn move, or threefold repetition.
`
