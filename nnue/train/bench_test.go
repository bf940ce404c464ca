package train

import (
	"fmt"
	"testing"

	"trench/nnue/data"
)

// benchBatch is the batch size of the benchmarks.
const benchBatch = 16384

// BenchmarkStep measures training steps on batches of random-game
// positions, reporting positions per second, for H = 128 and 256 on one
// and two threads.
func BenchmarkStep(b *testing.B) {
	records := randomGames(b, 100, 10, scoreDifference)
	batch := make([]data.Record, benchBatch)
	for i := range batch {
		batch[i] = records[i%len(records)]
	}
	for _, h := range []int{128, 256} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("H=%d/threads=%d", h, threads), func(b *testing.B) {
				cfg := DefaultConfig()
				cfg.Threads = threads
				tr, err := New(cfg, h, 1)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					tr.Step(batch)
				}
				b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "positions/s")
			})
		}
	}
}

// BenchmarkValidationLoss measures the forward pass alone, one thread.
func BenchmarkValidationLoss(b *testing.B) {
	records := randomGames(b, 100, 10, scoreDifference)
	tr, err := New(DefaultConfig(), 128, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr.ValidationLoss(records)
	}
	b.ReportMetric(float64(b.N*len(records))/b.Elapsed().Seconds(), "positions/s")
}
