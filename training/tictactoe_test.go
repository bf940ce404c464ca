package training

import (
	"context"
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"trench/checkpoints"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/mcts"
	"trench/neteval"
	"trench/nn"
)

// chooser picks a move in a tic-tac-toe state.
type chooser func(s *tictactoe.State) (int, error)

// perfect plays a random move among those minimax proves best.
func perfect(rng *rand.Rand) chooser {
	return func(s *tictactoe.State) (int, error) {
		_, best := tictactoe.Solve(s)
		return best[rng.IntN(len(best))], nil
	}
}

// policyPlayer plays the net's most likely legal move, without search.
func policyPlayer(ev *neteval.Evaluator) chooser {
	return func(s *tictactoe.State) (int, error) {
		out := []mcts.Evaluation{{Actions: s.LegalActions(nil)}}
		if err := ev.Evaluate([]engine.State{s}, out); err != nil {
			return 0, err
		}
		best := 0
		for i, p := range out[0].Policy {
			if p > out[0].Policy[best] {
				best = i
			}
		}
		return out[0].Actions[best], nil
	}
}

// searchPlayer plays the move of a PUCT search guided by the net.
func searchPlayer(ev *neteval.Evaluator, sims int) chooser {
	return func(s *tictactoe.State) (int, error) {
		tree, err := mcts.NewTree(s, mcts.DefaultParams())
		if err != nil {
			return 0, err
		}
		if err := tree.Search(context.Background(), ev, sims, 1); err != nil {
			return 0, err
		}
		var r mcts.Result
		if err := tree.Result(&r); err != nil {
			return 0, err
		}
		return r.Action, nil
	}
}

// losses counts the games player loses against perfect play, over games
// games with each colour.
func losses(t *testing.T, player chooser, games int) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	lost := 0
	for g := 0; g < 2*games; g++ {
		seat := g % 2
		s := tictactoe.Game{}.Start().(*tictactoe.State)
		for !s.Over() {
			choose := perfect(rng)
			if s.ToMove() == seat {
				choose = player
			}
			a, err := choose(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.PlayChecked(s, a); err != nil {
				t.Fatal(err)
			}
		}
		if s.Result(nil)[seat] < 0 {
			lost++
		}
	}
	return lost
}

// TestLearnsTicTacToe trains tic-tac-toe from scratch with the same
// self-play, datasets and trainer code as Trench, in rounds, until the
// net's policy alone and the net with search both never lose against
// perfect play over 100 games with each colour.
func TestLearnsTicTacToe(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for about two minutes")
	}
	dir := filepath.Join(t.TempDir(), "run")
	c := tinyConfig(t)
	c.Game, c.Net, c.CheapSims, c.MinPositions, c.CheckpointEvery = "tictactoe", "small", 8, 500, 100
	// Every move is sampled from the search's visits (nine-ply games need
	// the whole game explored, or perfect play finds the lines self-play
	// never tried) and every move is a full search.
	c.Search, c.FullSims, c.FullFraction, c.OpeningPlies = "puct", 64, 1, 9
	c.BatchSize, c.LearningRate, c.ReplayRatio = 64, 0.01, 4
	opt := Options{Progress: io.Discard, Warnings: io.Discard}
	const round, limit = 200, 2000
	for c.Steps = round; c.Steps <= limit; c.Steps += round {
		c2, err := Prepare(dir, c, []string{"steps"})
		if err != nil {
			t.Fatal(err)
		}
		if err := Run(context.Background(), dir, c2, opt); err != nil {
			t.Fatal(err)
		}
		path, err := checkpoints.Latest(dir)
		if err != nil {
			t.Fatal(err)
		}
		w, _, err := nn.LoadWeights(path, tictactoe.Game{}.FeatureShape(), tictactoe.Game{}.ActionCount())
		if err != nil {
			t.Fatal(err)
		}
		inf, err := nn.NewInference(w)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := neteval.New(tictactoe.Game{}, inf)
		if err != nil {
			t.Fatal(err)
		}
		lp, ls := losses(t, policyPlayer(ev), 100), losses(t, searchPlayer(ev, 64), 100)
		t.Logf("after %d steps: the policy lost %d and the search %d of 200 games against perfect play", c.Steps, lp, ls)
		if lp == 0 && ls == 0 {
			return
		}
	}
	t.Fatalf("still losing against perfect play after %d training steps", limit)
}
