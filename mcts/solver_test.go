package mcts

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
)

// solverParams returns PUCT test parameters with the solver on.
func solverParams() Params {
	p := params(PUCT)
	p.Solver = true
	return p
}

// checkProofs fails the test unless every proven node of tree holds the
// game-theoretic value that tictactoe.Solve gives its position, and every
// node that its children prove is proven. It returns the number of proven
// nodes that are not finished games.
func checkProofs(t *testing.T, tree *Tree) int {
	t.Helper()
	tree.mu.Lock()
	defer tree.mu.Unlock()
	inner := 0
	var walk func(n int32, s *tictactoe.State)
	walk = func(n int32, s *tictactoe.State) {
		nd := &tree.a.nodes[n]
		if nd.proven {
			want, _ := tictactoe.Solve(s)
			if nd.exact != want[0] {
				t.Fatalf("node %d, %s: proven %g for X, Solve says %v", n, s, nd.exact, want)
			}
			if nd.status == expanded {
				inner++
			}
		}
		if nd.status != expanded {
			return
		}
		first, end := tree.a.children(n)
		won, decided := false, true
		for c := first; c < end; c++ {
			won = won || tree.a.wonFor(c, nd.mover)
			decided = decided && tree.a.nodes[c].proven
			next := s.Clone().(*tictactoe.State)
			next.Play(int(tree.a.nodes[c].action))
			walk(c, next)
		}
		if (won || decided) && !nd.proven {
			t.Fatalf("node %d, %s: its children prove it, but it is not proven", n, s)
		}
	}
	walk(0, tree.root.Clone().(*tictactoe.State))
	return inner
}

// TestSolverProvesTicTacToe searches tic-tac-toe positions with the solver
// and one or two threads: every proven node must hold Solve's value, the
// tree's statistics must add up, and a proven root must report its exact
// value and play a move Solve rates best. Each position here but the
// empty board (whose draw takes more) is proven within the budget, and a
// search whose root is proven ends early.
func TestSolverProvesTicTacToe(t *testing.T) {
	const sims = 5000
	for _, threads := range []int{1, 2} {
		for _, text := range solvedPositions[1:] {
			t.Run(fmt.Sprintf("%d/%s", threads, text), func(t *testing.T) {
				s := parse(t, text)
				want, best := tictactoe.Solve(s)
				tree, err := NewTree(s, solverParams())
				if err != nil {
					t.Fatal(err)
				}
				if err := tree.Search(context.Background(), UniformEvaluator{}, sims, threads); err != nil {
					t.Fatal(err)
				}
				checkTree(t, tree)
				inner := checkProofs(t, tree)
				var r Result
				if err := tree.Result(&r); err != nil {
					t.Fatal(err)
				}
				t.Logf("%d visits, %d proven inner nodes, value %v", r.Visits, inner, r.Value)
				if !r.Proven {
					t.Fatalf("root not proven after %d visits", r.Visits)
				}
				if r.Visits > sims {
					t.Errorf("%d visits, more than the %d simulations", r.Visits, sims)
				}
				if !slices.Equal(r.Value, want) {
					t.Errorf("value %v, Solve says %v", r.Value, want)
				}
				if !slices.Contains(best, r.Action) {
					t.Errorf("chose %s, best %v", s.ActionString(r.Action), best)
				}
				me := s.ToMove()
				for _, a := range r.Actions {
					if !a.Proven {
						continue
					}
					next := s.Clone().(*tictactoe.State)
					next.Play(a.Action)
					v, _ := tictactoe.Solve(next)
					if a.Q != v[me] {
						t.Errorf("%s: Q %g, Solve says %g", s.ActionString(a.Action), a.Q, v[me])
					}
				}
			})
		}
	}
}

