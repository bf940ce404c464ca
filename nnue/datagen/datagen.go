// Package datagen plays the games the NNUE trainer learns from: a
// game's alpha-beta (package alphabeta for Trench, Player; package
// alphabeta/trichess for Trichess, TrichessPlayer) with a given
// evaluation plays itself at a node budget per move from random
// openings, and every position it searched is stored with the search's
// score and the game's result (nnue/data records, the game's Codec) in
// shards of a run's data directory.
//
// Openings: RandomPlies uniformly random plies from the start, then,
// for the next RandomMoves plies, each move is a random legal move with
// probability RandomChance instead of the search's. An opening whose
// shallow search (OpeningDepth) scores beyond ±OpeningMargin is
// lopsided, and dropped for another.
//
// Positions left out: by default those whose best move captures (the
// score there is the capture's, which a static evaluation of the
// position cannot see: the search resolves captures in quiescence
// before it evaluates) and those scored as a forced win or loss (their
// score is a distance to the end, not an evaluation). Both are the usual
// filters of NNUE data generation (Stockfish's "smart FEN skipping").
//
// A Trench player may replace the search's scores of each finished game
// (NewPlayer's relabel), e.g. by a teacher net's values.
//
// Generation is deterministic given the seed and the worker count, and
// resumable: worker w plays the games w, w+W, w+2W, … of the job, a
// game's moves depend only on its id (its engine is cleared before it),
// and shard j of worker w, holding that worker's games
// j·ShardGames … (j+1)·ShardGames−1, is named after j and w. A run
// killed at any point keeps every shard it wrote (shards are written
// atomically); resumed, each worker starts at its first shard missing.
package datagen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"trench/alphabeta"
	"trench/engine/trench"
	"trench/internal/atomicfile"
	"trench/nnue/data"
)

// Config is how the games are played.
type Config struct {
	// Workers is the number of goroutines playing games, each with its
	// own engine.
	Workers int
	// SoftNodes and HardNodes are the node budget of a move: no new
	// iteration of iterative deepening starts after SoftNodes, and the
	// search is cut at HardNodes.
	SoftNodes, HardNodes uint64
	// RandomPlies is the number of uniformly random plies that open a
	// game.
	RandomPlies int
	// RandomMoves is the number of plies after those in which each move
	// is random with probability RandomChance.
	RandomMoves  int
	RandomChance float64
	// OpeningDepth is the depth of the search that judges an opening (0:
	// none); an opening it scores beyond ±OpeningMargin centipoints is
	// dropped for another.
	OpeningDepth  int
	OpeningMargin int
	// ShardGames is the number of games per shard (per worker).
	ShardGames int
	// TableBits sizes each engine's transposition table (2^TableBits
	// entries).
	TableBits int
	// KeepCaptures keeps the positions whose best move captures;
	// KeepForced those scored as a forced win or loss.
	KeepCaptures, KeepForced bool
	// Seed seeds the openings and random moves.
	Seed uint64
}

// DefaultConfig returns the default settings: 2 workers, 5000 nodes a
// move (cut at 20000), 8 random plies then 10% random moves over the
// next 16 plies, openings beyond ±3 points at depth 3 dropped, 16 games
// a shard.
func DefaultConfig() Config {
	return Config{
		Workers: 2, SoftNodes: 5000, HardNodes: 20000,
		RandomPlies: 8, RandomMoves: 16, RandomChance: 0.1,
		OpeningDepth: 3, OpeningMargin: 300,
		ShardGames: 16, TableBits: 18, Seed: 1,
	}
}

