package data

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"sort"

	"trench/internal/shardfiles"
)

// WindowConfig sets what a Window samples from.
type WindowConfig struct {
	// Newest is how many of the newest training positions the window
	// samples from; shards wholly older than that are dropped.
	Newest int
	// Holdout in [0, 1) is the share of games held out for validation,
	// chosen by game id and Seed: a game is either all training or all
	// validation, so validation positions are not near-copies of
	// training ones. Game ids must be unique across the directory.
	Holdout float64
	// Seed picks which games are held out.
	Seed uint64
	// TDLambda, if above 0, gives each record its λ-return (returns.go,
	// Codec.Returns) within its shard, the records' scores read with
	// ScoreScale; Sample and Validation then serve them beside the
	// records. Shards must hold whole games, as data generation writes
	// them.
	TDLambda, ScoreScale float64
}

// HeldOut reports whether game id is held out for validation under
// fraction and seed: a hash of both, so the choice is fixed.
func HeldOut(id uint64, fraction float64, seed uint64) bool {
	x := id ^ seed*0x9e3779b97f4a7c15
	// splitmix64's finaliser.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/(1<<53) < fraction
}

// windowShard is one loaded shard: its checked records, encoded, split
// into training and held-out games, and their λ-returns (Codec.Values a
// record) if the window has them.
type windowShard struct {
	name             string
	train, val       []byte
	trainRet, valRet []float32
}

// Window samples training positions uniformly from the newest positions
// of a directory of one game's shards, and serves the held-out games of
// the same shards for validation. It keeps records encoded (the codec's
// Size bytes each) and decodes those it serves. Call Refresh to pick up
// new shards. A Window is not safe for concurrent use.
type Window[R any] struct {
	codec *Codec[R]
	dir   string
	cfg   WindowConfig
	warn  io.Writer

	shards []windowShard
	seen   map[string]bool
	// cum[j] is the number of training records in shards[j:], so that
	// the newest first counting of Sample is a binary search.
	cum []int
}

// NewWindow returns a window over the Trench shards of dir
// (Trench.NewWindow).
func NewWindow(dir string, cfg WindowConfig, warn io.Writer) (*Window[Record], error) {
	return Trench.NewWindow(dir, cfg, warn)
}

// NewWindow returns a window over the game's shards in dir. Warnings
// about shards that cannot be read, of another game's among them, go to
// warn.
func (c *Codec[R]) NewWindow(dir string, cfg WindowConfig, warn io.Writer) (*Window[R], error) {
	if cfg.Newest <= 0 {
		return nil, fmt.Errorf("window of %d positions: want at least 1", cfg.Newest)
	}
	if !(cfg.Holdout >= 0 && cfg.Holdout < 1) {
		return nil, fmt.Errorf("holdout %v: want a fraction in [0, 1)", cfg.Holdout)
	}
	if !(cfg.TDLambda >= 0 && cfg.TDLambda < 1) {
		return nil, fmt.Errorf("td-lambda %v: want a weight in [0, 1)", cfg.TDLambda)
	}
	if cfg.TDLambda > 0 && !(cfg.ScoreScale > 0) {
		return nil, fmt.Errorf("score scale %v: the λ-returns want one above 0", cfg.ScoreScale)
	}
	return &Window[R]{codec: c, dir: dir, cfg: cfg, warn: warn, seen: map[string]bool{}}, nil
}

// Refresh loads the shards written since the last call, oldest first.
// A shard that cannot be read is skipped with a warning naming the file
// and the record at fault, and not tried again. It returns the number of
// positions added.
func (w *Window[R]) Refresh() (int, error) {
	loaded, err := shardfiles.LoadNew(w.dir, ShardSuffix, w.seen, w.warn, w.load)
	if err != nil {
		return 0, err
	}
	added := 0
	for _, s := range loaded {
		w.shards = append(w.shards, s)
		added += (len(s.train) + len(s.val)) / w.codec.Size
	}
	// Names sort by creation time; several writers may interleave.
	sort.SliceStable(w.shards, func(i, j int) bool { return w.shards[i].name < w.shards[j].name })
	w.index()
	for len(w.shards) > 1 && w.cum[1] >= w.cfg.Newest {
		w.shards = w.shards[1:]
		w.cum = w.cum[1:]
	}
	return added, nil
}

