package datasets

import (
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"trench/engine"
	"trench/internal/shardfiles"
)

// WindowParams sets how many of the most recent positions the trainer
// samples from, and how. Up to Min positions, all of them; beyond, the
// window grows sublinearly, as in KataGo's shuffler:
//
//	window(N) = Min · (N/Min)^Exponent   for N > Min
//
// so old, weaker games leave the window while it still grows with the run.
type WindowParams struct {
	Min      int
	Exponent float64
	// SurpriseWeight in [0, 1] is the share of the sampling weight spread
	// in proportion to the positions' policy surprise (KataGo's policy
	// surprise weighting): position i is drawn with probability
	// proportional to (1−W) + W·s_i/mean(s), the mean taken over the
	// window's positions that have a surprise; those without one weigh
	// as the mean does, 1. The total weight stays the window's size. 0
	// draws uniformly.
	SurpriseWeight float64
}

// DefaultWindow is the window for ordinary runs.
var DefaultWindow = WindowParams{Min: 25000, Exponent: 0.65}

// Size returns the window for a total of n positions.
func (w WindowParams) Size(n int) int {
	if n <= w.Min || w.Min <= 0 {
		return n
	}
	return min(n, int(float64(w.Min)*math.Pow(float64(n)/float64(w.Min), w.Exponent)))
}

// shard is one loaded shard file.
type shard struct {
	name    string
	samples []Sample
}

// Window holds the positions of a shard directory's most recent shards and
// samples from the most recent window of them. Call Refresh to pick up new
// shards.
type Window struct {
	dir    string
	game   engine.Game
	params WindowParams
	warn   io.Writer

	shards []shard
	// total counts every position of every valid shard seen, including
	// shards since dropped from memory.
	total int
	// games counts the games of every valid shard seen.
	games int
	seen  map[string]bool

	// For draws weighted by surprise, rebuilt after the window changes
	// (stale): the running total of the weights of the window's
	// positions, newest first (as at counts them).
	cum   []float64
	stale bool
}

// NewWindow returns a window over the shards in dir. Warnings about
// unreadable shards go to warn.
func NewWindow(dir string, g engine.Game, params WindowParams, warn io.Writer) *Window {
	return &Window{dir: dir, game: g, params: params, warn: warn, seen: map[string]bool{}}
}

// ShardNames lists the shard files of dir, oldest first.
func ShardNames(dir string) ([]string, error) { return shardfiles.Names(dir, ".npz") }

// Refresh loads shards written since the last call. A shard that cannot be
// read is skipped with a warning naming the file, and not tried again. It
// returns the number of new positions.
func (w *Window) Refresh() (int, error) {
	loaded, err := shardfiles.LoadNew(w.dir, ".npz", w.seen, w.warn, func(name string) (shard, error) {
		samples, err := ReadShard(filepath.Join(w.dir, name), w.game)
		return shard{name, samples}, err
	})
	if err != nil {
		return 0, err
	}
	added := 0
	for _, s := range loaded {
		w.shards = append(w.shards, s)
		w.total += len(s.samples)
		for i := range s.samples {
			if i == 0 || s.samples[i].GameID != s.samples[i-1].GameID {
				w.games++
			}
		}
		added += len(s.samples)
	}
	// Shards are named by creation time; several writers may interleave.
	slices.SortStableFunc(w.shards, func(a, b shard) int { return strings.Compare(a.name, b.name) })
	w.dropOld()
	if added > 0 {
		w.stale = true
	}
	return added, nil
}

// dropOld forgets shards entirely outside the window.
func (w *Window) dropOld() {
	size := w.params.Size(w.total)
	held := 0
	for _, s := range w.shards {
		held += len(s.samples)
	}
	for len(w.shards) > 1 && held-len(w.shards[0].samples) >= size {
		held -= len(w.shards[0].samples)
		w.shards = w.shards[1:]
	}
}

// Games is the number of games seen in all shards.
func (w *Window) Games() int { return w.games }

// Total is the number of positions seen in all shards.
func (w *Window) Total() int { return w.total }

// Size is the number of positions in the window.
func (w *Window) Size() int {
	held := 0
	for _, s := range w.shards {
		held += len(s.samples)
	}
	return min(held, w.params.Size(w.total))
}

// Sample returns a position drawn uniformly from the window. The window
// must not be empty.
func (w *Window) Sample(rng *rand.Rand) *Sample {
	return w.at(rng.IntN(w.Size()))
}

// at returns the window's i-th newest position, counting back from the
// newest shard.
func (w *Window) at(i int) *Sample {
	for j := len(w.shards) - 1; j >= 0; j-- {
		rs := w.shards[j].samples
		if i < len(rs) {
			return &rs[len(rs)-1-i]
		}
		i -= len(rs)
	}
	panic("datasets: window size exceeds the positions held")
}

// draw returns a position of the window for a training batch: uniformly
// (Sample) without a surprise weight, else weighted by surprise as
// WindowParams.SurpriseWeight says. The window must not be empty.
func (w *Window) draw(rng *rand.Rand) *Sample {
	if w.params.SurpriseWeight == 0 {
		return w.Sample(rng)
	}
	if w.stale || len(w.cum) == 0 {
		w.weigh()
	}
	x := rng.Float64() * w.cum[len(w.cum)-1]
	// The first position whose running total passes x.
	last := len(w.cum) - 1
	return w.at(sort.Search(last, func(i int) bool { return w.cum[i] > x }))
}

// weigh sets the running total of the surprise weights of the window's
// positions, newest first.
func (w *Window) weigh() {
	size := w.Size()
	sum, n := 0.0, 0
	w.each(size, func(r *Sample) {
		if r.Surprise != nil {
			sum += float64(*r.Surprise)
			n++
		}
	})
	sw := w.params.SurpriseWeight
	w.cum = w.cum[:0]
	total := 0.0
	w.each(size, func(r *Sample) {
		weight := 1.0
		if r.Surprise != nil && sum > 0 {
			weight = 1 - sw + sw*float64(*r.Surprise)*float64(n)/sum
		}
		total += weight
		w.cum = append(w.cum, total)
	})
	w.stale = false
}

// Newest calls f on the window's n newest positions, newest first (all of
// them if it holds fewer).
func (w *Window) Newest(n int, f func(*Sample)) { w.each(n, f) }

// each calls f on the window's size newest positions, newest first.
func (w *Window) each(size int, f func(*Sample)) {
	for j := len(w.shards) - 1; j >= 0 && size > 0; j-- {
		rs := w.shards[j].samples
		for k := len(rs) - 1; k >= 0 && size > 0; k-- {
			f(&rs[k])
			size--
		}
	}
}
