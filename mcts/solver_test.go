package mcts

import (
	"fmt"
	"slices"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
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
				tree, r := searchTree(t, s, solverParams(), UniformEvaluator{}, sims, threads)
				checkTree(t, tree)
				inner := checkProofs(t, tree)
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
	tree, r := searchTree(t, s, solverParams(), UniformEvaluator{}, 10000, 1)
	if !tree.Done() {
		t.Error("the search of a proven root is not done")
	}
	if _, best := tictactoe.Solve(s); !r.Proven || r.Value[0] != 1 || !slices.Equal(best, []int{r.Action}) {
		t.Errorf("chose %s (best %v), value %v, proven %v", s.ActionString(r.Action), best, r.Value, r.Proven)
	}
	if r.Visits > 20 {
		t.Errorf("%d visits after the root was proven won", r.Visits)
	}
	// A new search of a proven root does nothing.
	again := searchMore(t, tree, UniformEvaluator{}, 100, 1)
	if again.Visits != r.Visits || again.Action != r.Action {
		t.Errorf("searching the proven root again: %d visits and %s, before %d and %s",
			again.Visits, s.ActionString(again.Action), r.Visits, s.ActionString(r.Action))
	}
}

// TestSolverAvoidsLostMoves: once a move is proven lost, selection passes
// it over and the move chosen is another, even when the lost one has the
// most visits; with a temperature the lost move is never drawn.
func TestSolverAvoidsLostMoves(t *testing.T) {
	// O must block X's diagonal; every other move loses.
	s := parse(t, "x.o/.x./... o")
	_, best := tictactoe.Solve(s)
	lose := -1
	for _, a := range s.LegalActions(nil) {
		if !slices.Contains(best, a) {
			lose = a
			break
		}
	}
	for _, temperature := range []float64{0, 1} {
		p := solverParams()
		p.Temperature = temperature
		// Priors that favour the losing move.
		tree, r := searchTree(t, s, p, PriorEvaluator{lose: 0.9}, 3000, 1)
		checkTree(t, tree)
		checkProofs(t, tree)
		for _, a := range r.Actions {
			if a.Action == lose && (!a.Proven || a.Q != -1) {
				t.Errorf("the losing %s: proven %v, Q %g", s.ActionString(lose), a.Proven, a.Q)
			}
		}
		// Give the lost move the most visits: the choice must not follow.
		tree.mu.Lock()
		first, end := tree.a.children(0)
		for c := first; c < end; c++ {
			if int(tree.a.nodes[c].action) == lose {
				tree.a.nodes[c].visits = tree.a.nodes[0].visits + 100
			}
		}
		tree.mu.Unlock()
		for range 50 {
			if err := tree.Result(r); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(best, r.Action) {
				t.Fatalf("temperature %g: chose %s, best %v; stats %+v", temperature, s.ActionString(r.Action), best, r.Actions)
			}
		}
	}
}

