package tictactoe

import (
	"fmt"
	"math/bits"

	"trench/engine"
	"trench/internal/excerpt"
)

// State is a tic-tac-toe position. marks[p] has bit i set when player p
// has marked square i.
type State struct {
	marks  [2]uint16
	toMove int
	winner int // the winning player + 1, or 0
}

var _ engine.State = (*State)(nil)

// lines are the eight winning lines as square masks.
var lines = [8]uint16{
	0b000000111, 0b000111000, 0b111000000,
	0b001001001, 0b010010010, 0b100100100,
	0b100010001, 0b001010100,
}

const full = 0b111111111

// Game returns Game{}.
func (s *State) Game() engine.Game { return Game{} }

// ToMove is 0 when X is to move, 1 for O.
func (s *State) ToMove() int { return s.toMove }

// Over reports whether a player has a line or the board is full.
func (s *State) Over() bool { return s.winner != 0 || s.marks[0]|s.marks[1] == full }

// LegalActions appends the empty squares in increasing order, or nothing
// once the game is over.
func (s *State) LegalActions(dst []int) []int {
	dst = dst[:0]
	if s.Over() {
		return dst
	}
	for empty := full &^ (s.marks[0] | s.marks[1]); empty != 0; empty &= empty - 1 {
		dst = append(dst, bits.TrailingZeros16(empty))
	}
	return dst
}

// Play marks square action for the mover.
func (s *State) Play(action int) {
	p := s.toMove
	s.marks[p] |= 1 << action
	if wins(s.marks[p]) {
		s.winner = p + 1
	}
	s.toMove = 1 - p
}

// wins reports whether marks contain a full line.
func wins(marks uint16) bool {
	for _, l := range lines {
		if marks&l == l {
			return true
		}
	}
	return false
}

// Clone returns a copy.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// Result is +1 for the winner and -1 for the loser, or 0 for both in a
// draw.
func (s *State) Result(dst []float32) []float32 {
	dst = append(dst[:0], 0, 0)
	if s.winner != 0 {
		w := s.winner - 1
		dst[w], dst[1-w] = 1, -1
	}
	return dst
}

// Scores are always zero: tic-tac-toe has no points.
func (s *State) Scores(dst []float32) []float32 { return append(dst[:0], 0, 0) }

// EncodeFeatures writes the mover's marks, the opponent's marks and a plane
// of ones.
func (s *State) EncodeFeatures(dst []float32) {
	me, them := s.marks[s.toMove], s.marks[1-s.toMove]
	for i := 0; i < 9; i++ {
		dst[i] = float32(me >> i & 1)
		dst[9+i] = float32(them >> i & 1)
		dst[18+i] = 1
	}
}

// Transform returns the position mapped by symmetry sym (0..7).
func (s *State) Transform(sym int) engine.State {
	t := *s
	t.marks = [2]uint16{}
	for p := range 2 {
		for i := range 9 {
			if s.marks[p]>>i&1 != 0 {
				t.marks[p] |= 1 << symmetries[sym][i]
			}
		}
	}
	return &t
}

// TransformAction maps a square by symmetry sym.
func (s *State) TransformAction(sym, action int) int { return int(symmetries[sym][action]) }

// Hash is the Zobrist hash of the marks and the side to move.
func (s *State) Hash() uint64 {
	var h uint64
	for p := range 2 {
		for m := s.marks[p]; m != 0; m &= m - 1 {
			h ^= zobrist[p][bits.TrailingZeros16(m)]
		}
	}
	if s.toMove == 1 {
		h ^= zobristO
	}
	return h
}

// Ply is the number of marks on the board.
func (s *State) Ply() int { return bits.OnesCount16(s.marks[0] | s.marks[1]) }

// ActionString names a square by file (a..c, left to right) and rank (1..3,
// bottom to top), e.g. "b2" for the centre.
func (s *State) ActionString(action int) string {
	if action < 0 || action >= 9 {
		return fmt.Sprintf("?%d", action)
	}
	return string([]byte{byte('a' + action%3), byte('3' - action/3)})
}

// ParseAction reads a square as "b2" or as its index "4", and checks that
// it is empty and the game not over.
func (s *State) ParseAction(text string) (int, error) {
	a := -1
	switch {
	case len(text) == 1 && text[0] >= '0' && text[0] <= '8':
		a = int(text[0] - '0')
	case len(text) == 2 && text[0] >= 'a' && text[0] <= 'c' && text[1] >= '1' && text[1] <= '3':
		a = int('3'-text[1])*3 + int(text[0]-'a')
	default:
		return 0, fmt.Errorf("action %s: want a square like b2 or an index 0..8", excerpt.Quote(text))
	}
	if s.Over() {
		return 0, fmt.Errorf("action %s: %w: the game is over", excerpt.Quote(text), engine.ErrIllegalAction)
	}
	if (s.marks[0]|s.marks[1])>>a&1 != 0 {
		return 0, fmt.Errorf("action %s: %w: the square is taken", excerpt.Quote(text), engine.ErrIllegalAction)
	}
	return a, nil
}

// EndReason is "three in a row" or "full board" once the game is over, ""
// before (engine.Describer).
func (s *State) EndReason() string {
	switch {
	case s.winner != 0:
		return "three in a row"
	case s.Over():
		return "full board"
	}
	return ""
}

// Title is "win", "draw" or "loss" for player once the game is over, ""
// before (engine.Describer).
func (s *State) Title(player int) string {
	if !s.Over() || player < 0 || player > 1 {
		return ""
	}
	return engine.ResultTitle(s.Result(nil)[player])
}
