package generations

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"trench/internal/atomicfile"
	"trench/nnue"
	"trench/nnue/data"
)

// SelfPlayStats is what SelfPlay played.
type SelfPlayStats struct {
	// Generation is the generation the games were played for, and Player
	// what played them: a net file or "the rules' evaluation".
	Generation int
	Player     string
	// Games and Positions count the games played and the positions kept.
	Games, Positions int
}

// SelfPlay plays games games (0: until ctx is done) for the run in dir, a
// run of this loop of either game, beside its trainer or without one:
// the player of the generation in progress (the run's newest accepted
// net, or the rules' evaluation before it has one: Trichess's piece
// points) plays them as the loop's own data generation does
// (Config.NewShardPlayer), on the run's datagen workers, and each
// finished shard lands in the run's data folder named as a remote
// worker's (RemoteShardPrefix), where the trainer counts it toward the
// generation and trains on it. Games in progress when ctx ends are
// dropped. log gets a line naming the player.
func SelfPlay(ctx context.Context, dir string, games int, log io.Writer) (SelfPlayStats, error) {
	var st SelfPlayStats
	if games < 0 {
		return st, fmt.Errorf("games must not be negative, got %d", games)
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		return st, err
	}
	ms, _, err := ReadMetrics(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	if len(ms) > 0 {
		st.Generation = ms[len(ms)-1].Generation + 1
	}
	var player *nnue.Net
	st.Player = "the rules' evaluation"
	file, err := nnue.NewestAccepted(dir)
	switch {
	case err == nil:
		if player, err = cfg.NetSet().Load(file); err != nil {
			return st, err
		}
		st.Player = file
	case !errors.Is(err, nnue.ErrNoAcceptedNet):
		return st, err
	}
	fmt.Fprintf(log, "playing generation %d of %s with %s\n", st.Generation, dir, st.Player)
	dc := cfg.Datagen()
	var (
		played, kept atomic.Int64
		reserved     atomic.Int64
		firstErr     error
		once         sync.Once
		wg           sync.WaitGroup
	)
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	for range dc.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			take := func() int { // the games of this worker's next shard
				if games == 0 {
					return dc.ShardGames
				}
				n := reserved.Add(int64(dc.ShardGames))
				return int(max(0, min(int64(dc.ShardGames), int64(games)-(n-int64(dc.ShardGames)))))
			}
			newPlayer := func() (ShardPlayer, error) { return cfg.NewShardPlayer(dc, player) }
			err := playShards(pctx, newPlayer, filepath.Join(dir, dataDir), st.Generation, take, func(n, positions int) {
				kept.Add(int64(positions))
				played.Add(int64(n))
			})
			if err != nil && pctx.Err() == nil {
				once.Do(func() { firstErr = err })
			}
			if err != nil {
				stop()
			}
		}()
	}
	wg.Wait()
	st.Games, st.Positions = int(played.Load()), int(kept.Load())
	return st, firstErr
}

// playShards plays shards with a player newPlayer makes into dir as
// generation g's remote shards, each of the games take gives, until ctx
// is done or take gives none, telling done each shard's games and
// positions.
func playShards(ctx context.Context, newPlayer func() (ShardPlayer, error), dir string, g int, take func() int, done func(games, positions int)) error {
	pl, err := newPlayer()
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		n := take()
		if n == 0 {
			return nil
		}
		base, err := RemoteGameBase()
		if err != nil {
			return err
		}
		shard, positions, err := pl.PlayShard(ctx, base, n)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%s%016x-local%s", RemoteShardPrefix(g), base, data.ShardSuffix)
		if err := atomicfile.Write(filepath.Join(dir, name), shard); err != nil {
			return err
		}
		done(n, positions)
	}
	return ctx.Err()
}

// RemoteGameBase returns the id of a remote shard's first game: random,
// with the top bit set (the trainer's own games have it clear) and the
// low 16 bits clear for the shard's games, so that ids stay unique
// across the run's data.
func RemoteGameBase() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:])&^0xffff | 1<<63, nil
}

// LoadConfig reads the saved config of the run in dir, an error naming
// dir when it is no run of this loop.
func LoadConfig(dir string) (Config, error) { return loop.Load(dir) }
