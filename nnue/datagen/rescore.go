package datagen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"trench/alphabeta"
	trichessab "trench/alphabeta/trichess"
	"trench/internal/atomicfile"
	"trench/nnue/data"
)

// Rescorer searches stored positions again: what a Player or a
// TrichessPlayer does to each position of its games, without playing
// them.
type Rescorer[R any] interface {
	// Clear forgets earlier searches, before a shard.
	Clear()
	// Rescore searches r's position at the player's node budget and
	// replaces r's search score (Trench) or leads (Trichess) with the
	// search's. It reports false for a position the player's games would
	// have left out: its best move captures, or its score is a finished
	// game's, unless the config keeps those. The game's result or titles
	// stay.
	Rescore(ctx context.Context, r *R) (bool, error)
}

// keeps tells whether a searched position is stored: its best move
// captures or not, its score forced (±1) or not (0).
func (c Config) keeps(capture bool, forced int) bool {
	return (c.KeepCaptures || !capture) && (c.KeepForced || forced == 0)
}

// Clear forgets the engine's earlier searches.
func (g *Player) Clear() { g.e.Clear() }

// Rescore searches r's position with the player's engine (Rescorer).
// The player's relabel is not applied.
func (g *Player) Rescore(ctx context.Context, r *data.Record) (bool, error) {
	res, err := g.e.Search(ctx, r.Position, alphabeta.Limits{SoftNodes: g.cfg.SoftNodes, Nodes: g.cfg.HardNodes})
	if err != nil {
		return false, err
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if !g.cfg.keeps(r.Position.Captured(res.Move) != 0, res.Forced()) {
		return false, nil
	}
	r.Score = data.ClampScore(res.Score)
	return true, nil
}

// Clear forgets the searcher's earlier searches.
func (g *TrichessPlayer) Clear() { g.s.Clear() }

// Rescore searches r's position with the player's searcher (Rescorer),
// every seat's lead as its games store them (SeatLeads).
func (g *TrichessPlayer) Rescore(ctx context.Context, r *data.TrichessRecord) (bool, error) {
	res, err := g.s.Search(ctx, r.Position, trichessab.Limits{SoftNodes: g.cfg.SoftNodes, Nodes: g.cfg.HardNodes})
	if err != nil {
		return false, err
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if _, _, capture := r.Position.PieceAt(res.Move.To()); !g.cfg.keeps(capture, res.Forced()) {
		return false, nil
	}
	for c, l := range g.s.SeatLeads(&r.Position, res) {
		r.Leads[c] = data.ClampScore(l)
	}
	return true, nil
}

// NewestShards returns the names of the newest shards in dir that hold
// at least positions records between them (all of them for 0), oldest
// first, and the records they hold, read from their headers.
func NewestShards[R any](codec *data.Codec[R], dir string, positions int) ([]string, int, error) {
	names, err := data.ShardNames(dir)
	if err != nil {
		return nil, 0, err
	}
	total, first := 0, len(names)
	for first > 0 && (positions == 0 || total < positions) {
		n, err := codec.ShardCount(filepath.Join(dir, names[first-1]))
		if err != nil {
			return nil, 0, err
		}
		total += n
		first--
	}
	return names[first:], total, nil
}

// RescoreJob copies shards from one directory to another, each record
// searched again.
type RescoreJob[R any] struct {
	// Src and Dst are the directories; Dst must exist. Shards names the
	// shards of Src to copy, under the same names in Dst.
	Src, Dst string
	Shards   []string
	// Workers is the shards searched at once, each by its own Rescorer.
	Workers int
	// Codec reads and writes the shards.
	Codec *data.Codec[R]
	// NewRescorer returns a fresh rescorer for one worker.
	NewRescorer func() (Rescorer[R], error)
	// Progress, if set, is called (never at once) first and after each
	// shard with the records of the job's source shards done so far,
	// those already copied to Dst included.
	Progress func(records int)
	// Done, if set, is called (never at once) after each shard written,
	// e.g. to keep the job's time across stops; its error stops the job.
	Done func() error
	// Warnings receives a line for each shard of Src that does not
	// decode, which is skipped.
	Warnings io.Writer
}

// RescoreStats is what a Rescore call did.
type RescoreStats struct {
	// Shards and Positions are the shards written by this call and the
	// records they kept; Dropped the records left out (Rescorer).
	Shards, Positions, Dropped int
	// Existing counts the shards already in Dst, left as they are;
	// Unreadable the shards of Src skipped.
	Existing, Unreadable int
}

// Rescore copies the job's shards from Src to Dst, each record searched
// again by a Rescorer, every shard with a rescorer cleared before it so
// that its scores depend on the shard alone. A shard already in Dst is
// kept (the copy of a stopped job resumes), and each is written
// atomically. When ctx is done it returns ctx's error after the shards
// finished.
func Rescore[R any](ctx context.Context, job RescoreJob[R]) (RescoreStats, error) {
	if job.Workers < 1 {
		return RescoreStats{}, fmt.Errorf("datagen: %d workers: want at least 1", job.Workers)
	}
	if job.NewRescorer == nil || job.Codec == nil {
		return RescoreStats{}, errors.New("datagen: no rescorer or no codec")
	}
	var (
		mu      sync.Mutex
		st      RescoreStats
		done    int
		firstEr error
		todo    []string
	)
	for _, name := range job.Shards {
		_, err := job.Codec.ShardCount(filepath.Join(job.Dst, name))
		switch {
		case err == nil:
			st.Existing++
			if n, err := job.Codec.ShardCount(filepath.Join(job.Src, name)); err == nil {
				done += n
			}
		case errors.Is(err, os.ErrNotExist):
			todo = append(todo, name)
		default:
			return st, fmt.Errorf("datagen: %w", err)
		}
	}
	if job.Progress != nil {
		job.Progress(done)
	}
	names := make(chan string)
	var wg sync.WaitGroup
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstEr == nil {
			firstEr = err
		}
	}
	for range min(job.Workers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs, err := job.NewRescorer()
			if err != nil {
				fail(err)
				for range names {
				}
				return
			}
			for name := range names {
				kept, dropped, err := rescoreShard(ctx, job, rs, name)
				mu.Lock()
				switch {
				case data.Undecodable(err):
					st.Unreadable++
					if job.Warnings != nil {
						fmt.Fprintf(job.Warnings, "warning: skipping shard %s: %v\n", filepath.Join(job.Src, name), err)
					}
					if n, cerr := job.Codec.ShardCount(filepath.Join(job.Src, name)); cerr == nil {
						done += n
						if job.Progress != nil {
							job.Progress(done)
						}
					}
					err = nil
				case err == nil:
					st.Shards++
					st.Positions += kept
					st.Dropped += dropped
					done += kept + dropped
					if job.Progress != nil {
						job.Progress(done)
					}
					if job.Done != nil {
						err = job.Done()
					}
				}
				if err != nil && firstEr == nil {
					firstEr = err
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, name := range todo {
		mu.Lock()
		stop := firstEr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case names <- name:
		case <-ctx.Done():
			break feed
		}
	}
	close(names)
	wg.Wait()
	if firstEr == nil {
		firstEr = ctx.Err()
	}
	return st, firstEr
}

// rescoreShard copies shard name with rs and returns the records it
// kept and dropped; an error of a shard that does not decode wraps the
// codec's.
func rescoreShard[R any](ctx context.Context, job RescoreJob[R], rs Rescorer[R], name string) (kept, dropped int, err error) {
	src := filepath.Join(job.Src, name)
	records, err := job.Codec.ReadShard(src)
	if err != nil {
		return 0, 0, err
	}
	rs.Clear()
	out := records[:0]
	for i := range records {
		keep, err := rs.Rescore(ctx, &records[i])
		if err != nil {
			return 0, 0, fmt.Errorf("datagen: %s, record %d: %w", src, i, err)
		}
		if keep {
			out = append(out, records[i])
		}
	}
	buf, err := job.Codec.EncodeShard(out)
	if err != nil {
		return 0, 0, fmt.Errorf("datagen: %s: %w", src, err)
	}
	dst := filepath.Join(job.Dst, name)
	if err := atomicfile.Create(dst, buf); err != nil {
		return 0, 0, fmt.Errorf("datagen: writing %s: %w", dst, err)
	}
	return len(out), len(records) - len(out), nil
}