// Validate reports settings that cannot generate.
func (c Config) Validate() error {
	switch {
	case c.Workers < 1:
		return fmt.Errorf("workers %d: want at least 1", c.Workers)
	case c.SoftNodes < 1:
		return fmt.Errorf("soft nodes %d: want at least 1", c.SoftNodes)
	case c.HardNodes < c.SoftNodes:
		return fmt.Errorf("hard nodes %d: want at least the soft nodes, %d", c.HardNodes, c.SoftNodes)
	case c.RandomPlies < 0 || c.RandomPlies > 200:
		return fmt.Errorf("random plies %d: want 0..200", c.RandomPlies)
	case c.RandomMoves < 0:
		return fmt.Errorf("random moves %d: want at least 0", c.RandomMoves)
	case !(c.RandomChance >= 0 && c.RandomChance <= 1):
		return fmt.Errorf("random move chance %v: want a probability in [0, 1]", c.RandomChance)
	case c.OpeningDepth < 0 || c.OpeningDepth > alphabeta.MaxDepth:
		return fmt.Errorf("opening depth %d: want 0..%d", c.OpeningDepth, alphabeta.MaxDepth)
	case c.OpeningMargin < 0:
		return fmt.Errorf("opening margin %d: want at least 0", c.OpeningMargin)
	case c.ShardGames < 1:
		return fmt.Errorf("shard games %d: want at least 1", c.ShardGames)
	case c.TableBits < 10 || c.TableBits > 30:
		return fmt.Errorf("table bits %d: want 10..30", c.TableBits)
	}
	return nil
}

// Job is one batch of generation into a directory, of records R (a
// game's: data.Record for Trench, data.TrichessRecord for Trichess).
type Job[R any] struct {
	// Dir is the directory the shards go to; it must exist.
	Dir string
	// Name tells the job's shards from others' in Dir: shard
	// "shard-NAME-JJJJJJ-wWW.pos" is shard J of worker W. Names of
	// letters, digits and dashes; shards sort by name, so a later job's
	// name must sort after an earlier one's for the window to see its
	// positions as newer.
	Name string
	// GameBase is the id of the job's first game; game i of the job (in
	// the order worker i%W, its game i/W) has id GameBase+i. Ids must be
	// unique across the directory.
	GameBase uint64
	// Positions is how many positions the job writes at least: each
	// worker plays shards until it has written its share,
	// ⌈Positions/Workers⌉.
	Positions int
	// Codec writes the shards.
	Codec *data.Codec[R]
	// NewGames returns a fresh player of games for one worker: a
	// Player, or a TrichessPlayer.
	NewGames func() (Games[R], error)
	// Progress, if set, is called (from any worker, never at once) after
	// each shard with the positions the job has on disk.
	Progress func(positions int)
}

// Games plays a worker's games, one engine's, each into its records.
type Games[R any] interface {
	// Play plays game id and returns the records of its positions kept,
	// with what it did. Its moves depend only on the player's config
	// and id. When ctx is done it returns ctx's error and no records.
	Play(ctx context.Context, id uint64) ([]R, Stats, error)
}

// Stats is what a Generate call did.
type Stats struct {
	// Games and Positions are those written by this call; Resumed the
	// positions already on disk when it started.
	Games, Positions, Resumed int
	// Skipped counts the searched positions left out (captures, forced
	// scores); Searched all the positions searched.
	Skipped, Searched int
	// Dropped counts the lopsided openings dropped.
	Dropped int
}

// add adds o's counts.
func (s *Stats) add(o Stats) {
	s.Games += o.Games
	s.Positions += o.Positions
	s.Resumed += o.Resumed
	s.Skipped += o.Skipped
	s.Searched += o.Searched
	s.Dropped += o.Dropped
}

// ShardName is the file name of shard j of worker w of the job name.
func ShardName(name string, j, w int) string {
	return fmt.Sprintf("shard-%s-%06d-w%02d%s", name, j, w, data.ShardSuffix)
}

// checkName reports a job name that cannot name shards.
func checkName(name string) error {
	if name == "" {
		return errors.New("datagen: empty job name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("datagen: job name %q: want letters, digits and dashes", name)
		}
	}
	return nil
}

// existing returns, for worker w of job name in dir, the number of
// shards 0..n-1 on disk and their positions, read from their headers
// (the window checks the records when it loads them).
func existing[R any](codec *data.Codec[R], dir, name string, w int) (shards, positions int, err error) {
	for j := 0; ; j++ {
		path := filepath.Join(dir, ShardName(name, j, w))
		n, err := codec.ShardCount(path)
		if errors.Is(err, os.ErrNotExist) {
			return j, positions, nil
		}
		if err != nil {
			return 0, 0, err
		}
		positions += n
	}
}

