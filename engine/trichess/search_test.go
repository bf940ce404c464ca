package trichess_test

import (
	"context"
	"testing"

	"trench/engine/trichess"
	"trench/mcts"
)

// search runs sims simulations from the state with the uniform evaluator.
func search(t *testing.T, fen string, sims int, alg mcts.Algorithm) mcts.Result {
	t.Helper()
	s, err := trichess.Game.ParseState(fen)
	if err != nil {
		t.Fatal(err)
	}
	params := mcts.DefaultParams()
	params.Algorithm = alg
	params.GumbelScale = 0
	tree, err := mcts.NewTree(s, params)
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), mcts.UniformEvaluator{}, sims, 2); err != nil {
		t.Fatal(err)
	}
	var r mcts.Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	if len(r.Value) != 3 || len(r.Actions) != len(s.LegalActions(nil)) {
		t.Fatalf("%s: %d values and %d root actions, want 3 and %d", fen, len(r.Value), len(r.Actions), len(s.LegalActions(nil)))
	}
	return r
}

func TestSearchStart(t *testing.T) {
	for _, alg := range []mcts.Algorithm{mcts.PUCT, mcts.Gumbel} {
		r := search(t, trichess.StartFEN, 400, alg)
		if r.Visits < 400 {
			t.Errorf("algorithm %v: %d root visits after 400 simulations", alg, r.Visits)
		}
	}
}

func TestSearchFindsEchecEtFat(t *testing.T) {
	// Wd1Wd4 checks Red's king on Wa4 and Black's on Wh4 at once: the game
	// ends with White seigneur, worth 1 to White.
	const fenWithRook = "3wR3wK/8/8/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10"
	s, err := trichess.Game.ParseState(fenWithRook)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.ParseAction("Wd1Wd4")
	if err != nil {
		t.Fatal(err)
	}
	for _, alg := range []mcts.Algorithm{mcts.PUCT, mcts.Gumbel} {
		r := search(t, fenWithRook, 300, alg)
		if r.Action != want || r.Value[0] < 0.5 {
			t.Errorf("algorithm %v: chose %s with values %v, want Wd1Wd4 worth about 1 to White", alg, s.ActionString(r.Action), r.Value)
		}
	}
}
