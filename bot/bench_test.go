package bot

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
	"trench/tactics"
)

// BenchmarkThreadedSearch plays Trench with a bot searching 400
// simulations a move (level 6), keeping its tree, with 1 and 2 threads:
// with the shipped net and the tactical aids, as trench play searches by
// default, and with the uniform evaluator and no aids, which measures the
// tree alone. It reports simulations per second.
func BenchmarkThreadedSearch(b *testing.B) {
	net, err := neteval.LoadNet(trench.Game, shipped.Ref)
	if err != nil {
		b.Fatal(err)
	}
	off := tactics.Settings{}
	for _, ev := range []string{"net+aids", "uniform"} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", ev, threads), func(b *testing.B) {
				var bt Bot
				var err error
				if ev == "uniform" {
					bt, err = NewWithEvaluator(trench.Game, mcts.UniformEvaluator{}, "uniform", Options{Threads: threads, Tactics: &off})
				} else {
					bt, err = New(trench.Game, net, Options{Threads: threads})
				}
				if err != nil {
					b.Fatal(err)
				}
				sims := 0
				for b.Loop() {
					a, err := bt.Search(context.Background(), Limits{Sims: 400})
					if err != nil {
						b.Fatal(err)
					}
					sims += a.Sims
					if err := bt.Play(a.Action); err != nil {
						b.Fatal(err)
					}
					if bt.Position().Over() {
						if err := bt.SetPosition(trench.Game.Start()); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
			})
		}
	}
}

// BenchmarkAlphaBetaBot plays Trench with a bot of the alphabeta kind
// searching 30000 nodes a move (level 4), keeping its table, with the
// built-in NNUE and with the hand-written evaluation, starting a new
// game when one ends. It reports nodes per second, the bot's analysis
// included.
func BenchmarkAlphaBetaBot(b *testing.B) {
	for _, eval := range []string{"nnue", "hand"} {
		b.Run(eval, func(b *testing.B) {
			c := searchconfig.Play()
			c.Kind, c.Eval, c.Endgame = searchconfig.AlphaBeta, eval, 0
			bt, err := Load(trench.Game, c, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			nodes := 0
			for b.Loop() {
				a, err := bt.Search(context.Background(), Limits{Nodes: 30000})
				if err != nil {
					b.Fatal(err)
				}
				nodes += a.Nodes
				if err := bt.Play(a.Action); err != nil {
					b.Fatal(err)
				}
				if bt.Position().Over() {
					bt.NewGame()
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkLeafValues evaluates the positions of random Trench games
// one at a time, as a thread of the tree search evaluates its leaves,
// with the evaluator a bot without a net and without tactical aids
// builds for each value setting: the material evaluation (net), the
// built-in NNUE at the leaf (nnue) and after alphabeta's quiescence
// (qnnue), each with capture-first priors. It reports positions per
// second.
func BenchmarkLeafValues(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 9))
	var states []engine.State
	s := trench.Game.Start()
	for len(states) < 256 {
		if s.Over() {
			s = trench.Game.Start()
		}
		states = append(states, s.Clone())
		acts := s.LegalActions(nil)
		s.Play(acts[rng.IntN(len(acts))])
	}
	acts := make([][]int, len(states))
	for i, st := range states {
		acts[i] = st.LegalActions(nil)
	}
	for _, value := range []string{searchconfig.ValueNet, searchconfig.ValueNNUE, searchconfig.ValueQNNUE} {
		b.Run(value, func(b *testing.B) {
			c := searchconfig.Arena()
			c.Net, c.Value = searchconfig.NoNet, value
			values, err := Values(trench.Game, c)
			if err != nil {
				b.Fatal(err)
			}
			ev, _ := neteval.Chain(trench.Game, tactics.Fallback{}, values, tactics.Settings{}, false)
			one, out := make([]engine.State, 1), make([]mcts.Evaluation, 1)
			n := 0
			for b.Loop() {
				i := n % len(states)
				one[0], out[0].Actions = states[i], acts[i]
				if err := ev.Evaluate(one, out); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
