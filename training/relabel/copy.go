package relabel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"trench/datasets"
	"trench/engine"
	"trench/training/rundir"
)

// ShardLabeller gives the positions of one shard, in the order their
// games were played, new targets in place. A Labeller is one.
type ShardLabeller interface {
	Relabel(samples []datasets.Sample) error
}

// CopyOptions tune Copy.
type CopyOptions struct {
	// Positions bounds the work to the newest shards of the source that
	// hold at least this many positions; 0 takes every shard.
	Positions int
	// Workers is the number of shards relabelled at once, each by its own
	// goroutine and labeller (1 when 0).
	Workers int
	// Warnings receives a line for each source shard that cannot be read
	// and is skipped (nothing when nil).
	Warnings io.Writer
	// Progress, when set, is called after each shard is written, never
	// twice at once, with the positions done so far (copied now or found
	// copied before) and the positions of every shard to be done.
	Progress func(done, total int)
}

// Stats count what Copy did.
type Stats struct {
	// Shards and Positions are what this call relabelled and wrote.
	Shards, Positions int
	// Kept counts the shards the destination already held, from an
	// earlier call that was interrupted; they are left as they are.
	Kept int
	// Skipped counts the source shards that could not be read.
	Skipped int
}

// Copy copies the newest shards of directory src into directory dst
// (created if need be), each under its own name with its positions
// relabelled, on opt.Workers goroutines, each with its own labeller from
// newLabeller, whose error stops the copy. A shard dst already has is
// left alone, so a call that was interrupted resumes where it stopped;
// each shard is written atomically. src and dst must differ.
func Copy(ctx context.Context, g engine.Game, src, dst string, opt CopyOptions, newLabeller func() (ShardLabeller, error)) (Stats, error) {
	var st Stats
	if opt.Positions < 0 || opt.Workers < 0 {
		return st, fmt.Errorf("relabel: positions %d and workers %d must not be negative", opt.Positions, opt.Workers)
	}
	workers := max(1, opt.Workers)
	if same, err := rundir.SameDir(src, dst); err != nil {
		return st, fmt.Errorf("relabel: %w", err)
	} else if same {
		return st, fmt.Errorf("relabel: %s is both the source and the destination", src)
	}
	names, err := datasets.ShardNames(src)
	if err != nil {
		return st, fmt.Errorf("relabel: reading the source's shards: %w", err)
	}
	if len(names) == 0 {
		return st, fmt.Errorf("relabel: %s has no shards", src)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return st, err
	}
	// The shards to copy, newest first, until they and those copied
	// before hold the positions asked for.
	var jobs []string
	counted, done := 0, 0
	for i := len(names) - 1; i >= 0 && (opt.Positions == 0 || counted < opt.Positions); i-- {
		name := names[i]
		if kept, err := datasets.ReadShard(filepath.Join(dst, name), g); err == nil {
			st.Kept++
			counted += len(kept)
			done += len(kept)
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return st, fmt.Errorf("relabel: %w (delete it to relabel its shard again)", err)
		}
		samples, err := datasets.ReadShard(filepath.Join(src, name), g)
		if err != nil {
			st.Skipped++
			if opt.Warnings != nil {
				fmt.Fprintf(opt.Warnings, "warning: skipping shard: %v\n", err)
			}
			continue
		}
		jobs = append(jobs, name)
		counted += len(samples)
	}
	report := func(n int) {
		done += n
		if opt.Progress != nil {
			opt.Progress(done, counted)
		}
	}
	if st.Kept > 0 {
		report(0)
	}
	return st, copyShards(ctx, g, src, dst, jobs, newLabeller, workers, &st, report)
}

// copyShards relabels and writes the shards named jobs on workers
// goroutines, counting them in st and calling report (never two at once)
// with the positions of each shard written.
func copyShards(ctx context.Context, g engine.Game, src, dst string, jobs []string, newLabeller func() (ShardLabeller, error),
	workers int, st *Stats, report func(int)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan string)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for range min(workers, max(1, len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := newLabeller()
			if err != nil {
				fail(fmt.Errorf("relabel: %w", err))
				return
			}
			for name := range next {
				samples, err := datasets.ReadShard(filepath.Join(src, name), g)
				if err == nil {
					err = r.Relabel(samples)
				}
				if err != nil {
					fail(fmt.Errorf("relabel: %s: %w", filepath.Join(src, name), err))
					continue
				}
				if _, err := datasets.WriteShardNamed(dst, name, g, samples); err != nil {
					fail(fmt.Errorf("relabel: %w", err))
					continue
				}
				mu.Lock()
				st.Shards++
				st.Positions += len(samples)
				report(len(samples))
				mu.Unlock()
			}
		}()
	}
feed:
	for _, name := range jobs {
		select {
		case next <- name:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
