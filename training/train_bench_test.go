package training

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"trench/datasets"
	"trench/engine/trench"
	"trench/nn"
)

// randomShards writes shards of n positions of random Trench games into
// dir, a quarter of them full searches with a policy target on up to
// four moves and a surprise.
func randomShards(tb testing.TB, dir string, n int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	var samples []datasets.Sample
	for id := int64(0); n > 0; id++ {
		s := trench.Game.Start()
		var game []datasets.Sample
		for ply := 0; ply < 80 && !s.Over() && n > 0; ply, n = ply+1, n-1 {
			acts := s.LegalActions(nil)
			r := datasets.Sample{State: s.String(), ToMove: s.ToMove(), GameID: id, SearchValue: []float32{0, 0}, FullSearch: rng.IntN(4) == 0}
			if r.FullSearch {
				k := min(4, len(acts))
				for j := range k {
					r.Actions = append(r.Actions, int32(acts[j]))
					r.Probs = append(r.Probs, 1/float32(k))
				}
				surprise := float32(rng.ExpFloat64())
				r.Surprise = &surprise
			}
			game = append(game, r)
			s.Play(acts[rng.IntN(len(acts))])
		}
		result, score := s.Result(nil), s.Scores(nil)
		for i := range game {
			game[i].Result, game[i].Score = result, score
		}
		samples = append(samples, game...)
		if len(samples) >= 2000 || n == 0 {
			if _, err := datasets.WriteShard(dir, trench.Game, samples); err != nil {
				tb.Fatal(err)
			}
			samples = nil
		}
	}
}

// BenchmarkTrainStep measures the trainer's loop body on the compact net:
// a batch of 128 drawn from a window of 20,000 positions, converted, and
// one optimizer step; uniformly and weighted by policy surprise.
func BenchmarkTrainStep(b *testing.B) {
	dir := b.TempDir()
	randomShards(b, dir, 20000)
	c, err := Preset("quick")
	if err != nil {
		b.Fatal(err)
	}
	for _, sw := range []float64{0, 0.5} {
		b.Run(fmt.Sprintf("surprise=%g", sw), func(b *testing.B) {
			c.PolicySurprise = sw
			win := datasets.NewWindow(dir, trench.Game, c.Window(), io.Discard)
			if _, err := win.Refresh(); err != nil {
				b.Fatal(err)
			}
			nc, err := nn.PresetFor(c.Net, trench.Game)
			if err != nil {
				b.Fatal(err)
			}
			nc.ValueBase = nn.ValueBaseMaterial
			w, err := nn.NewWeights(nc, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				b.Fatal(err)
			}
			t, err := nn.NewTrainer(w, c.TrainConfig())
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(2, 2))
			var (
				batch datasets.Batch
				nb    nn.Batch
			)
			for b.Loop() {
				if err := win.Fill(&batch, c.BatchSize, rng, true); err != nil {
					b.Fatal(err)
				}
				toNN(&batch, &nb, nc.Seats, nc.ValueBase, 0)
				if _, err := t.Step(nb); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*c.BatchSize)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}
