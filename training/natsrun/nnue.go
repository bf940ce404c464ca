package natsrun

// Runs of the NNUE's generation loop (training/generations) on the server:
// the same stream, buckets and heartbeats as the AlphaZero loop's, with
// NNUE position shards on the stream (their step header is the
// generation that played them), the player of the generation in
// progress in the run bucket under "generation", and that player's net
// file in the net store.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"trench/nnue"
	nnuedata "trench/nnue/data"
	"trench/nnue/datagen"
	"trench/training/generations"
)

// RulesPlayer is the player of a generation played with the rules'
// evaluation, which has no net.
const RulesPlayer = "rules"

// Generation is the record of an NNUE run's generation in progress: the
// games workers play now.
type Generation struct {
	// Generation is its number, from 0.
	Generation int `json:"generation"`
	// Player is the net that plays it, the name of its object in the
	// net store and of its file in the run's nets folder
	// (gen-NNNNNN.nnue), or RulesPlayer; SHA256 and Size are the file's.
	Player string    `json:"player"`
	SHA256 string    `json:"sha256,omitempty"`
	Size   int       `json:"size,omitempty"`
	Time   time.Time `json:"time"`
}

// ErrNoGeneration is returned by CurrentGeneration before the trainer
// announced one.
var ErrNoGeneration = errors.New("no generation announced yet")

var nnueNetName = regexp.MustCompile(`^gen-[0-9]{6}\.nnue$`)

// decodeGeneration parses and checks a generation record: a number of at
// least 0 and either the rules without a file or a net's file name with
// its SHA-256 and a size.
func decodeGeneration(b []byte) (Generation, error) {
	var g Generation
	if err := json.Unmarshal(b, &g); err != nil {
		return Generation{}, fmt.Errorf("malformed generation record: %w", err)
	}
	rules := g.Player == RulesPlayer && g.SHA256 == "" && g.Size == 0
	net := nnueNetName.MatchString(g.Player) && sha256Hex.MatchString(g.SHA256) && g.Size > 0
	if g.Generation < 0 || !rules && !net {
		return Generation{}, fmt.Errorf("malformed generation record: generation %d, player %q, checksum %q, size %d", g.Generation, g.Player, g.SHA256, g.Size)
	}
	return g, nil
}

// PublishGeneration stores the player's net file (nil for the rules) and
// records generation g as the one workers play; the net store keeps the
// newest few nets.
func (r *Run) PublishGeneration(ctx context.Context, g int, player string, net []byte) error {
	rec := Generation{Generation: g, Player: player, Time: time.Now().UTC()}
	if net != nil {
		sum, err := r.storeNet(ctx, player, net)
		if err != nil {
			return err
		}
		rec.SHA256, rec.Size = sum, len(net)
	}
	b, _ := json.Marshal(rec)
	if _, err := decodeGeneration(b); err != nil {
		return err
	}
	if _, err := r.meta.Put(ctx, "generation", b); err != nil {
		return fmt.Errorf("recording generation %d: %w", g, err)
	}
	r.pruneNets(ctx, player)
	return nil
}

// CurrentGeneration returns the record of the generation in progress, or
// an error wrapping ErrNoGeneration.
func (r *Run) CurrentGeneration(ctx context.Context) (Generation, error) {
	e, err := r.meta.Get(ctx, "generation")
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Generation{}, fmt.Errorf("run %s: %w", r.Run, ErrNoGeneration)
	}
	if err != nil {
		return Generation{}, err
	}
	g, err := decodeGeneration(e.Value())
	if err != nil {
		return Generation{}, fmt.Errorf("run %s: %w", r.Run, err)
	}
	return g, nil
}

// FetchPlayer downloads and decodes the net of generation g's player
// (nil for the rules), verifying its checksum and that it is a net of
// set, the run's game's (generations.Config.NetSet).
func (r *Run) FetchPlayer(ctx context.Context, g Generation, set *nnue.FeatureSet) (*nnue.Net, error) {
	if g.Player == RulesPlayer {
		return nil, nil
	}
	data, err := r.fetchNet(ctx, g.Player, g.SHA256)
	if err != nil {
		return nil, err
	}
	return set.Decode(data, g.Player)
}

// announcer publishes the generation loop's announcements in the
// background, retrying while the server is away, so that the loop never
// waits for the server (generations.Remote).
type announcer struct {
	run  *Run
	warn io.Writer
	// current is the newest generation announced, read by the intake.
	current atomic.Int64
	mu      sync.Mutex
	next    *Generation
	net     []byte
	wake    chan struct{}
}

// Announce queues generation g's record; a newer one replaces it.
func (a *announcer) Announce(_ context.Context, g int, player string, net []byte) error {
	a.mu.Lock()
	a.next, a.net = &Generation{Generation: g, Player: player}, net
	a.mu.Unlock()
	a.current.Store(int64(g))
	select {
	case a.wake <- struct{}{}:
	default:
	}
	return nil
}

