package neteval

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
	"trench/nnue"
	"trench/tactics"
)

// builtInNNUE is Trench's classical evaluation with its built-in NNUE.
func builtInNNUE(t testing.TB) plugin.ClassicalEvaluation {
	t.Helper()
	ev, err := games.ClassicalOf(trench.Game).Evaluation("net", shipped.Ref)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestValues checks the evaluator of Values over either priors (a net's
// and tactics.Fallback's), at the leaf and after quiescence: the priors
// are the underlying evaluator's, untouched; each state has two values in
// [-1, 1], the player to move's and its negation; the value is the
// NNUE's: at the leaf its own output as a value, tanh(y/2); after
// quiescence a valuer's of the same evaluation; and a position good for
// Black is so whoever moves.
func TestValues(t *testing.T) {
	net, _, err := nnue.LoadRef(shipped.Ref)
	if err != nil {
		t.Fatal(err)
	}
	own, err := nnue.NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	eval := builtInNNUE(t)
	states := randomStates(trench.Game, 60, 7)
	for _, fen := range []string{
		// Black ten points up with a full army against White without its
		// General and Colonels.
		"4sk2/4psk1/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 10 0 0 1",
		"4sk2/4psk1/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 10 0 0 1",
	} {
		s, err := trench.Game.ParseState(fen)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, s)
	}
	netEval, err := NewWithScoreUtility(trench.Game, tinyNet(t, trench.Game), DefaultScoreUtility)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		priors     mcts.Evaluator
		quiescence bool
	}{
		{"net priors, nnue", netEval, false},
		{"net priors, qnnue", netEval, true},
		{"no net, nnue", tactics.Fallback{}, false},
		{"no net, qnnue", tactics.Fallback{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Values{Evaluation: eval, Quiescence: tc.quiescence}
			got := evaluateAll(t, v.Wrap(tc.priors), states)
			want := evaluateAll(t, tc.priors, states)
			ref, err := eval.NewValuer(tc.quiescence)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range states {
				o := got[i]
				if !slices.Equal(o.Policy, want[i].Policy) {
					t.Fatalf("%s: priors %v, the underlying evaluator's %v", s, o.Policy, want[i].Policy)
				}
				me := s.ToMove()
				if len(o.Values) != 2 || o.Values[1-me] != -o.Values[me] || !(o.Values[me] >= -1 && o.Values[me] <= 1) {
					t.Fatalf("%s: values %v, want the mover's in [-1, 1] and its negation", s, o.Values)
				}
				x, err := ref.Value(s)
				if err != nil {
					t.Fatal(err)
				}
				if o.Values[me] != float32(x) {
					t.Errorf("%s: value %v, the valuer's %v", s, o.Values[me], x)
				}
				if !tc.quiescence {
					// The valuer reads the evaluator's centipoints.
					p := &s.(*trench.State).Position
					own.SetRoot(p)
					if y := math.Tanh(float64(own.Output(0, p)) / 2); math.Abs(float64(o.Values[me])-y) > 1e-3 {
						t.Errorf("%s: value %v, the NNUE's own output %v", s, o.Values[me], y)
					}
				}
			}
			for _, i := range []int{len(states) - 2, len(states) - 1} {
				if black := got[i].Values[0]; black < 0.5 {
					t.Errorf("%s: Black's value %v, want it beyond 0.5", states[i], black)
				}
			}
		})
	}
}

// TestValuesConcurrent has several goroutines evaluate with one
// evaluator of Values at once (run with -race), each answer checked
// against one goroutine's, and checks that it kept no more valuers than
// calls ran at once.
func TestValuesConcurrent(t *testing.T) {
	v := Values{Evaluation: builtInNNUE(t), Quiescence: true}
	states := randomStates(trench.Game, 40, 9)
	want := evaluateAll(t, v.Wrap(tactics.Fallback{}), states)
	ev := v.Wrap(tactics.Fallback{})
	const workers = 6
	evaluateConcurrently(t, ev, states, want, workers, 3)
	if n := len(ev.(*valuesEvaluator).idle); n < 1 || n > workers {
		t.Errorf("%d valuers kept for %d goroutines", n, workers)
	}
}

// TestValuesInTheChain searches a Trench position with two threads
// sharing a tree (run with -race) through the chain a bot builds with
// the values and the tactical aids, and checks the chain's description.
func TestValuesInTheChain(t *testing.T) {
	v := &Values{Evaluation: builtInNNUE(t), Quiescence: true}
	ev, doc := Chain(trench.Game, tactics.Fallback{}, v, tactics.Play, true)
	if !strings.Contains(doc, "values of nnue") || !strings.Contains(doc, "after its quiescence search") ||
		!strings.Contains(doc, "tactical aids") || !strings.Contains(doc, "symmetries") {
		t.Errorf("chain described as %q", doc)
	}
	tree, err := mcts.NewTree(trench.Game.Start(), mcts.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), ev, 200, 2); err != nil {
		t.Fatal(err)
	}
	var r mcts.Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	if r.Visits < 200 || !slices.Contains(trench.Game.Start().LegalActions(nil), r.Action) {
		t.Errorf("result %d visits, action %d", r.Visits, r.Action)
	}
}

// TestValuesOtherGames checks that the values refuse states their
// evaluation cannot value: another two-player game's, and a game of
// three players.
func TestValuesOtherGames(t *testing.T) {
	ev := Values{Evaluation: builtInNNUE(t)}.Wrap(mcts.UniformEvaluator{})
	for _, s := range []engine.State{tictactoe.Game{}.Start(), trichess.Game.Start()} {
		out := []mcts.Evaluation{{Actions: s.LegalActions(nil)}}
		err := ev.Evaluate([]engine.State{s}, out)
		if err == nil || !strings.Contains(err.Error(), s.Game().Name()) {
			t.Errorf("a %s state: error %v, want one naming the game", s.Game().Name(), err)
		}
	}
}
