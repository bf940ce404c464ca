// Package natsrun is a training run on a NATS JetStream server: the
// trainer publishes its checkpoints there and consumes the shards that
// self-play workers on other machines publish, so that the two halves of
// training meet without a shared filesystem.
//
// A run named NAME lives in these JetStream assets:
//
//	stream  TRENCH_NAME         subject trench.NAME.shards: one message per shard
//	kv      TRENCH_NAME_run     "meta": the run's Meta; "checkpoint": the newest Checkpoint;
//	                            for an NNUE run "generation": the Generation in progress
//	kv      TRENCH_NAME_workers one Heartbeat per live worker, expiring after HeartbeatTTL
//	object  TRENCH_NAME_nets    checkpoint files (an NNUE run's: its players' nets), the newest few
//	object  TRENCH_NAME_big     shards too large for one message, announced on the stream
package natsrun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"trench/checkpoints"
)

// Names are the JetStream assets of one run.
type Names struct {
	Run, Stream, Subject, RunBucket, WorkerBucket, NetBucket, BigBucket string
}

var runName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// NamesFor derives a run's asset names from its name, which may hold
// letters, digits, '-' and '_'.
func NamesFor(run string) (Names, error) {
	if !runName.MatchString(run) {
		return Names{}, fmt.Errorf("run name %q: want 1 to 64 letters, digits, '-' or '_'", run)
	}
	p := "TRENCH_" + run
	return Names{
		Run: run, Stream: p, Subject: "trench." + run + ".shards",
		RunBucket: p + "_run", WorkerBucket: p + "_workers", NetBucket: p + "_nets", BigBucket: p + "_big",
	}, nil
}

// Meta describes a run; a worker checks it before it starts.
type Meta struct {
	// Game is the game's name, Net the net size preset.
	Game string `json:"game"`
	Net  string `json:"net"`
	// FormatVersion is the shard format version the trainer reads.
	FormatVersion int `json:"format_version"`
	// Steps is the step the run ends at (its relabelling phase
	// included: training.Config.LastStep), for an NNUE run its
	// generations (0: no end).
	Steps int `json:"steps"`
	// Config is the run's training configuration as the trainer saved it,
	// from which workers take their self-play settings.
	Config json.RawMessage `json:"config,omitempty"`
	// Kind is "" for a run of the AlphaZero loop (training.Config,
	// datasets shards, checkpoint nets) and KindNNUE for one of the
	// NNUE's generation loop (generations.Config, nnue/data shards, NNUE
	// nets).
	Kind string `json:"kind,omitempty"`
}

// KindNNUE is the Kind of a run of the NNUE's generation loop.
const KindNNUE = "nnue"

// kindName names a run kind for people.
func kindName(kind string) string {
	if kind == "" {
		return "AlphaZero"
	}
	return kind
}

// Mismatch reports how a worker expecting want differs from the run's
// meta m; empty fields of want match anything, except Kind, which must
// be the run's.
func (m Meta) Mismatch(want Meta) error {
	var diffs []error
	if want.Kind != m.Kind {
		diffs = append(diffs, fmt.Errorf("the run is an %s run, this worker plays for an %s one", kindName(m.Kind), kindName(want.Kind)))
	}
	if want.Game != "" && want.Game != m.Game {
		diffs = append(diffs, fmt.Errorf("the run plays %s, this worker %s", m.Game, want.Game))
	}
	if want.Net != "" && want.Net != m.Net {
		diffs = append(diffs, fmt.Errorf("the run's net is %s, this worker's %s", m.Net, want.Net))
	}
	if want.FormatVersion != 0 && want.FormatVersion != m.FormatVersion {
		diffs = append(diffs, fmt.Errorf("the run reads shard format %d, this worker writes %d", m.FormatVersion, want.FormatVersion))
	}
	return errors.Join(diffs...)
}

// ErrNoRun is returned by Open for a run the server does not hold.
var ErrNoRun = errors.New("no such run on the server")

// ErrMismatch wraps the differences that keep a worker out of a run.
var ErrMismatch = errors.New("worker does not match the run")

// HeartbeatTTL is how long a worker's heartbeat stays without renewal.
const HeartbeatTTL = 30 * time.Second

// keepNets is how many checkpoints the net bucket keeps.
const keepNets = 3

// Run is a training run on a JetStream server.
type Run struct {
	Names
	nc      *nats.Conn
	js      jetstream.JetStream
	meta    jetstream.KeyValue
	workers jetstream.KeyValue
	nets    jetstream.ObjectStore
	big     jetstream.ObjectStore
}

// newRun is the run called run on the server nc reaches, before its
// assets are made or looked up.
func newRun(nc *nats.Conn, run string) (*Run, error) {
	n, err := NamesFor(run)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Run{Names: n, nc: nc, js: js}, nil
}

