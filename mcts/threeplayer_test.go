package mcts

import (
	"fmt"
	"strconv"
	"testing"

	"trench/engine"
)

// race is a three-player game: players take turns adding 1 or 2 to a
// count, and whoever reaches raceGoal exactly wins (+1) while the two
// others lose (-1/2).
type race struct{}

const raceGoal = 7

func (race) Name() string               { return "race" }
func (race) Players() int               { return 3 }
func (race) ActionCount() int           { return 2 }
func (race) FeatureShape() engine.Shape { return engine.Shape{Planes: 1, Height: 1, Width: 1} }
func (race) Symmetries() int            { return 1 }
func (race) Start() engine.State        { return &raceState{} }
func (race) ParseState(text string) (engine.State, error) {
	var s raceState
	if _, err := fmt.Sscanf(text, "%d %d", &s.count, &s.mover); err != nil {
		return nil, fmt.Errorf("race position %q: %w", text, err)
	}
	return &s, nil
}

// raceState is a position of race.
type raceState struct{ count, mover, ply int }

func (s *raceState) Game() engine.Game { return race{} }
func (s *raceState) ToMove() int       { return s.mover }
func (s *raceState) Over() bool        { return s.count == raceGoal }
func (s *raceState) LegalActions(dst []int) []int {
	dst = dst[:0]
	for a := 0; a < 2 && s.count+a+1 <= raceGoal; a++ {
		dst = append(dst, a)
	}
	return dst
}
func (s *raceState) Play(a int) {
	s.count += a + 1
	s.ply++
	if !s.Over() {
		s.mover = (s.mover + 1) % 3
	}
}
func (s *raceState) Clone() engine.State { c := *s; return &c }
func (s *raceState) Result(dst []float32) []float32 {
	dst = append(dst[:0], -0.5, -0.5, -0.5)
	dst[s.mover] = 1
	return dst
}
func (s *raceState) Scores(dst []float32) []float32 { return append(dst[:0], 0, 0, 0) }
func (s *raceState) EncodeFeatures(dst []float32)   { dst[0] = float32(s.count) }
func (s *raceState) ActionString(a int) string      { return strconv.Itoa(a + 1) }
func (s *raceState) ParseAction(text string) (int, error) {
	n, err := strconv.Atoi(text)
	return n - 1, err
}
func (s *raceState) Transform(int) engine.State   { return s.Clone() }
func (s *raceState) TransformAction(_, a int) int { return a }
func (s *raceState) Hash() uint64                 { return uint64(s.count*3 + s.mover) }
func (s *raceState) Ply() int                     { return s.ply }
func (s *raceState) String() string               { return fmt.Sprintf("%d %d", s.count, s.mover) }

func TestThreePlayers(t *testing.T) {
	tests := []struct {
		count  int
		action int // the winning action, or -1 when every action loses
		winner int // relative to the mover: 0 the mover, 1 the next player
	}{
		{raceGoal - 1, 0, 0},
		{raceGoal - 2, 1, 0},
		{raceGoal - 3, -1, 1},
	}
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		for _, tc := range tests {
			for mover := range 3 {
				s := &raceState{count: tc.count, mover: mover}
				r := search(t, s, params(algo), 300, 2)
				if tc.action >= 0 && r.Action != tc.action {
					t.Errorf("%s %v: chose %d, want %d", algo, s, r.Action, tc.action)
				}
				winner := (mover + tc.winner) % 3
				for p, v := range r.Value {
					if want := map[bool]float32{true: 1, false: -0.5}[p == winner]; v < want-0.2 || v > want+0.2 {
						t.Errorf("%s %v: value %v, want player %d to win", algo, s, r.Value, winner)
					}
				}
			}
		}
	}
}
