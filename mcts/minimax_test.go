package mcts

import (
	"fmt"
	"slices"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
)

// checkMinimax fails the test unless every node of tree holds the minimax
// value its children give it (its own value when none is evaluated), and
// unless every node whose subtree is complete (evaluated down to finished
// games) holds solve's value for its position. It returns the number of
// complete nodes that are not finished games.
func checkMinimax(t *testing.T, tree *Tree, solve func(engine.State) []float32) int {
	t.Helper()
	tree.mu.Lock()
	defer tree.mu.Unlock()
	a, p := &tree.a, tree.players
	mm := func(n int32) []float32 { return a.mm[int(n)*p : int(n+1)*p] }
	complete := 0
	var walk func(n int32, s engine.State) bool
	walk = func(n int32, s engine.State) bool {
		nd := &a.nodes[n]
		switch nd.status {
		case terminal:
			if !slices.Equal(mm(n), a.raw[int(n)*p:int(n+1)*p]) {
				t.Fatalf("finished game %s: minimax %v, result %v", s, mm(n), a.raw[int(n)*p:int(n+1)*p])
			}
			return true
		case expanded:
		default:
			return false
		}
		want, found, all := a.raw[int(n)*p:int(n+1)*p], false, true
		first, end := a.children(n)
		for c := first; c < end; c++ {
			next := s.Clone()
			next.Play(int(a.nodes[c].action))
			all = walk(c, next) && all
			st := a.nodes[c].status
			if (st == expanded || st == terminal) && (!found || mm(c)[nd.mover] > want[nd.mover]) {
				want, found = mm(c), true
			}
		}
		if !slices.Equal(mm(n), want) {
			t.Fatalf("node %s: minimax %v, its children give %v", s, mm(n), want)
		}
		if all {
			complete++
			if v := solve(s); !slices.Equal(mm(n), v) {
				t.Fatalf("complete node %s: minimax %v, solved %v", s, mm(n), v)
			}
		}
		return all
	}
	walk(0, tree.root.Clone())
	return complete
}

// solveTicTacToe is tictactoe.Solve's value, for checkMinimax.
func solveTicTacToe(s engine.State) []float32 {
	v, _ := tictactoe.Solve(s.(*tictactoe.State))
	return v[:]
}

// solveRace is race's max^n value, ties going to the first action as in
// the tree.
func solveRace(s engine.State) []float32 {
	if s.Over() {
		return s.Result(nil)
	}
	var best []float32
	for _, a := range s.LegalActions(nil) {
		next := s.Clone()
		next.Play(a)
		if v := solveRace(next); best == nil || v[s.ToMove()] > best[s.ToMove()] {
			best = v
		}
	}
	return best
}

// The minimax values follow their children at every node, whatever the
// weight and the number of threads, and equal the game's value wherever
// the tree is complete: in tic-tac-toe (two players) and in race (three,
// max^n).
func TestMinimaxValues(t *testing.T) {
	cases := []struct {
		name     string
		root     engine.State
		solve    func(engine.State) []float32
		sims     int
		complete bool // some inner node's subtree is complete after sims
	}{
		{"x to win", parse(t, "xx./oo./... x"), solveTicTacToe, 200, false},
		{"o must block", parse(t, "x.o/.x./... o"), solveTicTacToe, 400, true},
		{"o lost", parse(t, "xx./.xo/o.. o"), solveTicTacToe, 400, true},
		{"opening", tictactoe.Game{}.Start(), solveTicTacToe, 800, false},
		{"race", &raceState{}, solveRace, 300, true},
	}
	for _, c := range cases {
		for _, w := range []float64{0.5, 1} {
			for _, threads := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/w%g/threads%d", c.name, w, threads), func(t *testing.T) {
					p := params(PUCT)
					p.MinimaxWeight = w
					tree, _ := searchTree(t, c.root, p, hashEvaluator{}, c.sims, threads)
					if n := checkMinimax(t, tree, c.solve); n == 0 && c.complete {
						t.Errorf("no complete inner node after %d simulations", c.sims)
					}
				})
			}
		}
	}
}

// The minimax values survive Advance: the kept subtree's are its own.
func TestMinimaxKeptOnAdvance(t *testing.T) {
	s := parse(t, "x.o/.x./... o")
	p := params(PUCT)
	p.MinimaxWeight = 0.5
	tree, r := searchTree(t, s, p, hashEvaluator{}, 400, 1)
	if err := tree.Advance(r.Action); err != nil {
		t.Fatal(err)
	}
	s.Play(r.Action)
	if checkMinimax(t, tree, solveTicTacToe) == 0 {
		t.Fatal("no complete inner node after Advance")
	}
	searchMore(t, tree, hashEvaluator{}, 100, 1)
	checkMinimax(t, tree, solveTicTacToe)
}

// minimaxRoot returns a two-player tree whose root has two visited
// children: a, whose mean is good for the root's mover (+0.5) but whose
// minimax value is a loss, and b, with a mean and minimax value of +0.2.
func minimaxRoot(t *testing.T, w float64) (tree *Tree, a, b int32) {
	t.Helper()
	p := params(PUCT)
	p.MinimaxWeight = w
	tree, err := NewTree(tictactoe.Game{}.Start(), p)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tree.a
	tr.nodes[0].status, tr.nodes[0].mover = expanded, 0
	a = tr.add(node{action: 0, prior: 0.5, visits: 10, status: expanded, mover: 1})
	b = tr.add(node{action: 1, prior: 0.5, visits: 10, status: expanded, mover: 1})
	tr.nodes[0].first, tr.nodes[0].count, tr.nodes[0].visits = a, 2, 21
	set := func(n int32, mean, mm float32) {
		tr.sums[int(n)*2], tr.sums[int(n)*2+1] = 10*float64(mean), -10*float64(mean)
		tr.mm[int(n)*2], tr.mm[int(n)*2+1] = mm, -mm
	}
	set(a, 0.5, -1)
	set(b, 0.2, 0.2)
	return tree, a, b
}

// PUCT follows the mean alone at weight 0 and turns away from a move whose
// minimax value is a loss once the weight counts it.
func TestMinimaxWeightInSelection(t *testing.T) {
	for _, c := range []struct {
		w    float64
		want string
	}{{0, "a"}, {0.1, "a"}, {0.5, "b"}, {1, "b"}} {
		tree, a, b := minimaxRoot(t, c.w)
		got := tree.puctChild(0, true)
		name := map[int32]string{a: "a", b: "b"}[got]
		if name != c.want {
			t.Errorf("weight %g: chose %s, want %s", c.w, name, c.want)
		}
	}
}
