package relabel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/games/plugin"
	trenchgame "trench/games/trench"
	trichessgame "trench/games/trichess"
	"trench/mcts"
)

// teacher returns a Classical evaluator of Trench at depth, with its own
// table.
func teacher(t *testing.T, depth int, scale float64) *Classical {
	t.Helper()
	s, err := trenchgame.Plugin.Classical.NewSearcher(16)
	if err != nil {
		t.Fatal(err)
	}
	return &Classical{Searcher: s, Depth: depth, Scale: scale}
}

// positions returns Trench positions from random games: every ninth ply
// and the last few before each game's end, some of them won by force.
func positions(t *testing.T) []engine.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 8))
	var out []engine.State
	for range 3 {
		var game []engine.State
		s := trench.Game.Start()
		for ply := 0; ply < 1000 && !s.Over(); ply++ {
			game = append(game, s.Clone())
			acts := s.LegalActions(nil)
			s.Play(acts[rng.IntN(len(acts))])
		}
		for i, g := range game {
			if i%9 == 0 || i >= len(game)-4 {
				out = append(out, g)
			}
		}
	}
	return out
}

// A Classical evaluator's value for the side to move is tanh of the
// search's score over the scale, or ±1 when the search finds a forced
// result, the other side's its negation; its policy is the search's best
// move alone, at every depth, in one batch.
func TestClassical(t *testing.T) {
	states := positions(t)
	for _, tc := range []struct {
		depth int
		scale float64
	}{{1, 4}, {2, 4}, {3, 10}} {
		t.Run(fmt.Sprintf("depth%d", tc.depth), func(t *testing.T) {
			evals := make([]mcts.Evaluation, len(states))
			for i, s := range states {
				evals[i].Actions = s.LegalActions(nil)
			}
			if err := teacher(t, tc.depth, tc.scale).Evaluate(states, evals); err != nil {
				t.Fatal(err)
			}
			forced, plain := 0, 0
			for i, s := range states {
				fresh, _ := trenchgame.Plugin.Classical.NewSearcher(16)
				r, err := fresh.Search(context.Background(), s, plugin.ClassicalLimits{Depth: tc.depth})
				if err != nil {
					t.Fatal(err)
				}
				want := math.Tanh(r.Score / tc.scale)
				if r.Forced != 0 {
					want, forced = float64(r.Forced), forced+1
				} else if r.Score != 0 {
					plain++
				}
				me, other := s.ToMove(), 1-s.ToMove()
				if v := evals[i].Values; math.Abs(float64(v[me])-want) > 1e-5 || v[other] != -v[me] {
					t.Errorf("%s: values %v, want %.4f for the mover (score %.2f, forced %d)", s, v, want, r.Score, r.Forced)
				}
				ones := 0
				for j, p := range evals[i].Policy {
					if p == 1 && evals[i].Actions[j] == r.Action {
						ones++
					} else if p != 0 {
						t.Errorf("%s: prior %g for action %d, want 1 only for the best move %d", s, p, evals[i].Actions[j], r.Action)
					}
				}
				if ones != 1 {
					t.Errorf("%s: best move %d not given prior 1 in %v", s, r.Action, evals[i].Policy)
				}
			}
			if forced == 0 || plain == 0 {
				t.Errorf("%d forced and %d other positions among %d; the test wants both", forced, plain, len(states))
			}
		})
	}
}

// In Trichess a Classical evaluator gives each seat the value the
// search gives it (BRS+ with the rules' piece points here), and its best
// move prior 1.
func TestClassicalThreePlayers(t *testing.T) {
	ev, err := trichessgame.Plugin.Classical.Evaluation("material", "")
	if err != nil {
		t.Fatal(err)
	}
	newSearcher := func() plugin.ClassicalSearcher {
		s, err := ev.NewSearcher(16)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// The start, and White a rook and Red a knight down.
	lopsided, err := trichess.Game.ParseState("wRwNwBwQwKwBwN1/wPwPwPwPwPwPwPwP/8/8|rR1rBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w Q,KQ,KQ 0 1")
	if err != nil {
		t.Fatal(err)
	}
	states := []engine.State{trichess.Game.Start(), lopsided}
	evals := make([]mcts.Evaluation, len(states))
	for i, s := range states {
		evals[i].Actions = s.LegalActions(nil)
	}
	c := &Classical{Searcher: newSearcher(), Depth: 2, Scale: 4}
	if err := c.Evaluate(states, evals); err != nil {
		t.Fatal(err)
	}
	for i, s := range states {
		r, err := newSearcher().Search(context.Background(), s, plugin.ClassicalLimits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float32, len(r.Players))
		for k, v := range r.Players {
			want[k] = float32(v)
		}
		if !reflect.DeepEqual(evals[i].Values, want) {
			t.Errorf("%s: values %v, want the search's %v", s, evals[i].Values, want)
		}
		if j := slices.Index(evals[i].Actions, r.Action); j < 0 || evals[i].Policy[j] != 1 {
			t.Errorf("%s: policy %v, want 1 for the best move %d", s, evals[i].Policy, r.Action)
		}
	}
	if v := evals[1].Values; !(v[1] < v[2]) {
		t.Errorf("Red a knight down and Black level valued %v", v)
	}
}

// Depths, scales and games a Classical evaluator cannot value are errors.
func TestClassicalErrors(t *testing.T) {
	start := []engine.State{trench.Game.Start()}
	cases := []struct {
		name   string
		c      *Classical
		states []engine.State
		want   string
	}{
		{"depth 0", teacher(t, 0, 4), start, "depth of at least 1"},
		{"scale 0", teacher(t, 2, 0), start, "scale must be positive"},
		{"scale NaN", teacher(t, 2, math.NaN()), start, "scale must be positive"},
	}
	for _, c := range cases {
		evals := []mcts.Evaluation{{Actions: c.states[0].LegalActions(nil)}}
		if err := c.c.Evaluate(c.states, evals); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
