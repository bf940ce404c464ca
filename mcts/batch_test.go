package mcts

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
)

// playBatched plays games tic-tac-toe games to the end, all searched
// together by one BatchSearch with tree reuse, and returns each game's
// moves.
func playBatched(t testing.TB, algo Algorithm, games, sims, leavesPerTree int, eval Evaluator) [][]int {
	trees := make([]*Tree, games)
	for i := range trees {
		p := params(algo)
		p.Seed = uint64(i)
		p.Temperature = 1
		p.DirichletFraction = 0.25
		var err error
		if trees[i], err = NewTree(tictactoe.Game{}.Start(), p); err != nil {
			t.Fatal(err)
		}
	}
	b := &BatchSearch{Evaluator: eval, LeavesPerTree: leavesPerTree}
	moves := make([][]int, games)
	var r Result
	for live := trees; len(live) > 0; {
		if err := b.Run(context.Background(), live, sims); err != nil {
			t.Fatal(err)
		}
		next := live[:0]
		for _, tree := range live {
			if err := tree.Result(&r); err != nil {
				t.Fatal(err)
			}
			if r.Visits < sims+1 {
				t.Fatalf("root has %d visits after %d simulations", r.Visits, sims)
			}
			i := slices.Index(trees, tree)
			moves[i] = append(moves[i], r.Action)
			if err := tree.Advance(r.Action); err != nil {
				t.Fatal(err)
			}
			if !tree.State().Over() {
				next = append(next, tree)
			}
		}
		live = next
	}
	return moves
}

func TestBatchSearchGames(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		for _, per := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/%d", algo, per), func(t *testing.T) {
				eval := &strictEvaluator{t: t}
				games := playBatched(t, algo, 64, 32, per, eval)
				if eval.widest > 64*per {
					t.Errorf("a batch had %d states for 64 trees", eval.widest)
				}
				if eval.widest < 64 {
					t.Errorf("the widest batch had %d states for 64 trees", eval.widest)
				}
				if perCall := float64(eval.states) / float64(eval.calls); perCall < 16 {
					t.Errorf("%.1f states per evaluator call, want most trees in each", perCall)
				}
				again := playBatched(t, algo, 64, 32, per, UniformEvaluator{})
				if !slices.EqualFunc(games, again, slices.Equal) {
					t.Errorf("the same seeds played different games")
				}
				distinct := map[string]bool{}
				for _, g := range games {
					distinct[fmt.Sprint(g)] = true
				}
				if len(distinct) < 2 {
					t.Errorf("64 noisy games were all %v", games[0])
				}
			})
		}
	}
}

func TestBatchMatchesSingleTree(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		for _, text := range []string{"x../.../... o", "x.o/.x./... o"} {
			single := search(t, parse(t, text), params(algo), 200, 1)
			tree, err := NewTree(parse(t, text), params(algo))
			if err != nil {
				t.Fatal(err)
			}
			b := &BatchSearch{Evaluator: UniformEvaluator{}}
			if err := b.Run(context.Background(), []*Tree{tree}, 200); err != nil {
				t.Fatal(err)
			}
			var batched Result
			if err := tree.Result(&batched); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(single.Actions, batched.Actions) {
				t.Errorf("%s %q: batched %+v, single %+v", algo, text, batched.Actions, single.Actions)
			}
		}
	}
}

func TestAdvanceReusesSubtree(t *testing.T) {
	for _, algo := range []Algorithm{PUCT, Gumbel} {
		tree, r := searchTree(t, tictactoe.Game{}.Start(), params(algo), UniformEvaluator{}, 400, 1)
		before := tree.Size()
		kept := r.Actions[slices.IndexFunc(r.Actions, func(a ActionStats) bool { return a.Action == r.Action })]
		if err := tree.Advance(r.Action); err != nil {
			t.Fatal(err)
		}
		if err := tree.Result(r); err != nil {
			t.Fatal(err)
		}
		if r.Visits != kept.Visits {
			t.Errorf("%s: new root has %d visits, the child had %d", algo, r.Visits, kept.Visits)
		}
		if after := tree.Size(); after >= before {
			t.Errorf("%s: compaction kept %d of %d nodes", algo, after, before)
		}
		r = searchMore(t, tree, UniformEvaluator{}, 100, 2)
		if r.Visits != kept.Visits+100 {
			t.Errorf("%s: %d visits after 100 more, want %d", algo, r.Visits, kept.Visits+100)
		}
		if err := tree.Advance(r.Action); err != nil {
			t.Fatal(err)
		}
		if err := tree.Advance(r.Action); err == nil {
			t.Errorf("%s: advancing twice by %d succeeded", algo, r.Action)
		}
	}
}

