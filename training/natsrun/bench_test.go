package natsrun

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"trench/engine/trench"
	"trench/internal/atomicfile"
)

// benchShardGames is the games per shard of the quick preset.
const benchShardGames = 16

// BenchmarkTransport measures the transport alone on loopback: four
// publishers send shards of 16 random games to one trainer consumer,
// which validates each and writes it into a datasets folder. It reports
// shards and megabytes per second through the whole path.
func BenchmarkTransport(b *testing.B) {
	s := startServer(b, b.TempDir(), -1, 0)
	nc := connect(b, s)
	ctx := context.Background()
	r, err := Create(ctx, nc, "bench", testMeta())
	if err != nil {
		b.Fatal(err)
	}
	data := shardBytes(b, rand.New(rand.NewPCG(5, 5)), benchShardGames)
	var stats ConsumeStats
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() {
		done <- r.Consume(cctx, ConsumeOptions{Dir: filepath.Join(b.TempDir(), "datasets"), Game: trench.Game, Warnings: testWriter{b}}, &stats)
	}()
	const publishers = 4
	// A loaded disk can hold the server's answer back for seconds.
	pctx, pcancel := context.WithTimeout(ctx, 10*time.Minute)
	defer pcancel()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for p := 0; p < publishers; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := p; i < b.N; i += publishers {
				if err := r.PublishShard(pctx, Shard{Worker: fmt.Sprint("w", p), ID: fmt.Sprint(i), Data: data}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for stats.Written.Load() < int64(b.N) && !b.Failed() {
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "shards/s")
	b.ReportMetric(float64(len(data)), "bytes/shard")
}

// BenchmarkPublishShard measures what publishing costs one worker: a
// shard of 16 games published and stored, one at a time. Divided by 16 it
// is the added cost per self-play game.
func BenchmarkPublishShard(b *testing.B) {
	s := startServer(b, b.TempDir(), -1, 0)
	nc := connect(b, s)
	ctx := context.Background()
	r, err := Create(ctx, nc, "bench", testMeta())
	if err != nil {
		b.Fatal(err)
	}
	data := shardBytes(b, rand.New(rand.NewPCG(6, 6)), benchShardGames)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.PublishShard(ctx, Shard{Worker: "w", ID: fmt.Sprint(i), Data: data}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchShardGames, "ns/game")
}

// BenchmarkWriteShardFile measures what the trainer pays for a shard
// without any transport: the atomic write into the datasets folder that
// every shard, local or not, goes through.
func BenchmarkWriteShardFile(b *testing.B) {
	data := shardBytes(b, rand.New(rand.NewPCG(6, 6)), benchShardGames)
	dir := b.TempDir()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := atomicfile.Write(filepath.Join(dir, fmt.Sprintf("shard-%d.npz", i)), data); err != nil {
			b.Fatal(err)
		}
	}
}

// testWriter sends warnings to the benchmark's log.
type testWriter struct{ tb testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.tb.Log(string(p))
	return len(p), nil
}
