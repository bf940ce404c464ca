// Package trench implements the rules of Trench (docs/rules.md) on bitboards:
// move generation with every trench rule, copy-make play, the end of the
// game, position strings and move notation, the network's action encoding
// and feature planes, the file↔rank mirror and a Zobrist hash.
//
// Position is the fast concrete type used by perft and classical search;
// State wraps it as an engine.State for search, training and play.
package trench

import (
	"fmt"
	"math/bits"

	"trench/engine"
)

// Game is Trench as an engine.Game.
var Game engine.Game = game{}

type game struct{}

func (game) Name() string               { return "trench" }
func (game) Players() int               { return 2 }
func (game) ActionCount() int           { return ActionCount }
func (game) FeatureShape() engine.Shape { return FeatureShape }
func (game) Symmetries() int            { return 2 }
func (game) Start() engine.State        { return &State{Position: StartPosition()} }

// ScoreScale is 36, an army's worth: the largest score difference
// (engine.ScoreScaler).
func (game) ScoreScale() float32 { return ArmyPoints }

// ActionPlanes is 40, the move shapes (8 directions × 5 distances) of the
// action encoding: action = from-square·40 + shape (engine.SpatialActions).
func (game) ActionPlanes() int { return numDirs * maxDistance }

func (game) ParseState(text string) (engine.State, error) {
	p, err := ParseFEN(text)
	if err != nil {
		return nil, err
	}
	return &State{Position: p}, nil
}

// State is a Trench position as an engine.State. Players are numbered as
// colours: 0 is Black, 1 is White.
type State struct {
	Position
}

// NewState wraps a position.
func NewState(p Position) *State { return &State{Position: p} }

// Game returns Game.
func (s *State) Game() engine.Game { return Game }

// ToMove is the player to move: 0 for Black, 1 for White.
func (s *State) ToMove() int { return int(s.side) }

// LegalActions appends the action indices of the legal moves to dst[:0],
// in GenerateMoves order.
func (s *State) LegalActions(dst []int) []int {
	return s.appendActions(dst[:0], false)
}

// CaptureActions appends the action indices of the legal moves that take
// at least one enemy piece to dst[:0], in GenerateMoves order
// (engine.Captures).
func (s *State) CaptureActions(dst []int) []int {
	return s.appendActions(dst[:0], true)
}

// appendActions appends the actions of the legal moves, or of the
// captures only, computing each index from the move's square, direction
// and distance as they are generated.
func (s *State) appendActions(dst []int, capturesOnly bool) []int {
	p := &s.Position
	if p.decided() {
		return dst
	}
	c := p.side
	enemy := p.occ[c.Other()]
	for k := Kind(0); k < numKinds; k++ {
		for bb := p.pieces[c][k]; bb != 0; bb &= bb - 1 {
			from := bits.TrailingZeros64(bb)
			if capturesOnly && pieceReach[c][k][from]&enemy == 0 {
				continue
			}
			for _, d := range pieceDirs[c][k] {
				var t uint64
				switch {
				case !capturesOnly:
					t = p.targets(c, k, from, d)
				case reach[k][d][from]&enemy != 0:
					t = p.captureTargets(c, k, from, d)
				}
				if t == 0 {
					continue
				}
				// The distance to a stop is the squares of the ray
				// up to it.
				base := from*numDirs*maxDistance + d*maxDistance - 1
				if c == White {
					base = (63-from)*numDirs*maxDistance + (d^1)*maxDistance - 1
				}
				r := ray[d][from]
				for ; t != 0; t &= t - 1 {
					to := bits.TrailingZeros64(t)
					dst = append(dst, base+bits.OnesCount64(r&^ray[d][to]))
				}
			}
		}
	}
	return dst
}

// CaptureValue is the points of the enemy pieces a legal action takes
// (engine.CaptureValues).
func (s *State) CaptureValue(action int) float32 {
	m, ok := ActionToMove(action, s.side)
	if !ok {
		return 0
	}
	return float32(s.Position.CaptureValue(m))
}

// CopyFrom makes s a copy of src, a *State (engine.Copier).
func (s *State) CopyFrom(src engine.State) { *s = *src.(*State) }

// Materials writes the points of each player's pieces on the board
// (engine.Material): 36 less what the other player has captured.
func (s *State) Materials(dst []float32) []float32 {
	return append(dst[:0], float32(s.Material(Black)), float32(s.Material(White)))
}

// Play plays a legal action.
func (s *State) Play(action int) {
	m, _ := ActionToMove(action, s.side)
	s.Position.Play(m)
}

// Clone returns a copy.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// Result writes +1 for the winner and -1 for the loser, or 0 for both on a
// draw.
func (s *State) Result(dst []float32) []float32 {
	dst = append(dst[:0], 0, 0)
	if w, ok := s.Winner(); ok {
		dst[w], dst[w.Other()] = 1, -1
	}
	return dst
}

// Scores writes each player's captured points.
func (s *State) Scores(dst []float32) []float32 {
	return append(dst[:0], float32(s.score[Black]), float32(s.score[White]))
}

// ActionString is the action's move notation, e.g. "d4e4".
func (s *State) ActionString(action int) string {
	m, ok := ActionToMove(action, s.side)
	if !ok {
		return fmt.Sprintf("action%d", action)
	}
	return m.String()
}

// ParseAction reads a move in notation and returns its action if legal.
func (s *State) ParseAction(text string) (int, error) {
	m, err := s.ParseMove(text)
	if err != nil {
		return -1, err
	}
	return MoveToAction(m, s.side), nil
}

// Transform returns the position under symmetry sym: 0 is the identity, 1
// the file↔rank mirror.
func (s *State) Transform(sym int) engine.State {
	if sym == 1 {
		return &State{Position: s.Mirror()}
	}
	return s.Clone()
}

// TransformAction maps an action under symmetry sym.
func (s *State) TransformAction(sym, action int) int {
	if sym == 1 {
		return mirrorAction(action)
	}
	return action
}

// Ply is the number of plies since the start, from the move number.
func (s *State) Ply() int { return 2*(int(s.moveNumber)-1) + int(s.side) }

// String is the position string.
func (s *State) String() string { return s.FEN() }

// EndReason names how the game ended: "25 points", "50 plies without
// capture" or "no legal move"; "" while it goes on (engine.Describer).
func (s *State) EndReason() string {
	switch {
	case s.score[Black] >= WinScore || s.score[White] >= WinScore:
		return fmt.Sprintf("%d points", WinScore)
	case s.quiet >= QuietLimit:
		return fmt.Sprintf("%d plies without capture", QuietLimit)
	case !s.hasMoves():
		return "no legal move"
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