func TestAdvanceDropsLargeSubtree(t *testing.T) {
	p := params(PUCT)
	p.MaxNodes = 10
	tree, err := NewTree(tictactoe.Game{}.Start(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), UniformEvaluator{}, 400, 1); err != nil {
		t.Fatal(err)
	}
	if err := tree.Advance(4); err != nil {
		t.Fatal(err)
	}
	if n := tree.Size(); n != 1 {
		t.Errorf("tree kept %d nodes over MaxNodes 10", n)
	}
	if got := tree.State().String(); got != ".../.x./... o" {
		t.Errorf("root after Advance(4) is %q", got)
	}
}

// TestAdvanceTo moves a searched tree's root to positions some plies
// ahead and compares the kept subtree with the one Advance keeps move by
// move; positions the tree does not lead to leave it untouched.
func TestAdvanceTo(t *testing.T) {
	searched := func(t *testing.T, sims int) (*Tree, *Result) {
		t.Helper()
		tree, err := NewTree(tictactoe.Game{}.Start(), params(PUCT))
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Search(context.Background(), UniformEvaluator{}, sims, 1); err != nil {
			t.Fatal(err)
		}
		var r Result
		if err := tree.Result(&r); err != nil {
			t.Fatal(err)
		}
		return tree, &r
	}
	_, r := searched(t, 400)
	if len(r.PV) < 3 {
		t.Fatalf("PV %v too short", r.PV)
	}
	for _, moves := range [][]int{r.PV[:1], r.PV[:2], r.PV[:3], {r.PV[0], (r.PV[1] + 1) % 9}} {
		t.Run(fmt.Sprint(moves), func(t *testing.T) {
			tree, _ := searched(t, 400)
			want, _ := searched(t, 400)
			s := tictactoe.Game{}.Start()
			for _, a := range moves {
				if err := engine.PlayChecked(s, a); err != nil {
					t.Skipf("move %d: %v", a, err)
				}
				if err := want.Advance(a); err != nil {
					t.Fatal(err)
				}
			}
			if !tree.AdvanceTo(s) {
				t.Fatalf("AdvanceTo(%s) found no path", s)
			}
			if got := tree.State().String(); got != s.String() {
				t.Errorf("root %s, want %s", got, s)
			}
			var got, kept Result
			errGot, errKept := tree.Result(&got), want.Result(&kept)
			if (errGot == nil) != (errKept == nil) || errGot == nil && (got.Visits != kept.Visits || !slices.Equal(got.Actions, kept.Actions)) {
				t.Errorf("kept %+v (%v), Advance kept %+v (%v)", got, errGot, kept, errKept)
			}
			if tree.Size() != want.Size() {
				t.Errorf("kept %d nodes, Advance %d", tree.Size(), want.Size())
			}
		})
	}
	// After 3 simulations most of the root's moves are unexpanded: a
	// position two plies down through one of them is not in the tree.
	tree, r := searched(t, 3)
	unexpanded := -1
	for _, a := range r.Actions {
		if a.Visits == 0 {
			unexpanded = a.Action
		}
	}
	if unexpanded < 0 {
		t.Fatalf("every root move visited after 3 simulations: %+v", r.Actions)
	}
	through := tictactoe.Game{}.Start()
	through.Play(unexpanded)
	through.Play(through.LegalActions(nil)[0])
	start := tictactoe.Game{}.Start()
	for name, s := range map[string]engine.State{
		"the root":                  start,
		"two plies down unexpanded": through,
	} {
		size := tree.Size()
		if tree.AdvanceTo(s) {
			t.Errorf("%s: AdvanceTo(%s) moved the root", name, s)
		}
		if tree.Size() != size || tree.State().String() != start.String() {
			t.Errorf("%s: the tree changed: %d nodes, root %s", name, tree.Size(), tree.State())
		}
	}
}
