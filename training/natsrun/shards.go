package natsrun

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"trench/datasets"
	"trench/engine"
	"trench/internal/atomicfile"
	nnuedata "trench/nnue/data"
)

// Headers of a shard message.
const (
	hdrWorker = "Trench-Worker"
	hdrShard  = "Trench-Shard"
	hdrStep   = "Trench-Step"
	// hdrObject names the object of the big bucket holding a shard too
	// large for a message; such a message has no body.
	hdrObject = "Trench-Object"
)

// Shard is one shard as a worker publishes it.
type Shard struct {
	// Worker and ID name it: ID is unique among the worker's shards, and
	// the pair is the message id that JetStream's duplicate window keys on.
	Worker, ID string
	// Step is the step of the oldest checkpoint that played its games.
	Step uint64
	// Data is the encoded .npz shard, the bytes of a shard file.
	Data []byte
}

func (s Shard) msgID() string { return s.Worker + "/" + s.ID }

// headroom is what a shard message's headers may take of the server's
// maximum payload.
const headroom = 1 << 10

// PublishShard publishes a shard to the run's stream, waiting for the
// server to store it. A shard published twice (a retry) is stored once.
// Shards over the server's maximum message size go into the object store,
// announced by a message without body.
func (r *Run) PublishShard(ctx context.Context, s Shard) error {
	m := nats.NewMsg(r.Subject)
	m.Header.Set(hdrWorker, s.Worker)
	m.Header.Set(hdrShard, s.ID)
	m.Header.Set(hdrStep, strconv.FormatUint(s.Step, 10))
	if int64(len(s.Data)) > r.nc.MaxPayload()-headroom {
		obj := objectName(s.msgID())
		if err := r.putObject(ctx, r.big, obj, s.Data); err != nil {
			return fmt.Errorf("publishing shard %s of %s (%d bytes) to %s: %w", s.ID, s.Worker, len(s.Data), r.BigBucket, err)
		}
		m.Header.Set(hdrObject, obj)
	} else {
		m.Data = s.Data
	}
	if _, err := r.js.PublishMsg(ctx, m, jetstream.WithMsgID(s.msgID())); err != nil {
		return fmt.Errorf("publishing shard %s of %s: %w", s.ID, s.Worker, err)
	}
	return nil
}

// putObject stores data in an object store in chunks the server takes.
func (r *Run) putObject(ctx context.Context, store jetstream.ObjectStore, name string, data []byte) error {
	chunk := uint32(min(128<<10, r.nc.MaxPayload()-headroom))
	_, err := store.Put(ctx, jetstream.ObjectMeta{Name: name, Opts: &jetstream.ObjectMetaOptions{ChunkSize: chunk}}, bytes.NewReader(data))
	return err
}

// objectName is a shard's key in stores and file names: a hash of its
// message id, so that any worker name is safe.
func objectName(msgID string) string {
	sum := sha256.Sum256([]byte(msgID))
	return hex.EncodeToString(sum[:8])
}

// ConsumerName is the durable consumer through which the trainer takes
// shards.
const ConsumerName = "trainer"

// ConsumeOptions direct the trainer's shard consumer.
type ConsumeOptions struct {
	// Dir is the run's datasets folder, where shards are written.
	Dir string
	// Game is the run's game; shards are validated as its.
	Game engine.Game
	// MaxLag refuses shards played by checkpoints more than MaxLag steps
	// older than Step returns (0: none refused).
	MaxLag uint64
	Step   func() uint64
	// Warnings receives a line per refused shard and per consumer
	// trouble.
	Warnings io.Writer
	// Kind is the run's kind: "" for the AlphaZero loop's datasets
	// shards, KindNNUE for NNUE position shards (nnue/data), whose
	// step header is the generation that played them and whose files
	// are named "shard-gNNNNNN-r-<arrival>-<key>.pos", so that they sort
	// after that generation's own shards and before the next's.
	Kind string
	// Check, required for NNUE shards, decodes a shard of the run's
	// game, checking every record (generations.Config.CheckShard); a
	// shard it refuses is dropped with a warning.
	Check func(shard []byte) error
	// Relabel, for a Trench run's NNUE shards, may replace the scores of
	// a shard's records before it is written (a teacher's labels for
	// generation 0); it gets the shard's generation. Its error stops the
	// consumer.
	Relabel func(generation uint64, records []nnuedata.Record) error
}

