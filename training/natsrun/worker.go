package natsrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"trench/checkpoints"
	"trench/datasets"
	"trench/games"
	"trench/selfplay"
	"trench/training"
)

// ErrRefused marks a run a worker will not join: its game, net or shard
// format is not the worker's, or its game is unknown here.
var ErrRefused = errors.New("refusing run")

// SavedConfig is the run's training config as its trainer saved it on the
// server, after checking that the run's game, net and shard format are
// the ones want names (an empty Game or Net matches any). An error that
// wraps ErrRefused names the mismatch.
func (r *Run) SavedConfig(ctx context.Context, want Meta) (training.Config, error) {
	meta, err := r.Meta(ctx)
	if err != nil {
		return training.Config{}, err
	}
	want.FormatVersion = datasets.FormatVersion
	if err := meta.Mismatch(want); err != nil {
		return training.Config{}, fmt.Errorf("%w %s: %w: %w", ErrRefused, r.Run, ErrMismatch, err)
	}
	if _, err := games.ByName(meta.Game); err != nil {
		return training.Config{}, fmt.Errorf("%w %s: %w", ErrRefused, r.Run, err)
	}
	var saved training.Config
	if err := json.Unmarshal(meta.Config, &saved); err != nil {
		return training.Config{}, fmt.Errorf("run %s: malformed config on the server: %w", r.Run, err)
	}
	return saved, nil
}

// Worker is a self-play worker of a run.
type Worker struct {
	// Name is the worker's name in its heartbeats and shards.
	Name string
	// Buffer is how many shards it keeps while the server is away before
	// self-play pauses.
	Buffer int
	// Games stops it after this many games; 0 plays until ctx is done.
	Games int
	// Log receives progress and warnings.
	Log io.Writer
	// Bars shows self-play's progress on Log as a bar; without it Log
	// gets a status line a minute (training.Options.Bars).
	Bars bool
}

// Work plays self-play games with cfg for run r until ctx is done or
// w.Games are played: it takes up each checkpoint the trainer publishes,
// publishes its shards, reports a heartbeat every 5 seconds and leaves the
// run at the end. It returns the games played and the shards published;
// shards still buffered after a minute of waiting for the server are an
// error.
func (w Worker) Work(ctx context.Context, r *Run, cfg training.Config) (games int, published int64, err error) {
	var (
		current atomic.Value // the name of the checkpoint playing
		stats   selfplay.Stats
		nets    = make(chan *checkpoints.Checkpoint)
	)
	current.Store("")
	pub, leave := join(ctx, r, w.Name, w.Buffer, w.Log, func() (int64, int64, string) {
		return stats.Games.Load(), stats.Positions.Load(), current.Load().(string)
	})
	bg, stopFollowing := context.WithCancel(ctx)
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		r.Follow(bg, 2*time.Second, w.Log, func(c Checkpoint, data []byte) {
			ck, err := checkpoints.Decode(data, c.Name)
			if err != nil {
				fmt.Fprintf(w.Log, "warning: keeping the current net: %v\n", err)
				return
			}
			select {
			case nets <- ck:
				current.Store(c.Name)
			case <-bg.Done():
			}
		})
	}()
	n, playErr := training.SelfPlay(ctx, "", cfg, training.SelfPlayOptions{
		Options: training.Options{Progress: w.Log, Warnings: w.Log, Bars: w.Bars},
		Games:   w.Games, Nets: nets, Stats: &stats,
		Shards: func(data []byte, step uint64) error { return pub.Add(ctx, data, step) },
	})
	stopFollowing()
	<-followed
	if err := leave(); err != nil {
		playErr = errors.Join(playErr, err)
	}
	return n, pub.Published(), playErr
}

// join enters worker name into run r: it starts, in the background, the
// publisher of its shards (keeping up to buffer while the server is away)
// and its heartbeat, which reports what counts returns until ctx is done.
// leave stops the heartbeat, waits up to a minute for the publisher to
// empty its buffer and takes the worker out of the run; shards still
// buffered then are its error.
func join(ctx context.Context, r *Run, name string, buffer int, log io.Writer, counts func() (games, positions int64, net string)) (pub *Publisher, leave func() error) {
	pub = NewPublisher(r, name, buffer, log)
	pubCtx, stopPub := context.WithCancel(context.Background())
	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		pub.Run(pubCtx)
	}()
	beatCtx, stopBeat := context.WithCancel(ctx)
	beatDone := make(chan struct{})
	go func() {
		defer close(beatDone)
		beat(beatCtx, r, name, pub, counts)
	}()
	return pub, func() error {
		stopBeat()
		<-beatDone
		pub.Close()
		select {
		case <-pubDone:
		case <-time.After(time.Minute):
			stopPub()
			<-pubDone
		}
		stopPub()
		lctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		r.Leave(lctx, name)
		cancel()
		if left := pub.Buffered(); left > 0 {
			return fmt.Errorf("%d shards could not be published: the NATS server did not answer for a minute", left)
		}
		return nil
	}
}

// beat reports the worker's heartbeat every 5 seconds until ctx is
// done; counts returns its games and positions so far and the net it
// plays.
func beat(ctx context.Context, r *Run, name string, pub *Publisher, counts func() (games, positions int64, net string)) {
	started := time.Now()
	var lastPositions int64
	last := started
	for {
		now := time.Now()
		games, positions, net := counts()
		rate := float64(positions-lastPositions) / now.Sub(last).Seconds()
		lastPositions, last = positions, now
		hb := Heartbeat{
			Worker: name, Games: games, Positions: positions, PositionsPerSecond: rate,
			Checkpoint: net, Published: pub.Published(), Buffered: pub.Buffered(), Paused: pub.Paused(),
			Started: started.UTC(),
		}
		hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		r.Beat(hctx, hb)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Second):
		}
	}
}
