package trichess

import (
	"fmt"

	"trench/engine"
	"trench/internal/excerpt"
)

// Game is Trichess as an engine.Game. Players are numbered as colours: 0
// White, 1 Red, 2 Black.
//
// It has one symmetry, the identity. The board's geometry is unchanged by
// rotating the three sections (which relabels the players; the features
// and actions, seen from the mover, already use it) and by mirroring the
// files (which swaps the left and right neighbours), but neither maps a
// state to an equivalent one with the same players: the rotation moves
// each army to another player, and the mirror reverses the order of play
// (on which the shield rule and the échec et pat titles depend) and puts
// the kings left of their queens.
var Game engine.Game = game{}

type game struct{}

func (game) Name() string               { return "trichess" }
func (game) Players() int               { return numColors }
func (game) ActionCount() int           { return ActionCount }
func (game) FeatureShape() engine.Shape { return FeatureShape }
func (game) Symmetries() int            { return 1 }
func (game) Start() engine.State        { return NewState(StartPosition()) }

// ScoreScale is 3, a seigneur's title points: the largest difference
// between two players' points (engine.ScoreScaler).
func (game) ScoreScale() float32 { return 3 }

// ActionPlanes is the number of move shapes of the action encoding on the
// feature board (engine.ActionCells).
func (game) ActionPlanes() int { return actionPlanes }

// ActionCell is where action a's logit sits in a convolutional policy
// head's output: its from-square's feature cell·ActionPlanes() + its move
// shape (engine.ActionCells). It is -1 for an action out of range.
func (game) ActionCell(a int) int {
	if a < 0 || a >= ActionCount {
		return -1
	}
	return int(actionCell[a])
}

func (game) ParseState(text string) (engine.State, error) {
	p, err := ParseFEN(text)
	if err != nil {
		return nil, err
	}
	return NewState(p), nil
}

// State is a Trichess position as an engine.State, with the positions
// since the last capture or pawn move for the repetition rule. A state
// read from a position string starts a new history.
type State struct {
	Position
	// earlier holds the hashes of the positions before this one, back
	// to the last capture or pawn move; nil when there are none.
	earlier *histNode
	// decided says outcome is known, listed that moves are; moves is
	// shared by clones and never written after it is set. Judging the end
	// needs only whether a legal move exists, so Over stays cheap where
	// the moves are never listed (the leaves of a capture search).
	decided, listed bool
	moves           []Move
	outcome         Outcome
}

// histNode is one earlier position's hash in an immutable list back to
// the last capture or pawn move; clones share it.
type histNode struct {
	hash uint64
	prev *histNode
}

// NewState wraps a position, with no history before it.
func NewState(p Position) *State {
	return &State{Position: p}
}

// Game returns Game.
func (s *State) Game() engine.Game { return Game }

// ToMove is the player to move: 0 White, 1 Red, 2 Black.
func (s *State) ToMove() int { return int(s.side) }

// decide judges the outcome once, from the listed moves if there are any
// and otherwise from whether a legal move exists.
func (s *State) decide() {
	if s.decided {
		return
	}
	s.decided = true
	if s.IsFat() {
		s.outcome = s.Position.outcome(false)
		return
	}
	hasMoves := len(s.moves) > 0
	if !s.listed {
		hasMoves = s.hasLegalMove()
	}
	s.outcome = s.Position.outcome(hasMoves)
	if s.outcome.Ending == NotOver && s.Repetitions() >= 2 {
		s.outcome = Outcome{Ending: Repetition, Titles: [numColors]Title{Vassal, Vassal, Vassal}}
	}
}

// Repetitions is how many times the current position (pieces, side to
// move, castling rights) occurred before in this game's history.
func (s *State) Repetitions() int {
	n := 0
	for h := s.earlier; h != nil; h = h.prev {
		if h.hash == s.hash {
			n++
		}
	}
	return n
}

// Moves returns the legal moves (none once the game is over). The slice
// must not be modified.
func (s *State) Moves() []Move {
	if !s.listed {
		s.listed = true
		if !s.IsFat() {
			s.moves = s.legalMoves(make([]Move, 0, 64))
		}
	}
	if s.Over() {
		return nil
	}
	return s.moves
}

// Outcome is how the game ended, with each player's title; its Ending is
// NotOver while the game goes on.
func (s *State) Outcome() Outcome {
	s.decide()
	return s.outcome
}

// LegalActions appends the action indices of the legal moves to dst[:0].
func (s *State) LegalActions(dst []int) []int {
	dst = dst[:0]
	for _, m := range s.Moves() {
		dst = append(dst, MoveToAction(m, s.side))
	}
	return dst
}