// load reads, checks and splits one shard.
func (w *Window[R]) load(name string) (windowShard, error) {
	path := filepath.Join(w.dir, name)
	records, err := w.codec.ReadShard(path)
	if err != nil {
		return windowShard{}, err
	}
	s := windowShard{name: name}
	var ret []float32
	n := w.codec.Values
	if w.cfg.TDLambda > 0 {
		ret = make([]float32, n*len(records))
		w.codec.Returns(records, w.cfg.TDLambda, w.cfg.ScoreScale, ret)
	}
	for i := range records {
		r := &records[i]
		if HeldOut(w.codec.GameID(r), w.cfg.Holdout, w.cfg.Seed) {
			s.val = w.codec.Append(s.val, r)
			if ret != nil {
				s.valRet = append(s.valRet, ret[n*i:n*i+n]...)
			}
		} else {
			s.train = w.codec.Append(s.train, r)
			if ret != nil {
				s.trainRet = append(s.trainRet, ret[n*i:n*i+n]...)
			}
		}
	}
	return s, nil
}

// index recomputes cum.
func (w *Window[R]) index() {
	w.cum = make([]int, len(w.shards)+1)
	for j := len(w.shards) - 1; j >= 0; j-- {
		w.cum[j] = w.cum[j+1] + len(w.shards[j].train)/w.codec.Size
	}
}

// Returns reports whether the window serves λ-returns beside its
// records (TDLambda above 0).
func (w *Window[R]) Returns() bool { return w.cfg.TDLambda > 0 }

// Size is the number of training positions Sample draws from.
func (w *Window[R]) Size() int {
	if len(w.cum) == 0 {
		return 0
	}
	return min(w.cum[0], w.cfg.Newest)
}

// Sample fills dst with training positions drawn uniformly, with
// replacement, from the window's newest Size, and, if ret is not nil,
// ret[Values·k:Values·(k+1)] with dst[k]'s λ-returns (Codec.Values); ret
// needs a window with TDLambda above 0. The window must not be empty.
func (w *Window[R]) Sample(rng *rand.Rand, dst []R, ret []float32) {
	if ret != nil && !w.Returns() {
		panic("data: λ-returns asked of a window without them")
	}
	size := w.Size()
	for i := range dst {
		w.at(rng.IntN(size), &dst[i], ret[min(len(ret), i*w.codec.Values):])
	}
}

// at decodes the i-th newest training record into r and, if ret is not
// empty, copies its λ-returns to ret.
func (w *Window[R]) at(i int, r *R, ret []float32) {
	// The shard j with cum[j+1] <= i < cum[j], searching newest first.
	j := sort.Search(len(w.shards), func(j int) bool { return w.cum[j] <= i }) - 1
	s := &w.shards[j]
	size := w.codec.Size
	k := len(s.train)/size - 1 - (i - w.cum[j+1])
	if err := w.codec.Decode(s.train[k*size:], r); err != nil {
		panic("data: a checked record no longer decodes: " + err.Error())
	}
	if len(ret) > 0 {
		n := w.codec.Values
		copy(ret[:n], s.trainRet[k*n:])
	}
}

// Validation returns the held-out positions of the window's shards,
// oldest first, and their λ-returns, Codec.Values a record, if the
// window has them (TDLambda above 0; nil otherwise).
func (w *Window[R]) Validation() ([]R, []float32) {
	var out []R
	var ret []float32
	for _, s := range w.shards {
		for k := 0; k < len(s.val); k += w.codec.Size {
			var r R
			if err := w.codec.Decode(s.val[k:], &r); err != nil {
				panic("data: a checked record no longer decodes: " + err.Error())
			}
			out = append(out, r)
		}
		ret = append(ret, s.valRet...)
	}
	return out, ret
}