// Create makes (or reopens) the run's assets and records meta. A run that
// exists with another game, net or shard format is refused.
func Create(ctx context.Context, nc *nats.Conn, run string, meta Meta) (*Run, error) {
	r, err := newRun(nc, run)
	if err != nil {
		return nil, err
	}
	if _, err := r.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: r.Stream, Subjects: []string{r.Subject}, Storage: jetstream.FileStorage,
		// Long enough that a worker retrying after an outage is still
		// recognised as publishing a shard twice.
		Duplicates: time.Hour,
	}); err != nil {
		return nil, fmt.Errorf("creating stream %s: %w", r.Stream, err)
	}
	if r.meta, err = r.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: r.RunBucket, Storage: jetstream.FileStorage}); err != nil {
		return nil, fmt.Errorf("creating bucket %s: %w", r.RunBucket, err)
	}
	if r.workers, err = r.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: r.WorkerBucket, TTL: HeartbeatTTL, Storage: jetstream.FileStorage}); err != nil {
		return nil, fmt.Errorf("creating bucket %s: %w", r.WorkerBucket, err)
	}
	if r.nets, err = r.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: r.NetBucket, Storage: jetstream.FileStorage}); err != nil {
		return nil, fmt.Errorf("creating object store %s: %w", r.NetBucket, err)
	}
	if r.big, err = r.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: r.BigBucket, Storage: jetstream.FileStorage}); err != nil {
		return nil, fmt.Errorf("creating object store %s: %w", r.BigBucket, err)
	}
	if old, err := r.Meta(ctx); err == nil {
		if err := old.Mismatch(Meta{Game: meta.Game, Net: meta.Net, FormatVersion: meta.FormatVersion, Kind: meta.Kind}); err != nil {
			return nil, fmt.Errorf("run %s exists on the server with other settings: %w", run, err)
		}
	} else if !errors.Is(err, ErrNoRun) {
		return nil, err
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	if _, err := r.meta.Put(ctx, "meta", b); err != nil {
		return nil, fmt.Errorf("recording run %s: %w", run, err)
	}
	return r, nil
}

// Open returns a run the trainer created, or an error wrapping ErrNoRun.
func Open(ctx context.Context, nc *nats.Conn, run string) (*Run, error) {
	r, err := newRun(nc, run)
	if err != nil {
		return nil, err
	}
	if r.meta, err = r.js.KeyValue(ctx, r.RunBucket); errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("run %s: %w", run, ErrNoRun)
	} else if err != nil {
		return nil, err
	}
	if _, err := r.Meta(ctx); err != nil {
		return nil, err
	}
	if r.workers, err = r.js.KeyValue(ctx, r.WorkerBucket); err != nil {
		return nil, fmt.Errorf("run %s: bucket %s: %w", run, r.WorkerBucket, err)
	}
	if r.nets, err = r.js.ObjectStore(ctx, r.NetBucket); err != nil {
		return nil, fmt.Errorf("run %s: object store %s: %w", run, r.NetBucket, err)
	}
	if r.big, err = r.js.ObjectStore(ctx, r.BigBucket); err != nil {
		return nil, fmt.Errorf("run %s: object store %s: %w", run, r.BigBucket, err)
	}
	return r, nil
}

