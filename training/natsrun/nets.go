package natsrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// NetPublisher publishes the trainer's checkpoints in the background,
// retrying while the server is away, so that training never waits for
// the server. A newer checkpoint replaces an older one not yet published.
type NetPublisher struct {
	run  *Run
	warn io.Writer
	mu   sync.Mutex
	next *offer
	wake chan struct{}
	step atomic.Uint64
}

type offer struct {
	step uint64
	name string
	data []byte
}

// NewNetPublisher returns a publisher of the run's checkpoints; warnings
// about failed attempts go to warn.
func NewNetPublisher(run *Run, warn io.Writer) *NetPublisher {
	return &NetPublisher{run: run, warn: warn, wake: make(chan struct{}, 1)}
}

// Offer queues a checkpoint file's bytes for publishing.
func (p *NetPublisher) Offer(step uint64, name string, data []byte) {
	p.mu.Lock()
	p.next = &offer{step, name, data}
	p.mu.Unlock()
	p.step.Store(step)
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Step returns the step of the newest checkpoint offered.
func (p *NetPublisher) Step() uint64 { return p.step.Load() }

// Run publishes offered checkpoints until ctx is done, then publishes
// the last one offered if it can within grace.
func (p *NetPublisher) Run(ctx context.Context, grace time.Duration) {
	failing := false
	for {
		select {
		case <-p.wake:
		case <-time.After(time.Second):
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.Background(), grace)
			p.publish(fctx, &failing)
			cancel()
			return
		}
		p.publish(ctx, &failing)
	}
}

// publish tries once to publish the pending offer.
func (p *NetPublisher) publish(ctx context.Context, failing *bool) {
	p.mu.Lock()
	o := p.next
	p.mu.Unlock()
	if o == nil {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err := p.run.PublishCheckpoint(tctx, o.step, o.name, o.data)
	cancel()
	if err != nil {
		if !*failing && ctx.Err() == nil {
			fmt.Fprintf(p.warn, "warning: %v; retrying\n", err)
		}
		*failing = true
		return
	}
	if *failing {
		fmt.Fprintf(p.warn, "published %s to the NATS server after retrying\n", o.name)
		*failing = false
	}
	p.mu.Lock()
	if p.next == o {
		p.next = nil
	}
	p.mu.Unlock()
}

// Follow watches the run's newest checkpoint until ctx is done, calling
// got with each new one downloaded and checked. A checkpoint that fails
// to download or verify is reported to warn and skipped until a newer one
// appears (before the first one arrives, it is tried again).
func (r *Run) Follow(ctx context.Context, every time.Duration, warn io.Writer, got func(Checkpoint, []byte)) {
	tried := ""
	delivered := false
	for {
		c, err := r.Latest(ctx)
		switch {
		case err == nil && c.Name != tried:
			data, err := r.FetchCheckpoint(ctx, c)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				if delivered {
					fmt.Fprintf(warn, "warning: keeping the current net: %v\n", err)
					tried = c.Name
				}
				break
			}
			tried, delivered = c.Name, true
			got(c, data)
		case err != nil && !errors.Is(err, ErrNoCheckpoint) && ctx.Err() == nil:
			// The server is away; the connection comes back by itself.
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
