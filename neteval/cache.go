package neteval

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"
)

// DefaultCacheEntries is the size of the cache New gives an evaluator:
// at the 2,000-4,000 net calls a move of a search at 200 ms, enough for
// the positions of the last twenty or so moves.
const DefaultCacheEntries = 1 << 16

// cacheShards spreads the cache over this many locks, so that concurrent
// searches rarely wait for one another.
const cacheShards = 64

// cache keeps the net's raw outputs for positions it has evaluated,
// keyed by a hash of the encoded features and the legal actions, so that
// a position reached again (a transposition in the tree, the same quiet
// position resolved from two leaves, a position searched on the previous
// move) costs no forward pass. Outputs are the policy logits of the legal
// actions, in their order, and every seat's win/draw/loss and score. Each
// shard is a direct-mapped table: a new entry replaces the old one in its
// slot. It is safe for concurrent use.
type cache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
	hits   atomic.Int64
	misses atomic.Int64
}

type cacheShard struct {
	mu      sync.Mutex
	entries []cacheEntry
}

// cacheEntry is one position's outputs: logits per legal action, then
// seats×3 win/draw/loss probabilities and seats scores in outs.
type cacheEntry struct {
	key  uint64
	used bool
	outs []float32
}

// newCache returns a cache of about entries positions (at least one per
// shard).
func newCache(entries int) *cache {
	c := &cache{seed: maphash.MakeSeed()}
	per := max(1, (entries+cacheShards-1)/cacheShards)
	for i := range c.shards {
		c.shards[i].entries = make([]cacheEntry, per)
	}
	return c
}

// key hashes a position's encoded features and legal actions.
func (c *cache) key(features []float32, actions []int) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	_, _ = h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(features))), 4*len(features)))
	_, _ = h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(actions))), int(unsafe.Sizeof(0))*len(actions)))
	return h.Sum64()
}

func (c *cache) slot(key uint64) (*cacheShard, *cacheEntry) {
	s := &c.shards[key%cacheShards]
	return s, &s.entries[(key/cacheShards)%uint64(len(s.entries))]
}

// get copies the outputs stored under key into dst (which must have
// their length) and reports whether there were any.
func (c *cache) get(key uint64, dst []float32) bool {
	s, e := c.slot(key)
	s.mu.Lock()
	ok := e.used && e.key == key && len(e.outs) == len(dst)
	if ok {
		copy(dst, e.outs)
	}
	s.mu.Unlock()
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return ok
}

// put stores a copy of outs under key.
func (c *cache) put(key uint64, outs []float32) {
	s, e := c.slot(key)
	s.mu.Lock()
	e.key, e.used = key, true
	e.outs = append(e.outs[:0], outs...)
	s.mu.Unlock()
}
