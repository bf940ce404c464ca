package natsrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Heartbeat is what a worker reports about itself.
type Heartbeat struct {
	Worker string `json:"worker"`
	// Games and Positions count what it has played since it started.
	Games     int64 `json:"games"`
	Positions int64 `json:"positions"`
	// PositionsPerSecond is its recent pace.
	PositionsPerSecond float64 `json:"positions_per_second"`
	// Checkpoint is the net it plays with.
	Checkpoint string `json:"checkpoint"`
	// Published counts the shards the server stored; Buffered those
	// waiting for it. Paused is set while the buffer is full.
	Published int64     `json:"published"`
	Buffered  int       `json:"buffered"`
	Paused    bool      `json:"paused"`
	Started   time.Time `json:"started"`
	Time      time.Time `json:"time"`
}

var keyUnsafe = regexp.MustCompile(`[^-_=a-zA-Z0-9]`)

// Beat records hb; it expires after HeartbeatTTL unless renewed.
func (r *Run) Beat(ctx context.Context, hb Heartbeat) error {
	hb.Time = time.Now().UTC()
	b, err := json.Marshal(hb)
	if err != nil {
		return err
	}
	_, err = r.workers.Put(ctx, keyUnsafe.ReplaceAllString(hb.Worker, "_"), b)
	return err
}

// Leave removes a worker's heartbeat when it stops cleanly.
func (r *Run) Leave(ctx context.Context, worker string) error {
	return r.workers.Delete(ctx, keyUnsafe.ReplaceAllString(worker, "_"))
}

// Workers returns the heartbeats of the live workers, by name.
func (r *Run) Workers(ctx context.Context) ([]Heartbeat, error) {
	keys, err := r.workers.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var hbs []Heartbeat
	for _, k := range keys {
		e, err := r.workers.Get(ctx, k)
		if err != nil {
			continue // expired between the listing and now
		}
		var hb Heartbeat
		if json.Unmarshal(e.Value(), &hb) == nil {
			hbs = append(hbs, hb)
		}
	}
	sort.Slice(hbs, func(i, j int) bool { return hbs[i].Worker < hbs[j].Worker })
	return hbs, nil
}

// Status is a run's progress as the server knows it.
type Status struct {
	Meta Meta
	// Latest is the newest checkpoint, nil before the first.
	Latest *Checkpoint
	// Generation is an NNUE run's generation in progress, nil before
	// the first is announced.
	Generation *Generation
	// Shards and Bytes are what workers have published; Waiting counts
	// the shards the trainer has not yet taken.
	Shards, Bytes, Waiting uint64
	Workers                []Heartbeat
}

// Status gathers the run's progress.
func (r *Run) Status(ctx context.Context) (Status, error) {
	var s Status
	var err error
	if s.Meta, err = r.Meta(ctx); err != nil {
		return s, err
	}
	if s.Meta.Kind == KindNNUE {
		if g, err := r.CurrentGeneration(ctx); err == nil {
			s.Generation = &g
		} else if !errors.Is(err, ErrNoGeneration) {
			return s, err
		}
	} else if c, err := r.Latest(ctx); err == nil {
		s.Latest = &c
	} else if !errors.Is(err, ErrNoCheckpoint) {
		return s, err
	}
	st, err := r.js.Stream(ctx, r.Stream)
	if err != nil {
		return s, fmt.Errorf("stream %s: %w", r.Stream, err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		return s, fmt.Errorf("stream %s: %w", r.Stream, err)
	}
	s.Shards, s.Bytes = info.State.Msgs, info.State.Bytes
	s.Waiting = s.Shards
	if c, err := st.Consumer(ctx, ConsumerName); err == nil {
		if ci, err := c.Info(ctx); err == nil {
			s.Waiting = ci.NumPending + uint64(ci.NumAckPending)
		}
	}
	s.Workers, err = r.Workers(ctx)
	return s, err
}

// Print writes the status of the run called name as a few lines and a
// table of its workers, with ages measured from now.
func (s Status) Print(w io.Writer, name string, now time.Time) {
	target := "no end"
	if s.Meta.Steps > 0 {
		target = fmt.Sprintf("of %d", s.Meta.Steps)
	}
	if s.Meta.Kind == KindNNUE {
		fmt.Fprintf(w, "run %s: NNUE of %s, net %s, position shard format %d\n", name, s.Meta.Game, s.Meta.Net, s.Meta.FormatVersion)
		if s.Generation == nil {
			fmt.Fprintf(w, "generation: none yet (generations %s)\n", target)
		} else {
			fmt.Fprintf(w, "generation: %d %s, played by %s, announced %s ago\n", s.Generation.Generation, target, s.Generation.Player, now.Sub(s.Generation.Time).Round(time.Second))
		}
	} else {
		fmt.Fprintf(w, "run %s: %s, net %s, shard format %d\n", name, s.Meta.Game, s.Meta.Net, s.Meta.FormatVersion)
	}
	switch {
	case s.Meta.Kind == KindNNUE:
	case s.Latest == nil:
		fmt.Fprintf(w, "checkpoint: none yet (steps %s)\n", target)
	default:
		fmt.Fprintf(w, "checkpoint: %s, step %d %s, published %s ago\n", s.Latest.Name, s.Latest.Step, target, now.Sub(s.Latest.Time).Round(time.Second))
	}
	fmt.Fprintf(w, "shards: %d published by workers (%.1f MB), %d not yet taken by the trainer\n", s.Shards, float64(s.Bytes)/1e6, s.Waiting)
	fmt.Fprintf(w, "workers: %d live\n", len(s.Workers))
	if len(s.Workers) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  WORKER\tGAMES\tPOSITIONS\tPOS/S\tCHECKPOINT\tPUBLISHED\tBUFFERED\tUP\tSEEN")
	for _, h := range s.Workers {
		buffered := fmt.Sprint(h.Buffered)
		if h.Paused {
			buffered += " (paused)"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%.1f\t%s\t%d\t%s\t%s\t%s ago\n", h.Worker, h.Games, h.Positions, h.PositionsPerSecond, h.Checkpoint,
			h.Published, buffered, now.Sub(h.Started).Round(time.Second), now.Sub(h.Time).Round(time.Second))
	}
	tw.Flush()
}
