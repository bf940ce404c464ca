package train

import (
	"fmt"
	"testing"

	"trench/nnue"
	"trench/nnue/data"
)

// benchBatch is the batch size of the benchmarks.
const benchBatch = 16384

// benchBatchOf returns a batch of benchBatch random-game positions.
func benchBatchOf(b *testing.B) data.Records {
	records := randomGames(b, 100, 10, scoreDifference)
	batch := make(data.Records, benchBatch)
	for i := range batch {
		batch[i] = records[i%len(records)]
	}
	return batch
}

// benchStep measures training steps on batch with h hidden units and
// threads threads. It reports positions per second of wall time and, on
// a shared machine the fairer figure, per second of the process's CPU
// time (per core busy).
func benchStep(b *testing.B, batch Batch, h, threads int) {
	cfg := DefaultConfig()
	cfg.Threads = threads
	tr, err := New(cfg, batch.Set(), h, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		tr.Step(batch)
	}
	n := float64(b.N * batch.Len())
	b.ReportMetric(n/b.Elapsed().Seconds(), "positions/s")
	if cpu := processCPU() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(n/cpu.Seconds(), "positions/cpu-s")
	}
}

// BenchmarkStep measures training steps for H = 128 and 256 on one and
// two threads.
func BenchmarkStep(b *testing.B) {
	batch := benchBatchOf(b)
	for _, h := range []int{128, 256} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("H=%d/threads=%d", h, threads), func(b *testing.B) {
				benchStep(b, batch, h, threads)
			})
		}
	}
}

// BenchmarkValidationLoss measures the forward pass alone, one thread.
func BenchmarkValidationLoss(b *testing.B) {
	records := randomGames(b, 100, 10, scoreDifference)
	tr, err := New(DefaultConfig(), nnue.Trench, 128, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		tr.ValidationLoss(records)
	}
	n := float64(b.N * len(records))
	b.ReportMetric(n/b.Elapsed().Seconds(), "positions/s")
	if cpu := processCPU() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(n/cpu.Seconds(), "positions/cpu-s")
	}
}

// BenchmarkTrichessStep measures Trichess training steps (three outputs
// a position) for H = 128 on one and two threads.
func BenchmarkTrichessStep(b *testing.B) {
	records := randomTrichessGames(b, 10, 10)
	batch := make(data.TrichessRecords, benchBatch)
	for i := range batch {
		batch[i] = records[i%len(records)]
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("H=128/threads=%d", threads), func(b *testing.B) {
			benchStep(b, batch, 128, threads)
		})
	}
}