// TestSolverRootProvenWithLeafOut: a root proven while a leaf is out for
// evaluation takes no new leaf, and its search is done once that leaf is
// backed up.
func TestSolverRootProvenWithLeafOut(t *testing.T) {
	s := parse(t, "xx./oo./... x")
	_, best := tictactoe.Solve(s)
	win, slow := best[0], -1
	for _, a := range s.LegalActions(nil) {
		if a != win {
			slow = a
			break
		}
	}
	// The first leaf goes to the slow move, the second to the win: while
	// the first is out, its unvisited move scores P/2, the win's P.
	ev := PriorEvaluator{slow: 0.5, win: 0.3}
	tree, err := NewTree(s, solverParams())
	if err != nil {
		t.Fatal(err)
	}
	evaluate := func(l *Leaf) {
		t.Helper()
		states, evals := []engine.State{l.State}, []Evaluation{l.Eval}
		if err := ev.Evaluate(states, evals); err != nil {
			t.Fatal(err)
		}
		l.Eval = evals[0]
	}
	var root, out, more Leaf
	if !tree.SelectLeaf(&root) {
		t.Fatal("no root leaf")
	}
	evaluate(&root)
	if err := tree.Backup(&root); err != nil {
		t.Fatal(err)
	}
	if err := tree.BeginSearch(100); err != nil {
		t.Fatal(err)
	}
	if !tree.SelectLeaf(&out) {
		t.Fatal("no leaf")
	}
	if got := int(tree.a.nodes[out.path[1]].action); got != slow {
		t.Fatalf("the leaf is %s, not %s", s.ActionString(got), s.ActionString(slow))
	}
	// The next selection meets the win, a finished game: the root is
	// proven and no leaf is wanted.
	if tree.SelectLeaf(&more) {
		t.Fatalf("a second leaf, %v, with the root proven", more.path)
	}
	var r Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	if !r.Proven || r.Value[0] != 1 || r.Action != win {
		t.Fatalf("root proven %v with value %v, playing %s; want won for X by %s", r.Proven, r.Value, s.ActionString(r.Action), s.ActionString(win))
	}
	if tree.Done() {
		t.Error("Done with a leaf still out")
	}
	evaluate(&out)
	if err := tree.Backup(&out); err != nil {
		t.Fatal(err)
	}
	if !tree.Done() {
		t.Error("not Done after the last leaf came back")
	}
	checkTree(t, tree)
	checkProofs(t, tree)
}

// TestSolverOff: with Gumbel the solver is refused; without it, or with
// more than two players, nothing is proven and the search runs all its
// simulations.
func TestSolverOff(t *testing.T) {
	p := DefaultParams()
	p.Algorithm, p.Solver = Gumbel, true
	if _, err := NewTree(tictactoe.Game{}.Start(), p); err == nil {
		t.Error("NewTree accepted the solver with Gumbel")
	}
	for _, tc := range []struct {
		name   string
		s      engine.State
		solver bool
	}{
		{"off", parse(t, "xx./oo./... x"), false},
		{"three players", &raceState{count: raceGoal - 1}, true},
	} {
		p := params(PUCT)
		p.Solver = tc.solver
		tree, r := searchTree(t, tc.s, p, UniformEvaluator{}, 200, 1)
		if r.Visits != 201 {
			t.Errorf("%s: %d visits, want 201", tc.name, r.Visits)
		}
		tree.mu.Lock()
		for i, n := range tree.a.nodes {
			if n.proven {
				t.Errorf("%s: node %d proven", tc.name, i)
				break
			}
		}
		tree.mu.Unlock()
	}
}

// TestSolverKeepsProofsOnAdvance: the subtree that Advance and AdvanceTo
// keep keeps its proofs; a search of the proven new root adds nothing.
func TestSolverKeepsProofsOnAdvance(t *testing.T) {
	s := parse(t, "x.o/.../... x") // X forks and wins
	for _, to := range []string{"Advance", "AdvanceTo"} {
		tree, r := searchTree(t, s, solverParams(), UniformEvaluator{}, 5000, 1)
		if !r.Proven || len(r.PV) < 2 {
			t.Fatalf("root proven %v, line %v", r.Proven, r.PV)
		}
		next := s.Clone()
		next.Play(r.PV[0])
		if to == "Advance" {
			if err := tree.Advance(r.PV[0]); err != nil {
				t.Fatal(err)
			}
		} else {
			next.Play(r.PV[1])
			if !tree.AdvanceTo(next) {
				t.Fatal("AdvanceTo did not find the line")
			}
		}
		var kept Result
		if err := tree.Result(&kept); err != nil {
			t.Fatal(err)
		}
		if !kept.Proven || kept.Value[0] != 1 {
			t.Fatalf("%s: the kept root %s is proven %v with value %v, want won for X", to, next, kept.Proven, kept.Value)
		}
		checkTree(t, tree)
		checkProofs(t, tree)
		again := searchMore(t, tree, UniformEvaluator{}, 100, 1)
		if again.Visits != kept.Visits {
			t.Errorf("%s: searching the proven root took it from %d to %d visits", to, kept.Visits, again.Visits)
		}
	}
}