// Count returns the positions the job name has on disk in dir, over
// workers 0..workers-1, in shards of codec's game.
func Count[R any](codec *data.Codec[R], dir, name string, workers int) (int, error) {
	total := 0
	for w := range workers {
		_, n, err := existing(codec, dir, name, w)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// Generate plays the job's games with cfg until every worker has
// written its share of positions, resuming after the shards already on
// disk. When ctx is done it returns ctx's error after the shards
// finished so far; the games in progress are lost, and replayed alike
// by the next call.
func Generate[R any](ctx context.Context, cfg Config, job Job[R]) (Stats, error) {
	if err := cfg.Validate(); err != nil {
		return Stats{}, fmt.Errorf("datagen: %w", err)
	}
	if err := checkName(job.Name); err != nil {
		return Stats{}, err
	}
	if job.NewGames == nil || job.Codec == nil {
		return Stats{}, errors.New("datagen: no player or no codec")
	}
	if job.Positions < 0 {
		return Stats{}, fmt.Errorf("datagen: %d positions: want at least 0", job.Positions)
	}
	share := (job.Positions + cfg.Workers - 1) / cfg.Workers
	var (
		mu      sync.Mutex
		total   Stats
		onDisk  atomic.Int64
		firstEr error
		wg      sync.WaitGroup
	)
	starts := make([][2]int, cfg.Workers)
	for w := range cfg.Workers {
		j, n, err := existing(job.Codec, job.Dir, job.Name, w)
		if err != nil {
			return Stats{}, err
		}
		starts[w] = [2]int{j, n}
		onDisk.Add(int64(n))
		total.Resumed += n
	}
	for w := range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := runWorker(ctx, cfg, job, w, starts[w][0], starts[w][1], share, func(n int) {
				d := onDisk.Add(int64(n))
				if job.Progress != nil {
					mu.Lock()
					job.Progress(int(d))
					mu.Unlock()
				}
			})
			mu.Lock()
			defer mu.Unlock()
			total.add(st)
			if err != nil && firstEr == nil {
				firstEr = err
			}
		}()
	}
	wg.Wait()
	if firstEr == nil {
		firstEr = ctx.Err()
	}
	return total, firstEr
}

// runWorker plays worker w's shards from shard j, with written
// positions already on disk, until it has share; wrote is told each
// shard's positions.
func runWorker[R any](ctx context.Context, cfg Config, job Job[R], w, j, written, share int, wrote func(int)) (Stats, error) {
	var st Stats
	if written >= share {
		return st, nil
	}
	g, err := job.NewGames()
	if err != nil {
		return st, err
	}
	for ; written < share; j++ {
		var records []R
		for k := range cfg.ShardGames {
			local := j*cfg.ShardGames + k
			id := job.GameBase + uint64(local*cfg.Workers+w)
			recs, gs, err := g.Play(ctx, id)
			if err != nil {
				return st, err
			}
			st.Skipped += gs.Skipped
			st.Searched += gs.Searched
			st.Dropped += gs.Dropped
			records = append(records, recs...)
		}
		buf, err := job.Codec.EncodeShard(records)
		if err != nil {
			return st, fmt.Errorf("datagen: %w", err)
		}
		path := filepath.Join(job.Dir, ShardName(job.Name, j, w))
		if err := atomicfile.Create(path, buf); err != nil {
			return st, fmt.Errorf("datagen: writing %s: %w", path, err)
		}
		st.Games += cfg.ShardGames
		st.Positions += len(records)
		written += len(records)
		wrote(len(records))
	}
	return st, nil
}

// Player plays Trench games with one engine, as each worker of Generate
// does; workers on other machines play with it directly.
type Player struct {
	cfg     Config
	e       *alphabeta.Searcher
	relabel func([]trench.Position, []int) error
	moves   []trench.Move
}

// gameRand is the random source of game id under seed.
func gameRand(seed, id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, id^0x6461746167656e00))
}

