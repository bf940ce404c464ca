package generations

import (
	"context"
	"io"
	"math/rand/v2"

	"trench/engine/trench"
	"trench/nnue"
	"trench/nnue/data"
	"trench/nnue/datagen"
	"trench/nnue/train"
)

// genJob is one generation's games: datagen.Job's settings that do not
// depend on the game.
type genJob struct {
	dir, name string
	base      uint64
	positions int
	progress  func(positions int)
}

// sampler draws training batches from a game's window of positions.
type sampler interface {
	// Refresh and Size are data.Window's.
	Refresh() (int, error)
	Size() int
	// sample draws n positions with rng, as a batch; the batch is valid
	// until the next call.
	sample(rng *rand.Rand, n int) train.Batch
	// validation is up to n of the newest held-out positions.
	validation(n int) train.Batch
}

// windowOf is a game's data.Window as a sampler, its records made
// batches by batch; when the window serves λ-returns each batch's
// results are its records' returns.
type windowOf[R any] struct {
	*data.Window[R]
	batch func([]R) train.Batch
	buf   []R
	ret   []float32
}

func (w *windowOf[R]) sample(rng *rand.Rand, n int) train.Batch {
	if cap(w.buf) < n {
		w.buf = make([]R, n)
	}
	b := w.buf[:n]
	if !w.Returns() {
		w.Sample(rng, b, nil)
		return w.batch(b)
	}
	values := w.batch(nil).Outputs()
	if cap(w.ret) < values*n {
		w.ret = make([]float32, values*n)
	}
	ret := w.ret[:values*n]
	w.Sample(rng, b, ret)
	return withReturns{w.batch(b), ret, values}
}

func (w *windowOf[R]) validation(n int) train.Batch {
	v, ret := w.Validation()
	from := max(0, len(v)-n)
	if !w.Returns() {
		return w.batch(v[from:])
	}
	values := w.batch(nil).Outputs()
	return withReturns{w.batch(v[from:]), ret[values*from:], values}
}

// withReturns is a batch whose results are its records' λ-returns,
// values a record in the order of the batch's outputs.
type withReturns struct {
	train.Batch
	returns []float32
	values  int
}

// Target is the record's λ-return and its search score.
func (b withReturns) Target(i, j int) (result, score float64) {
	_, score = b.Batch.Target(i, j)
	return float64(b.returns[i*b.values+j]), score
}

// ShardPlayer plays games of a run's generation, one shard at a time,
// as the run's own data generation plays them; one goroutine uses it at
// a time.
type ShardPlayer interface {
	// PlayShard plays the games of ids base to base+games-1 and returns
	// them encoded as a shard of the run's game, with the positions it
	// holds. When ctx is done it returns ctx's error.
	PlayShard(ctx context.Context, base uint64, games int) (shard []byte, positions int, err error)
}

// shardGames is a game's player as a ShardPlayer, its shards encoded by
// codec.
type shardGames[R any] struct {
	games datagen.Games[R]
	codec *data.Codec[R]
}

func (s shardGames[R]) PlayShard(ctx context.Context, base uint64, games int) ([]byte, int, error) {
	var records []R
	for k := range games {
		recs, _, err := s.games.Play(ctx, base+uint64(k))
		if err != nil {
			return nil, 0, err
		}
		records = append(records, recs...)
	}
	shard, err := s.codec.EncodeShard(records)
	return shard, len(records), err
}

// count, generate and window are Trench's data: its records, played by
// datagen.Player.

func (trenchRecipe) count(dir, job string, workers int) (int, error) {
	return datagen.Count(data.Trench, dir, job, workers)
}

func (trenchRecipe) generate(ctx context.Context, dc datagen.Config, j genJob, player *nnue.Net, relabel func([]trench.Position, []int) error) (datagen.Stats, error) {
	return datagen.Generate(ctx, dc, datagen.Job[data.Record]{
		Dir: j.dir, Name: j.name, GameBase: j.base, Positions: j.positions, Progress: j.progress,
		Codec: data.Trench, NewGames: datagen.NewPlayers(dc, evaluatorOf(player), relabel),
	})
}

func (trenchRecipe) window(dir string, wc data.WindowConfig, warn io.Writer) (sampler, error) {
	w, err := data.Trench.NewWindow(dir, wc, warn)
	if err != nil {
		return nil, err
	}
	return &windowOf[data.Record]{Window: w, batch: func(rs []data.Record) train.Batch { return data.Records(rs) }}, nil
}

func (trenchRecipe) shardPlayer(dc datagen.Config, player *nnue.Net) (ShardPlayer, error) {
	g, err := datagen.NewPlayers(dc, evaluatorOf(player), nil)()
	if err != nil {
		return nil, err
	}
	return shardGames[data.Record]{games: g, codec: data.Trench}, nil
}

func (trenchRecipe) checkShard(shard []byte) error {
	_, err := data.Trench.DecodeShard(shard)
	return err
}

func (trenchRecipe) rescore(ctx context.Context, dc datagen.Config, player *nnue.Net, job rescoreJob) (datagen.RescoreStats, error) {
	newEval := evaluatorOf(player)
	return rescoreWith(ctx, data.Trench, job, func() (datagen.Rescorer[data.Record], error) {
		eval, err := newEval()
		if err != nil {
			return nil, err
		}
		return datagen.NewPlayer(dc, eval, nil)
	})
}