// loop publishes the queued announcement until ctx is done.
func (a *announcer) loop(ctx context.Context) {
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.wake:
		case <-time.After(time.Second):
		}
		a.mu.Lock()
		g, net := a.next, a.net
		a.mu.Unlock()
		if g == nil {
			continue
		}
		tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := a.run.PublishGeneration(tctx, g.Generation, g.Player, net)
		cancel()
		if err != nil {
			if !failing && ctx.Err() == nil {
				fmt.Fprintf(a.warn, "warning: announcing generation %d: %v; retrying\n", g.Generation, err)
			}
			failing = true
			continue
		}
		failing = false
		a.mu.Lock()
		if a.next == g {
			a.next, a.net = nil, nil
		}
		a.mu.Unlock()
	}
}

// NNUEMeta is the meta of an NNUE run of cfg.
func NNUEMeta(cfg generations.Config) (Meta, error) {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return Meta{}, err
	}
	return Meta{
		Kind: KindNNUE, Game: cfg.Game, Net: fmt.Sprintf("nnue-%d", cfg.Hidden),
		FormatVersion: nnuedata.FormatVersion, Steps: cfg.Generations, Config: raw,
	}, nil
}

// TrainNNUE runs the NNUE's generation loop as generations.Run does in
// the run directory dir, and meets the run's workers on the server nc
// reaches: it creates the run called name there (or checks the one
// there), announces each generation and its player, and writes the
// shards workers publish into dir/data, refusing those played more than
// maxLag generations before the one in progress (0: none). Generation
// 0's shards get the run's teacher's labels, if it has one (a Trench
// run; a Trichess run has no teacher). With
// opt.NoLocal the trainer's process plays no games itself.
func TrainNNUE(ctx context.Context, nc *nats.Conn, name, dir string, cfg generations.Config, maxLag uint64, opt generations.Options) error {
	if opt.Progress == nil {
		opt.Progress = io.Discard
	}
	if opt.Warnings == nil {
		opt.Warnings = io.Discard
	}
	meta, err := NNUEMeta(cfg)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	run, err := Create(cctx, nc, name, meta)
	cancel()
	if err != nil {
		return err
	}
	return trainNNUE(ctx, run, dir, cfg, maxLag, opt)
}

// trainNNUE is TrainNNUE on a run created.
func trainNNUE(ctx context.Context, run *Run, dir string, cfg generations.Config, maxLag uint64, opt generations.Options) error {
	ann := &announcer{run: run, warn: opt.Warnings, wake: make(chan struct{}, 1)}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	if g, err := run.CurrentGeneration(cctx); err == nil {
		// Shards of the generation announced before a restart are not
		// ahead of the trainer.
		ann.current.Store(int64(g.Generation))
	}
	cancel()
	var relabel func(uint64, []nnuedata.Record) error
	if cfg.Teacher != "" {
		// Loaded with the first shard of generation 0 that arrives, so
		// that a run past it resumes without the teacher's file.
		var (
			once    sync.Once
			teacher *generations.Teacher
			loadErr error
		)
		relabel = func(g uint64, records []nnuedata.Record) error {
			if g != 0 {
				return nil
			}
			once.Do(func() { teacher, loadErr = generations.LoadTeacher(cfg.Teacher, cfg.ScoreScale()) })
			if loadErr != nil {
				return loadErr
			}
			return teacher.Relabel(records)
		}
	}
	opt.Remote = ann
	return run.meet(ctx, opt.Progress, ann.loop,
		ConsumeOptions{
			Dir: filepath.Join(dir, "data"), Kind: KindNNUE, MaxLag: maxLag, Check: cfg.CheckShard, Relabel: relabel, Warnings: opt.Warnings,
			Step: func() uint64 { return uint64(ann.current.Load()) },
		},
		func(ctx context.Context) error { return generations.Run(ctx, dir, cfg, opt) })
}

// SavedNNUEConfig is the NNUE run's settings as its trainer saved them on
// the server, after checking that it is an NNUE run of the shard format
// this program writes. An error that wraps ErrRefused names the
// mismatch.
func (r *Run) SavedNNUEConfig(ctx context.Context) (generations.Config, error) {
	meta, err := r.Meta(ctx)
	if err != nil {
		return generations.Config{}, err
	}
	if err := meta.Mismatch(Meta{Kind: KindNNUE, FormatVersion: nnuedata.FormatVersion}); err != nil {
		return generations.Config{}, fmt.Errorf("%w %s: %w: %w", ErrRefused, r.Run, ErrMismatch, err)
	}
	cfg, err := generations.DecodeConfig(meta.Config)
	if err != nil {
		return generations.Config{}, fmt.Errorf("run %s: malformed config on the server: %w", r.Run, err)
	}
	if err := cfg.Validate(); err != nil {
		return generations.Config{}, fmt.Errorf("run %s: config on the server: %w", r.Run, err)
	}
	return cfg, nil
}

