package mcts

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
)

// parse reads a tic-tac-toe position or fails the test.
func parse(t testing.TB, text string) *tictactoe.State {
	t.Helper()
	s, err := tictactoe.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// params returns test parameters for algo.
func params(algo Algorithm) Params {
	p := DefaultParams()
	p.Algorithm = algo
	p.Seed = 1
	return p
}

// search runs one search of sims simulations from s with the uniform
// evaluator and returns its result.
func search(t testing.TB, s engine.State, p Params, sims, threads int) *Result {
	t.Helper()
	_, r := searchTree(t, s, p, UniformEvaluator{}, sims, threads)
	return r
}

// searchTree makes a tree rooted at s, searches it with ev for sims
// simulations on threads goroutines, and returns it with its result.
func searchTree(t testing.TB, s engine.State, p Params, ev Evaluator, sims, threads int) (*Tree, *Result) {
	t.Helper()
	tree, err := NewTree(s, p)
	if err != nil {
		t.Fatal(err)
	}
	return tree, searchMore(t, tree, ev, sims, threads)
}

// searchMore searches tree with ev for sims more simulations on threads
// goroutines and returns its result.
func searchMore(t testing.TB, tree *Tree, ev Evaluator, sims, threads int) *Result {
	t.Helper()
	if err := tree.Search(context.Background(), ev, sims, threads); err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	return &r
}

var solvedPositions = []string{
	".../.../... x", // draw
	"xx./oo./... x", // X wins at once
	"x.o/.x./... o", // O must block: draw
	"xx./.xo/o.. o", // O is lost whatever it does
	"x../.o./..x o", // O must take an edge: draw
	"x.o/.../... x", // X forks: win
	"x../.../..o x", // X wins
	"o../.x./..x o", // O must take a corner
	"xo./.../... x", // X wins
}

func TestSolvedPositions(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		for _, sims := range []int{800} {
			for _, text := range solvedPositions {
				t.Run(fmt.Sprintf("%s/%d/%s", algo, sims, text), func(t *testing.T) {
					s := parse(t, text)
					want, best := tictactoe.Solve(s)
					r := search(t, s, params(algo), sims, 1)
					me := s.ToMove()
					t.Logf("value %v want %v action %d best %v", r.Value, want, r.Action, best)
					if d := math.Abs(float64(r.Value[me] - want[me])); d > 0.25 {
						t.Errorf("root value %v, solved %v", r.Value, want)
					}
					if !slices.Contains(best, r.Action) {
						t.Errorf("chose %s, best %v; stats %+v", s.ActionString(r.Action), best, r.Actions)
					}
				})
			}
		}
	}
}
