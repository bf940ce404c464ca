package natsrun

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Publisher publishes a worker's shards in the background, keeping up to
// a bounded number while the server is away. Past that bound Add blocks,
// which pauses the self-play feeding it.
type Publisher struct {
	run    *Run
	worker string
	warn   io.Writer
	queue  chan Shard
	// prefix makes shard ids unique across restarts of a worker of the
	// same name; seq numbers them.
	prefix    string
	seq       int
	inFlight  atomic.Int64
	published atomic.Int64
	paused    atomic.Bool
	closeOnce sync.Once
}

// NewPublisher returns a publisher of the worker's shards keeping at most
// limit (at least 1) unpublished shards.
func NewPublisher(run *Run, worker string, limit int, warn io.Writer) *Publisher {
	return &Publisher{
		run: run, worker: worker, warn: warn, queue: make(chan Shard, max(limit, 1)-1),
		prefix: strconv.FormatInt(time.Now().UnixNano(), 36),
	}
}

// Add queues a shard played by checkpoint step step. While the buffer is
// full it waits, saying so once.
func (p *Publisher) Add(ctx context.Context, data []byte, step uint64) error {
	p.seq++
	s := Shard{Worker: p.worker, ID: fmt.Sprintf("%s-%06d", p.prefix, p.seq), Step: step, Data: data}
	select {
	case p.queue <- s:
		return nil
	default:
	}
	p.paused.Store(true)
	defer p.paused.Store(false)
	fmt.Fprintf(p.warn, "self-play paused: %d shards wait for the NATS server, the most this worker keeps\n", cap(p.queue)+1)
	select {
	case p.queue <- s:
		fmt.Fprintln(p.warn, "self-play resumed")
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close says no more shards will be added; Run returns once it has
// published the rest.
func (p *Publisher) Close() { p.closeOnce.Do(func() { close(p.queue) }) }

// Buffered returns the number of shards not yet stored by the server.
func (p *Publisher) Buffered() int { return len(p.queue) + int(p.inFlight.Load()) }

// Published returns the number of shards the server stored.
func (p *Publisher) Published() int64 { return p.published.Load() }

// Paused reports whether Add is waiting for room.
func (p *Publisher) Paused() bool { return p.paused.Load() }

// Run publishes queued shards until Close was called and all are
// published, or ctx is done. A failed publish is retried with the same
// message id until it succeeds, so the server stores each shard once.
func (p *Publisher) Run(ctx context.Context) {
	for s := range p.queue {
		p.inFlight.Store(1)
		failing := false
		for {
			pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := p.run.PublishShard(pctx, s)
			cancel()
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return
			}
			if !failing {
				fmt.Fprintf(p.warn, "warning: %v; retrying, %d shards kept meanwhile\n", err, p.Buffered())
				failing = true
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
		if failing {
			fmt.Fprintf(p.warn, "published shard %s after retrying\n", s.ID)
		}
		p.published.Add(1)
		p.inFlight.Store(0)
	}
}