// NNUEWorker is a data generation worker of an NNUE run.
type NNUEWorker struct {
	// Name is the worker's name in its heartbeats and shards.
	Name string
	// Buffer is how many shards it keeps while the server is away before
	// its games pause.
	Buffer int
	// Workers is the number of goroutines playing games (0: the run's
	// setting).
	Workers int
	// Games stops it after about this many games (each goroutine
	// finishes its shard); 0 plays until ctx is done.
	Games int
	// Log receives progress and warnings.
	Log io.Writer
}

// playing is the generation a worker plays and its player's net (nil:
// the rules' evaluation).
type playing struct {
	gen Generation
	net *nnue.Net
}

// Work plays games of cfg's game for run r with cfg until ctx is done or
// w.Games are played: each shard of cfg.ShardGames games is played for the newest
// generation the trainer announced, with its player (taken up at shard
// boundaries), and published with the generation as its step. It
// reports a heartbeat every 5 seconds and leaves the run at the end. It
// returns the games played and the shards published; games in progress
// when ctx ends are lost (their shard is not published), and shards
// still buffered after a minute of waiting for the server are an error.
func (w NNUEWorker) Work(ctx context.Context, r *Run, cfg generations.Config) (games int, published int64, err error) {
	dc := cfg.Datagen()
	if w.Workers > 0 {
		dc.Workers = w.Workers
	}
	if err := dc.Validate(); err != nil {
		return 0, 0, err
	}
	var (
		current   atomic.Pointer[playing]
		ready     = make(chan struct{})
		readyOnce sync.Once
		nGames    atomic.Int64
		positions atomic.Int64
		addMu     sync.Mutex
	)
	pub, leave := join(ctx, r, w.Name, w.Buffer, w.Log, func() (int64, int64, string) {
		name := ""
		if p := current.Load(); p != nil {
			name = fmt.Sprintf("g%d: %s", p.gen.Generation, p.gen.Player)
		}
		return nGames.Load(), positions.Load(), name
	})
	bg, stopFollowing := context.WithCancel(ctx)
	defer stopFollowing()
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		w.follow(bg, r, cfg.NetSet(), func(p *playing) {
			current.Store(p)
			readyOnce.Do(func() { close(ready) })
		})
	}()
	select {
	case <-ready:
	case <-ctx.Done():
	}
	var (
		playErr error
		errOnce sync.Once
		players sync.WaitGroup
	)
	pctx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	for range dc.Workers {
		if ctx.Err() != nil {
			break
		}
		players.Add(1)
		go func() {
			defer players.Done()
			err := w.play(pctx, cfg, dc, &current, func(shard []byte, n, gen int) error {
				addMu.Lock()
				defer addMu.Unlock()
				if err := pub.Add(pctx, shard, uint64(gen)); err != nil {
					return err
				}
				positions.Add(int64(n))
				if n := nGames.Add(int64(dc.ShardGames)); w.Games > 0 && n >= int64(w.Games) {
					stopPlay()
				}
				return nil
			})
			if err != nil && pctx.Err() == nil {
				errOnce.Do(func() { playErr = err })
				stopPlay()
			}
		}()
	}
	players.Wait()
	stopFollowing()
	<-followed
	if err := leave(); err != nil {
		playErr = errors.Join(playErr, err)
	}
	return int(nGames.Load()), pub.Published(), playErr
}

// follow watches the run's generation record until ctx is done, calling
// got with each new generation once its player's net, of set, is
// downloaded and checked. A net that fails is reported once and tried
// again.
func (w NNUEWorker) follow(ctx context.Context, r *Run, set *nnue.FeatureSet, got func(*playing)) {
	var have, warned Generation
	delivered := false
	for {
		g, err := r.CurrentGeneration(ctx)
		if err == nil && (!delivered || g.Generation != have.Generation || g.Player != have.Player) {
			net, err := r.FetchPlayer(ctx, g, set)
			switch {
			case err != nil && ctx.Err() == nil && warned != g:
				fmt.Fprintf(w.Log, "warning: generation %d: %v; trying again\n", g.Generation, err)
				warned = g
			case err == nil:
				fmt.Fprintf(w.Log, "playing generation %d with %s\n", g.Generation, g.Player)
				have, delivered = g, true
				got(&playing{gen: g, net: net})
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
	}
}

// play plays shards of cfg's game with the current generation's player
// until ctx is done, handing each to done with its positions and
// generation.
func (w NNUEWorker) play(ctx context.Context, cfg generations.Config, dc datagen.Config, current *atomic.Pointer[playing], done func(shard []byte, positions, gen int) error) error {
	var (
		p  *playing
		pl generations.ShardPlayer
	)
	for ctx.Err() == nil {
		if c := current.Load(); c != p {
			var err error
			if pl, err = cfg.NewShardPlayer(dc, c.net); err != nil {
				return err
			}
			p = c
		}
		base, err := generations.RemoteGameBase()
		if err != nil {
			return err
		}
		shard, n, err := pl.PlayShard(ctx, base, dc.ShardGames)
		if err != nil {
			return err
		}
		if err := done(shard, n, p.gen.Generation); err != nil {
			return err
		}
	}
	return nil
}