// ConsumeStats count what the consumer has done.
type ConsumeStats struct {
	Written, Duplicates, Refused atomic.Int64
}

// Consume takes shards from the run's stream until ctx is done: each is
// validated as the datasets package validates files, written atomically
// into opt.Dir named by its message id, and only then acknowledged. A
// shard redelivered after a crash finds its file and is acknowledged
// without a second copy; a corrupt shard, one of another game or one past
// MaxLag is dropped with a warning naming its worker and shard.
func (r *Run) Consume(ctx context.Context, opt ConsumeOptions, stats *ConsumeStats) error {
	if stats == nil {
		stats = new(ConsumeStats)
	}
	if opt.Kind == KindNNUE && opt.Check == nil {
		return fmt.Errorf("consuming run %s's NNUE shards: no shard check given", r.Run)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return err
	}
	have, err := shardKeys(opt.Dir, opt.Kind)
	if err != nil {
		return err
	}
	cons, err := r.consumer(ctx, opt.Warnings)
	if err != nil {
		return err
	}
	var (
		mu      sync.Mutex
		failErr error
	)
	done := make(chan struct{})
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if failErr == nil {
			failErr = err
			close(done)
		}
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		if err := r.take(ctx, m, opt, have, stats); err != nil {
			fail(err)
		}
	}, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if !errors.Is(err, jetstream.ErrNoHeartbeat) && !errors.Is(err, nats.ErrConnectionClosed) {
			fmt.Fprintf(opt.Warnings, "warning: shard consumer of run %s: %v\n", r.Run, err)
		}
	}), jetstream.PullMaxMessages(16))
	if err != nil {
		return fmt.Errorf("consuming %s: %w", r.Stream, err)
	}
	select {
	case <-ctx.Done():
	case <-done:
	}
	cc.Drain()
	<-cc.Closed()
	mu.Lock()
	defer mu.Unlock()
	return failErr
}