// WaitOpen opens the run, waiting for the trainer to create it; waiting is
// called once if it has to wait.
func WaitOpen(ctx context.Context, nc *nats.Conn, run string, waiting func()) (*Run, error) {
	said := false
	for {
		r, err := Open(ctx, nc, run)
		if err == nil {
			return r, nil
		}
		if _, bad := NamesFor(run); bad != nil {
			return nil, bad
		}
		if !said {
			waiting()
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for run %s: %w", run, ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

// Meta returns the run's metadata, or an error wrapping ErrNoRun.
func (r *Run) Meta(ctx context.Context) (Meta, error) {
	e, err := r.meta.Get(ctx, "meta")
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Meta{}, fmt.Errorf("run %s: %w", r.Run, ErrNoRun)
	}
	if err != nil {
		return Meta{}, fmt.Errorf("run %s: reading meta: %w", r.Run, err)
	}
	m, err := decodeMeta(e.Value())
	if err != nil {
		return Meta{}, fmt.Errorf("run %s: %w", r.Run, err)
	}
	return m, nil
}

// decodeMeta parses and checks a run's meta record.
func decodeMeta(b []byte) (Meta, error) {
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return Meta{}, fmt.Errorf("malformed meta: %w", err)
	}
	if m.Game == "" || m.Net == "" || m.FormatVersion < 1 || m.Steps < 0 || m.Kind != "" && m.Kind != KindNNUE {
		return Meta{}, fmt.Errorf("malformed meta: game %q, net %q, format %d, steps %d, kind %q", m.Game, m.Net, m.FormatVersion, m.Steps, m.Kind)
	}
	return m, nil
}

// Checkpoint is the record of the run's newest checkpoint.
type Checkpoint struct {
	Step uint64 `json:"step"`
	// Name is the checkpoint's file name, its object's name.
	Name string `json:"name"`
	// SHA256 is the hex SHA-256 of the file.
	SHA256 string    `json:"sha256"`
	Size   int       `json:"size"`
	Time   time.Time `json:"time"`
}

// ErrNoCheckpoint is returned by Latest before the trainer published one.
var ErrNoCheckpoint = errors.New("no checkpoint published yet")

// PublishCheckpoint stores a checkpoint file's bytes and records it as the
// run's newest; the bucket keeps the newest few.
func (r *Run) PublishCheckpoint(ctx context.Context, step uint64, name string, data []byte) error {
	sum, err := r.storeNet(ctx, name, data)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(Checkpoint{Step: step, Name: name, SHA256: sum, Size: len(data), Time: time.Now().UTC()})
	if _, err := r.meta.Put(ctx, "checkpoint", b); err != nil {
		return fmt.Errorf("recording %s: %w", name, err)
	}
	r.pruneNets(ctx, name)
	return nil
}

// storeNet puts a net file into the net store and returns its hex
// SHA-256.
func (r *Run) storeNet(ctx context.Context, name string, data []byte) (string, error) {
	if err := r.putObject(ctx, r.nets, name, data); err != nil {
		return "", fmt.Errorf("publishing %s: %w", name, err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// pruneNets deletes from the net store all but the newest keepNets nets
// and the net called keep; it is best effort.
func (r *Run) pruneNets(ctx context.Context, keep string) {
	objs, err := r.nets.List(ctx)
	if err != nil {
		return
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Name < objs[j].Name })
	for i := 0; i < len(objs)-keepNets; i++ {
		if objs[i].Name != keep {
			r.nets.Delete(ctx, objs[i].Name)
		}
	}
}

// Latest returns the record of the run's newest checkpoint, or an error
// wrapping ErrNoCheckpoint.
func (r *Run) Latest(ctx context.Context) (Checkpoint, error) {
	e, err := r.meta.Get(ctx, "checkpoint")
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Checkpoint{}, fmt.Errorf("run %s: %w", r.Run, ErrNoCheckpoint)
	}
	if err != nil {
		return Checkpoint{}, err
	}
	c, err := decodeCheckpoint(e.Value())
	if err != nil {
		return Checkpoint{}, fmt.Errorf("run %s: %w", r.Run, err)
	}
	return c, nil
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// decodeCheckpoint parses and checks a checkpoint record: its name must
// be the checkpoint file name of its step, its checksum a SHA-256.
func decodeCheckpoint(b []byte) (Checkpoint, error) {
	var c Checkpoint
	if err := json.Unmarshal(b, &c); err != nil {
		return Checkpoint{}, fmt.Errorf("malformed checkpoint record: %w", err)
	}
	if step, ok := checkpoints.StepOf(c.Name); !ok || step != c.Step || !sha256Hex.MatchString(c.SHA256) || c.Size < 0 {
		return Checkpoint{}, fmt.Errorf("malformed checkpoint record: step %d, name %q, checksum %q", c.Step, c.Name, c.SHA256)
	}
	return c, nil
}

// objectAttempts bounds getObject's tries.
const objectAttempts = 4

// getObject reads the object name from store. The object store of
// nats.go cancels its own context when the last chunk has arrived, and a
// read that checks that context before it sees the end of the data fails
// with context.Canceled though nothing was cancelled; getObject tries
// again then, while ctx itself is live.
func getObject(ctx context.Context, store jetstream.ObjectStore, name string) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		data, err := store.GetBytes(ctx, name)
		if err == nil || !errors.Is(err, context.Canceled) || ctx.Err() != nil || attempt == objectAttempts {
			return data, err
		}
	}
}

// FetchCheckpoint downloads the checkpoint c records and verifies its
// checksum.
func (r *Run) FetchCheckpoint(ctx context.Context, c Checkpoint) ([]byte, error) {
	return r.fetchNet(ctx, c.Name, c.SHA256)
}

// fetchNet downloads the net file called name from the net store and
// checks that its hex SHA-256 is sum.
func (r *Run) fetchNet(ctx context.Context, name, sum string) ([]byte, error) {
	data, err := getObject(ctx, r.nets, name)
	if err != nil {
		return nil, fmt.Errorf("downloading %s: %w", name, err)
	}
	h := sha256.Sum256(data)
	if got := hex.EncodeToString(h[:]); got != sum {
		return nil, fmt.Errorf("downloading %s: checksum %s, the run recorded %s", name, got, sum)
	}
	return data, nil
}