// CaptureActions appends the action indices of the legal moves that take
// a piece to dst[:0] (engine.Captures).
func (s *State) CaptureActions(dst []int) []int {
	dst = dst[:0]
	if s.Over() {
		return dst
	}
	if s.listed {
		for _, m := range s.moves {
			if s.board[m.To()] != 0 {
				dst = append(dst, MoveToAction(m, s.side))
			}
		}
		return dst
	}
	var buf [MaxMoves]Move
	for _, m := range s.legalCaptures(buf[:0]) {
		dst = append(dst, MoveToAction(m, s.side))
	}
	return dst
}

// CaptureValue is the value of the piece a legal action takes, 0 for a
// move to an empty square (engine.CaptureValues).
func (s *State) CaptureValue(action int) float32 {
	m, ok := s.ActionToMove(action)
	if !ok {
		return 0
	}
	if pc := s.board[m.To()]; pc != 0 && pc.color() != s.side {
		return float32(pc.kind().Value())
	}
	return 0
}

// CopyFrom makes s a copy of src, a *State, sharing its immutable history
// and move list as Clone does (engine.Copier).
func (s *State) CopyFrom(src engine.State) { *s = *src.(*State) }

// Play plays a legal action. A capture or a pawn move, after which no
// earlier position can repeat, records no history.
func (s *State) Play(action int) {
	m, _ := s.ActionToMove(action)
	s.PlayMove(m)
}

// PlayMove plays m, a legal move, keeping the history repetition is
// judged by.
func (s *State) PlayMove(m Move) {
	hash := s.hash
	s.Position.Play(m)
	if s.quiet == 0 {
		s.earlier = nil
	} else {
		s.earlier = &histNode{hash: hash, prev: s.earlier}
	}
	s.decided, s.listed, s.moves = false, false, nil
}

// Clone returns a copy sharing the immutable history.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Outcome().Ending != NotOver }

// Result writes each player's utility: its title's points p (0 to 3)
// mapped to (2p-3)/3, so seigneur 1, chevalier 1/3, vassal -1/3, serf -1.
// All zero while the game goes on.
func (s *State) Result(dst []float32) []float32 {
	dst = append(dst[:0], 0, 0, 0)
	if o := s.Outcome(); o.Ending != NotOver {
		for c, t := range o.Titles {
			dst[c] = float32(2*t.Points()-3) / 3
		}
	}
	return dst
}

// Scores writes each player's points: its title's worth (seigneur 3,
// chevalier 2, vassal 1, serf 0) once the game is over, zero before.
func (s *State) Scores(dst []float32) []float32 {
	dst = append(dst[:0], 0, 0, 0)
	if o := s.Outcome(); o.Ending != NotOver {
		for c, t := range o.Titles {
			dst[c] = float32(t.Points())
		}
	}
	return dst
}

// EncodeFeatures writes the feature planes, the repetition plane included.
func (s *State) EncodeFeatures(dst []float32) {
	s.Position.EncodeFeatures(dst)
	if r := s.Repetitions(); r > 0 {
		v := float32(min(r, 2)) / 2
		for i := 35 * planeSize; i < 36*planeSize; i++ {
			dst[i] = v
		}
	}
}

// ActionString is the action's move notation in this state, e.g. "We2We4".
func (s *State) ActionString(action int) string {
	m, ok := s.ActionToMove(action)
	if !ok {
		return fmt.Sprintf("action%d", action)
	}
	return m.String()
}

// ParseAction reads a move in notation and returns its action if legal.
func (s *State) ParseAction(text string) (int, error) {
	if s.Over() {
		return -1, fmt.Errorf("move %s: %w: the game is over (%s)", excerpt.Quote(text), engine.ErrIllegalAction, s.outcome)
	}
	m, err := parseMoveText(text)
	if err != nil {
		return -1, err
	}
	if !s.IsLegal(m) {
		return -1, fmt.Errorf("move %s: %w: %s", excerpt.Quote(text), engine.ErrIllegalAction, s.whyIllegal(m))
	}
	return MoveToAction(m, s.side), nil
}

// Transform returns a copy: the identity is the only symmetry.
func (s *State) Transform(int) engine.State { return s.Clone() }

// TransformAction returns the action unchanged.
func (s *State) TransformAction(_, action int) int { return action }

// String is the position string.
func (s *State) String() string { return s.FEN() }

// EndReason names the ending, e.g. "checkmate" or "échec et fat"; "" while
// the game goes on (engine.Describer).
func (s *State) EndReason() string {
	if o := s.Outcome(); o.Ending != NotOver {
		return o.Ending.String()
	}
	return ""
}

// Title is player's title, e.g. "seigneur", once the game is over; ""
// before (engine.Describer).
func (s *State) Title(player int) string {
	o := s.Outcome()
	if o.Ending == NotOver || player < 0 || player >= numColors {
		return ""
	}
	return o.Titles[player].String()
}

// Materials writes the value of each player's pieces on the board
// (engine.Material).
func (s *State) Materials(dst []float32) []float32 {
	dst = dst[:0]
	for c := range numColors {
		dst = append(dst, float32(s.material[c]))
	}
	return dst
}
