package minimax

import (
	"context"
	"testing"

	"trench/engine"
	"trench/engine/trench"
)

// benchPositions are the start and a middle game with captures about.
var benchPositions = []string{
	trench.StartFEN,
	"5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 b 3 2 0 12",
}

// BenchmarkSearch searches each bench position to depth 3 with the shipped
// net and a fresh table, and reports nodes, net positions and net calls
// per second, batched at the frontier or not.
func BenchmarkSearch(b *testing.B) {
	for _, bc := range []struct {
		name  string
		batch bool
	}{{"batched", true}, {"unbatched", false}} {
		b.Run(bc.name, func(b *testing.B) {
			opts := DefaultOptions
			opts.Batch = bc.batch
			s := newSearcher(b, trench.Game, shippedNet(b), opts)
			states := make([]engine.State, len(benchPositions))
			for i, fen := range benchPositions {
				states[i] = parse(b, trench.Game, fen)
			}
			var total Result
			for b.Loop() {
				for _, st := range states {
					s.Clear()
					r, err := s.Search(context.Background(), st, Limits{Depth: 3})
					if err != nil {
						b.Fatal(err)
					}
					total.Nodes += r.Nodes
					total.NetStates += r.NetStates
					total.NetCalls += r.NetCalls
					total.Elapsed += r.Elapsed
				}
			}
			sec := total.Elapsed.Seconds()
			b.ReportMetric(float64(total.Nodes)/sec, "nodes/s")
			b.ReportMetric(float64(total.NetStates)/sec, "netpos/s")
			b.ReportMetric(float64(total.NetCalls)/sec, "netcalls/s")
		})
	}
}
