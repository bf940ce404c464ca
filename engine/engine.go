// Package engine defines the contract between a game's rules and everything
// that plays, searches or learns it: the state, the players, legal actions
// as indices into a fixed action space, the end of the game with a result
// for every player, the board symmetries and the text forms.
//
// Nothing here assumes two players. A game package (engine/trench, and
// later others) implements Game and State; search, training and play use
// only this contract.
package engine

import (
	"errors"
	"fmt"
)

// Shape is the size of a game's feature tensor for one state: Planes
// planes of Height×Width values.
type Shape struct {
	Planes, Height, Width int
}

// Size is the number of float32 values in one encoded state.
func (s Shape) Size() int { return s.Planes * s.Height * s.Width }

// SpatialActions is implemented by games whose action space is laid out
// over the feature board: action a starts on square a / ActionPlanes() of
// EncodeFeatures' Height×Width board (row-major, in the same frame), and
// a % ActionPlanes() says which move shape it is, so ActionCount() equals
// ActionPlanes()·Height·Width. A net can then compute its policy with a
// convolution whose output planes are the move shapes (AlphaZero's chess
// policy head) instead of a dense layer over the whole board.
type SpatialActions interface {
	ActionPlanes() int
}

// ActionCells is implemented by games whose actions map onto move shapes
// over the feature board without filling every shape at every square
// (moves from a square to any of a few dozen others): action a is move
// shape ActionCell(a) % ActionPlanes() from square ActionCell(a) /
// ActionPlanes() of EncodeFeatures' board, and no two actions share a
// cell. ActionCount() may then be less than ActionPlanes()·Height·Width.
type ActionCells interface {
	SpatialActions
	ActionCell(action int) int
}

// ScoreScaler is implemented by games that say how large a final score
// difference typically gets (Trench: an army's 36 points; Trichess: a
// title's 3). Nets divide their score targets by it and search maps a
// predicted score difference d to tanh(4·d/scale), so the score head and
// the score utility work on the same footing in every game.
type ScoreScaler interface {
	ScoreScale() float32
}

// Same reports whether a and b are the same game's rules, as a check that
// a position or a player belongs to the game at hand. Games are told apart
// by their names, which are unique.
func Same(a, b Game) bool { return a.Name() == b.Name() }

// Game is the rules of a game (a ruleset, not one game played): it
// describes the game and makes its states.
type Game interface {
	// Name is the game's short name, as typed on the command line.
	Name() string
	// Players is the number of players, numbered 0..Players()-1.
	Players() int
	// ActionCount is the size of the fixed action space: every legal
	// action of every state is an index in [0, ActionCount()).
	ActionCount() int
	// FeatureShape is the shape of State.EncodeFeatures' output.
	FeatureShape() Shape
	// Symmetries is the number of board symmetries, the identity (0)
	// included; State.Transform and State.TransformAction take 0..n-1.
	Symmetries() int
	// Start returns the initial state.
	Start() State
	// ParseState reads a state from its text form (State.String). The error
	// names the field or character at fault.
	ParseState(text string) (State, error)
}

// State is one position of a game, with everything that decides its
// future: whose turn, scores, counters.
//
// Actions are seen from the player to move: a game may rotate or reflect
// the board so that every player's actions share one frame, which is the
// frame of EncodeFeatures too.
type State interface {
	// Game returns the game this state belongs to.
	Game() Game
	// ToMove is the player whose turn it is.
	ToMove() int
	// LegalActions appends the legal actions to dst[:0] and returns it, in
	// a deterministic order. It is empty exactly when Over is true.
	LegalActions(dst []int) []int
	// Play applies a legal action (one returned by LegalActions) in place.
	// Its behaviour for other actions is undefined; use PlayChecked for
	// actions that come from outside.
	Play(action int)
	// Clone returns an independent copy.
	Clone() State
	// Over reports whether the game has ended.
	Over() bool
	// Result writes each player's utility, in [-1, 1], into dst (grown to
	// Players() entries) and returns it. Meaningful once Over is true.
	Result(dst []float32) []float32
	// Scores writes each player's points so far into dst and returns it.
	Scores(dst []float32) []float32
	// EncodeFeatures writes the state's feature planes, seen from the
	// player to move, into dst, which has Game().FeatureShape().Size()
	// values.
	EncodeFeatures(dst []float32)
	// ActionString is the action's notation in this state (e.g. "d4e4").
	ActionString(action int) string
	// ParseAction reads an action in this state's notation and checks that
	// it is legal; the error says why not.
	ParseAction(text string) (int, error)
	// Transform returns the state mapped by symmetry sym.
	Transform(sym int) State
	// TransformAction maps an action of this state to the action of
	// Transform(sym).
	TransformAction(sym, action int) int
	// Hash is a Zobrist hash of the position.
	Hash() uint64
	// Ply is the number of plies played since the game's start.
	Ply() int
	// String is the state's text form, readable by Game.ParseState.
	String() string
}

// ErrIllegalAction is wrapped by errors about actions that are not legal in
// a state.
var ErrIllegalAction = errors.New("illegal action")

// PlayChecked plays action in s if it is legal, and otherwise returns an
// error wrapping ErrIllegalAction that leaves s unchanged.
func PlayChecked(s State, action int) error {
	if s.Over() {
		return fmt.Errorf("action %d: %w: the game is over", action, ErrIllegalAction)
	}
	for _, a := range s.LegalActions(nil) {
		if a == action {
			s.Play(action)
			return nil
		}
	}
	return fmt.Errorf("action %d: %w in %s", action, ErrIllegalAction, s)
}