// NewPlayer returns a player of games under cfg (its Workers and
// ShardGames unused) whose engine searches with eval and, if relabel is
// not nil, replaces the search's scores of each finished game's kept
// positions (scores[i] is positions[i]'s, centipoints for the side to
// move) before they are stored, e.g. by a teacher net's values; it must
// be deterministic for generation to be.
func NewPlayer(cfg Config, eval alphabeta.Evaluator, relabel func(positions []trench.Position, scores []int) error) (*Player, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("datagen: %w", err)
	}
	e, err := alphabeta.NewWith(cfg.TableBits, eval)
	if err != nil {
		return nil, err
	}
	return &Player{cfg: cfg, e: e, relabel: relabel}, nil
}

// NewPlayers returns a Trench job's NewGames: each a Player under cfg
// with an evaluator newEval returns and relabel (see NewPlayer).
func NewPlayers(cfg Config, newEval func() (alphabeta.Evaluator, error), relabel func(positions []trench.Position, scores []int) error) func() (Games[data.Record], error) {
	return func() (Games[data.Record], error) {
		eval, err := newEval()
		if err != nil {
			return nil, err
		}
		return NewPlayer(cfg, eval, relabel)
	}
}

// opening returns a random opening that is not over and, if the config
// judges openings, not lopsided, counting the ones dropped. After 100
// lopsided ones in a row it takes the next.
func (g *Player) opening(ctx context.Context, rng *rand.Rand) (trench.Position, int, error) {
	dropped := 0
	for {
		p := trench.StartPosition()
		for i := 0; i < g.cfg.RandomPlies && !p.Over(); i++ {
			g.moves = p.GenerateMoves(g.moves[:0])
			p.Play(g.moves[rng.IntN(len(g.moves))])
		}
		if p.Over() {
			continue
		}
		if g.cfg.OpeningDepth == 0 || dropped >= 100 {
			return p, dropped, nil
		}
		g.e.Clear()
		r, err := g.e.Search(ctx, p, alphabeta.Limits{Depth: g.cfg.OpeningDepth})
		if err != nil {
			return p, dropped, err
		}
		if ctx.Err() != nil {
			return p, dropped, ctx.Err()
		}
		if r.Score >= -g.cfg.OpeningMargin && r.Score <= g.cfg.OpeningMargin {
			return p, dropped, nil
		}
		dropped++
	}
}

// Play plays game id and returns the records of its positions kept,
// with what it did. Its moves depend only on cfg and id. When ctx is
// done it returns ctx's error and no records.
func (g *Player) Play(ctx context.Context, id uint64) ([]data.Record, Stats, error) {
	var st Stats
	rng := gameRand(g.cfg.Seed, id)
	p, dropped, err := g.opening(ctx, rng)
	st.Dropped = dropped
	if err != nil {
		return nil, st, err
	}
	g.e.Clear()
	limits := alphabeta.Limits{SoftNodes: g.cfg.SoftNodes, Nodes: g.cfg.HardNodes}
	var (
		positions []trench.Position
		scores    []int
	)
	for ply := 0; !p.Over(); ply++ {
		r, err := g.e.Search(ctx, p, limits)
		if err != nil {
			return nil, st, err
		}
		if ctx.Err() != nil {
			return nil, st, ctx.Err()
		}
		st.Searched++
		if g.cfg.keeps(p.Captured(r.Move) != 0, r.Forced()) {
			positions = append(positions, p)
			scores = append(scores, r.Score)
		} else {
			st.Skipped++
		}
		m := r.Move
		if ply < g.cfg.RandomMoves && g.cfg.RandomChance > 0 && rng.Float64() < g.cfg.RandomChance {
			g.moves = p.GenerateMoves(g.moves[:0])
			m = g.moves[rng.IntN(len(g.moves))]
		}
		p.Play(m)
	}
	if g.relabel != nil && len(positions) > 0 {
		if err := g.relabel(positions, scores); err != nil {
			return nil, st, fmt.Errorf("datagen: labelling game %d: %w", id, err)
		}
	}
	records, err := data.Label(id, positions, scores, &p)
	return records, st, err
}
