package bot

import (
	"context"
	"fmt"
	"testing"

	"trench/engine/trench"
	"trench/mcts"
	"trench/neteval"
	"trench/tactics"
)

// BenchmarkThreadedSearch plays Trench with a bot searching 400
// simulations a move (level 6), keeping its tree, with 1 and 2 threads:
// with the shipped net and the tactical aids, as trench play searches by
// default, and with the uniform evaluator and no aids, which measures the
// tree alone. It reports simulations per second.
func BenchmarkThreadedSearch(b *testing.B) {
	net, err := neteval.LoadNet(trench.Game, neteval.DefaultNet)
	if err != nil {
		b.Fatal(err)
	}
	off := tactics.Settings{}
	for _, ev := range []string{"net+aids", "uniform"} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", ev, threads), func(b *testing.B) {
				var bt *Bot
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