// consumer creates (or finds) the trainer's durable consumer on the run's
// stream. A server that is away or too slow to answer, as while it
// restarts, is waited for: each failed attempt is reported to warnings and
// tried again after a pause growing to 5 seconds, until ctx ends.
func (r *Run) consumer(ctx context.Context, warnings io.Writer) (jetstream.Consumer, error) {
	if warnings == nil {
		warnings = io.Discard
	}
	pause := 250 * time.Millisecond
	for {
		cons, err := r.js.CreateOrUpdateConsumer(ctx, r.Stream, jetstream.ConsumerConfig{
			Durable: ConsumerName, AckPolicy: jetstream.AckExplicitPolicy,
			AckWait: time.Minute, MaxAckPending: 64,
		})
		if err == nil {
			return cons, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("creating consumer %s on %s: %w", ConsumerName, r.Stream, err)
		}
		fmt.Fprintf(warnings, "warning: creating consumer %s on %s: %v; trying again\n", ConsumerName, r.Stream, err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("creating consumer %s on %s: %w", ConsumerName, r.Stream, err)
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// take handles one shard message; it returns only errors of the trainer's
// own disk, which stop the consumer.
func (r *Run) take(ctx context.Context, m jetstream.Msg, opt ConsumeOptions, have map[string]bool, stats *ConsumeStats) error {
	h := m.Headers()
	worker, id := h.Get(hdrWorker), h.Get(hdrShard)
	key := objectName(worker + "/" + id)
	refuse := func(format string, args ...any) error {
		fmt.Fprintf(opt.Warnings, "warning: skipping shard %q of worker %q: %s\n", id, worker, fmt.Sprintf(format, args...))
		stats.Refused.Add(1)
		return r.settle(ctx, m, h.Get(hdrObject), m.Term)
	}
	if worker == "" || id == "" {
		return refuse("the message has no worker or shard header")
	}
	if have[key] {
		stats.Duplicates.Add(1)
		return r.settle(ctx, m, h.Get(hdrObject), func() error { return m.DoubleAck(ctx) })
	}
	step, err := strconv.ParseUint(h.Get(hdrStep), 10, 64)
	if err != nil {
		return refuse("bad checkpoint step %q", h.Get(hdrStep))
	}
	if opt.MaxLag > 0 && opt.Step != nil {
		if now := opt.Step(); now > step && now-step > opt.MaxLag {
			return refuse("played by step %d, %d steps behind the trainer's %d (max data lag %d)", step, now-step, now, opt.MaxLag)
		}
	}
	data := m.Data()
	if obj := h.Get(hdrObject); obj != "" {
		if data, err = r.big.GetBytes(ctx, obj); err != nil {
			if errors.Is(err, jetstream.ErrObjectNotFound) {
				return refuse("its object %s is missing from %s", obj, r.BigBucket)
			}
			// The server may be away: try again later.
			m.NakWithDelay(time.Second)
			return nil
		}
	}
	md, err := m.Metadata()
	if err != nil {
		return refuse("no JetStream metadata: %v", err)
	}
	var name string
	if opt.Kind == KindNNUE {
		if opt.Step != nil && step > opt.Step() {
			return refuse("played for generation %d, ahead of the trainer's %d", step, opt.Step())
		}
		if err := opt.Check(data); err != nil {
			return refuse("%v", err)
		}
		if opt.Relabel != nil {
			records, err := nnuedata.DecodeShard(data)
			if err != nil {
				return refuse("%v", err)
			}
			if err := opt.Relabel(step, records); err != nil {
				m.Nak()
				return fmt.Errorf("labelling shard %q of worker %q: %w", id, worker, err)
			}
			if data, err = nnuedata.EncodeShard(records); err != nil {
				return refuse("%v", err)
			}
		}
		name = fmt.Sprintf("shard-g%06d-r-%020d-%s%s", step, md.Timestamp.UnixNano(), key, nnuedata.ShardSuffix)
	} else {
		if _, err := datasets.DecodeShard(opt.Game, data); err != nil {
			return refuse("%v", err)
		}
		name = fmt.Sprintf("shard-%020d-%s.npz", md.Timestamp.UnixNano(), key)
	}
	if err := atomicfile.Write(filepath.Join(opt.Dir, name), data); err != nil {
		m.Nak()
		return err
	}
	have[key] = true
	stats.Written.Add(1)
	return r.settle(ctx, m, h.Get(hdrObject), func() error { return m.DoubleAck(ctx) })
}

// settle acknowledges or terminates a message, then deletes the object
// holding its shard, if any. An acknowledgement lost to a broken
// connection is not an error: the shard comes again and is recognised.
func (r *Run) settle(ctx context.Context, m jetstream.Msg, obj string, ack func() error) error {
	if err := ack(); err != nil {
		return nil
	}
	if obj != "" {
		r.big.Delete(ctx, obj)
	}
	return nil
}

// shardKeys returns the keys of the shards in dir that came through a
// run of kind, taken from their names: the last dash-separated part.
func shardKeys(dir, kind string) (map[string]bool, error) {
	list, suffix := datasets.ShardNames, ".npz"
	if kind == KindNNUE {
		list, suffix = nnuedata.ShardNames, nnuedata.ShardSuffix
	}
	names, err := list(dir)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, n := range names {
		parts := strings.Split(strings.TrimSuffix(n, suffix), "-")
		if last := parts[len(parts)-1]; len(parts) >= 3 && len(last) == 16 {
			have[last] = true
		}
	}
	return have, nil
}