// TestSolverStopsAtWin: with a win in one, the search ends as soon as the
// winning move is visited, and plays it.
func TestSolverStopsAtWin(t *testing.T) {
	s := parse(t, "xx./oo./... x")
	tree, err := NewTree(s, solverParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), UniformEvaluator{}, 10000, 1); err != nil {
		t.Fatal(err)
	}
	if !tree.Done() {
		t.Error("the search of a proven root is not done")
	}
	var r Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	if _, best := tictactoe.Solve(s); !r.Proven || r.Value[0] != 1 || !slices.Equal(best, []int{r.Action}) {
		t.Errorf("chose %s (best %v), value %v, proven %v", s.ActionString(r.Action), best, r.Value, r.Proven)
	}
	if r.Visits > 20 {
		t.Errorf("%d visits after the root was proven won", r.Visits)
	}
	// A new search of a proven root does nothing.
	if err := tree.Search(context.Background(), UniformEvaluator{}, 100, 1); err != nil {
		t.Fatal(err)
	}
	var again Result
	if err := tree.Result(&again); err != nil {
		t.Fatal(err)
	}
	if again.Visits != r.Visits || again.Action != r.Action {
		t.Errorf("searching the proven root again: %d visits and %s, before %d and %s",
			again.Visits, s.ActionString(again.Action), r.Visits, s.ActionString(r.Action))
	}
}

// TestSolverAvoidsLostMoves: once a move is proven lost, selection passes
// it over and the move chosen is another, even when the lost one has more
// visits; with a temperature the lost move is never drawn.
func TestSolverAvoidsLostMoves(t *testing.T) {
	// O must block X's diagonal; every other move loses.
	s := parse(t, "x.o/.x./... o")
	_, best := tictactoe.Solve(s)
	for _, temperature := range []float64{0, 1} {
		p := solverParams()
		p.Temperature = temperature
		// Priors that favour a losing move.
		lose := -1
		for _, a := range s.LegalActions(nil) {
			if !slices.Contains(best, a) {
				lose = a
				break
			}
		}
		ev := PriorEvaluator{lose: 0.9}
		tree, err := NewTree(s, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Search(context.Background(), ev, 3000, 1); err != nil {
			t.Fatal(err)
		}
		checkTree(t, tree)
		checkProofs(t, tree)
		var r Result
		for range 20 {
			if err := tree.Result(&r); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(best, r.Action) {
				t.Fatalf("temperature %g: chose %s, best %v; stats %+v", temperature, s.ActionString(r.Action), best, r.Actions)
			}
		}
		for _, a := range r.Actions {
			if a.Action == lose && (!a.Proven || a.Q != -1) {
				t.Errorf("the losing %s: proven %v, Q %g", s.ActionString(lose), a.Proven, a.Q)
			}
		}
	}
}

// TestSolverOff: with more than two players, or with Gumbel, nothing is
// proven (and Gumbel with the solver is refused).
func TestSolverOff(t *testing.T) {
	p := DefaultParams()
	p.Algorithm, p.Solver = Gumbel, true
	if _, err := NewTree(tictactoe.Game{}.Start(), p); err == nil {
		t.Error("NewTree accepted the solver with Gumbel")
	}
	tree, err := NewTree(parse(t, "xx./oo./... x"), params(PUCT))
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), UniformEvaluator{}, 200, 1); err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	if r.Proven || r.Visits != 201 {
		t.Errorf("without the solver: proven %v, %d visits", r.Proven, r.Visits)
	}
}

// TestSolverKeepsProofsOnAdvance: the subtree kept by Advance keeps its
// proofs, and the consistency of its statistics, through a Trench game
// searched with two threads.
func TestSolverKeepsProofsOnAdvance(t *testing.T) {
	// Black to move wins with a full-reach capture (see the tactics tests).
	s, err := trench.Game.ParseState("7g/3c4/8/3Gpsk1/8/8/1S6/8 b 19 10 0 30")
	if err != nil {
		t.Fatal(err)
	}
	tree, err := NewTree(s, solverParams())
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	for move := 0; !tree.State().Over(); move++ {
		if err := tree.Search(context.Background(), hashEvaluator{}, 400, 2); err != nil {
			t.Fatal(err)
		}
		checkTree(t, tree)
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		if move == 0 && (!r.Proven || r.Value[trench.Black] != 1) {
			t.Fatalf("the winning position: proven %v, value %v", r.Proven, r.Value)
		}
		if err := tree.Advance(r.Action); err != nil {
			t.Fatal(err)
		}
		var st engine.State = tree.State()
		if move == 0 && !st.Over() {
			t.Fatalf("the proven win %s did not end the game", s.ActionString(r.Action))
		}
	}
}
