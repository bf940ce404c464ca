// Package analysis is the JSON analysis engine of "trench analysis",
// after KataGo's: queries one a line on an input, each a JSON object
// naming positions of a game to search, and responses one a line on an
// output, JSON objects with the search's moves, values and main lines,
// written as the searches end, in any order. Several turns are searched
// at once, one bot a worker, and all the bots' net calls go through one
// neteval.Batcher, so that concurrent searches share the net's batches.
// A query it refuses gets an error line naming the field at fault, and
// the engine carries on; special actions terminate queries and report
// the version. docs/playing.md describes the fields.
package analysis

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"trench/bot"
	"trench/engine"
	"trench/internal/textline"
	"trench/mcts"
	"trench/neteval"
)

// Config is what an engine needs.
type Config struct {
	// Game is the game analysed.
	Game engine.Game
	// Net is the net the searches use; nil searches with tactics.Fallback.
	Net *neteval.Net
	// Workers is the number of turns searched at once; 0 means 1.
	Workers int
	// Threads is the number of goroutines searching each turn's tree; 0
	// means 1.
	Threads int
	// Limits bound the search of a query that gives neither maxVisits nor
	// maxTime.
	Limits bot.Limits
	// MaxVisits is the largest maxVisits a query may ask; 0 means
	// bot.MaxSims.
	MaxVisits int
	// MaxLine bounds a query line's length in bytes; 0 means textline.Max.
	MaxLine int
	// Version is what query_version reports.
	Version string
}

// MaxWorkers bounds Config.Workers.
const MaxWorkers = 256

// Engine answers analysis queries. It runs once.
type Engine struct {
	dec     Decoder
	version string
	maxLine int
	batcher *neteval.Batcher
	workers []*searcher

	outMu sync.Mutex
	out   io.Writer

	mu      sync.Mutex
	more    *sync.Cond // signalled when a turn is queued or the input ends
	queue   []*turn
	running map[*turn]bool
	closed  bool
}

// turn is one turn of one query: a unit of work for a worker.
type turn struct {
	q      *Query
	i      int // index into q.Turns
	ctx    context.Context
	cancel context.CancelFunc
	// terminated is set, under Engine.mu, by a terminate action.
	terminated bool
}

// New checks cfg and makes the engine's bots.
func New(cfg Config) (*Engine, error) {
	switch {
	case cfg.Game == nil:
		return nil, errors.New("analysis: no game")
	case cfg.Workers < 0 || cfg.Workers > MaxWorkers:
		return nil, fmt.Errorf("workers must be in 1..%d, got %d", MaxWorkers, cfg.Workers)
	case cfg.Threads < 0:
		return nil, fmt.Errorf("threads must not be negative, got %d", cfg.Threads)
	case cfg.MaxVisits < 0 || cfg.MaxVisits > bot.MaxSims:
		return nil, fmt.Errorf("the largest maxVisits must be in 1..%d, got %d", bot.MaxSims, cfg.MaxVisits)
	case cfg.MaxLine < 0:
		return nil, fmt.Errorf("the line limit must not be negative, got %d", cfg.MaxLine)
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, err
	}
	workers, threads := max(1, cfg.Workers), max(1, cfg.Threads)
	e := &Engine{
		dec:     Decoder{Game: cfg.Game, Limits: cfg.Limits, MaxVisits: cfg.MaxVisits},
		version: cfg.Version,
		maxLine: cfg.MaxLine,
		running: make(map[*turn]bool),
	}
	if e.maxLine == 0 {
		e.maxLine = textline.Max
	}
	e.more = sync.NewCond(&e.mu)
	var shared mcts.Evaluator
	if cfg.Net != nil {
		ev, err := neteval.New(cfg.Game, cfg.Net.Inference)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.Net.Source, err)
		}
		e.batcher = neteval.NewBatcher(ev, workers*threads)
		shared = e.batcher
	}
	for range workers {
		s, err := newSearcher(cfg.Game, cfg.Net, shared, threads)
		if err != nil {
			e.close()
			return nil, err
		}
		e.workers = append(e.workers, s)
	}
	return e, nil
}

// Describe says what the engine searches with, e.g. its net.
func (e *Engine) Describe() string { return e.workers[0].describe() }

// Batcher returns the evaluator the workers share, or nil without a net.
func (e *Engine) Batcher() *neteval.Batcher { return e.batcher }

func (e *Engine) close() {
	if e.batcher != nil {
		e.batcher.Close()
	}
}

// Run reads queries from in and writes responses to out until in ends;
// then it finishes the turns queued and running, and returns nil, or the
// error reading in (after terminating what was queued).
func (e *Engine) Run(in io.Reader, out io.Writer) error {
	e.out = out
	var wg sync.WaitGroup
	for _, s := range e.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.work(s)
		}()
	}
	r := bufio.NewReader(in)
	var readErr error
	for {
		line, err := textline.Read(r, e.maxLine)
		if errors.Is(err, textline.ErrTooLong) {
			e.write(&Error{Message: fmt.Sprintf("line too long (limit %d bytes)", e.maxLine)})
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
				e.terminate(func(*turn) bool { return true })
			}
			break
		}
		if len(line) == 0 {
			continue
		}
		e.handle([]byte(line))
	}
	e.mu.Lock()
	e.closed = true
	e.more.Broadcast()
	e.mu.Unlock()
	wg.Wait()
	e.close()
	return readErr
}

// handle answers one query line.
func (e *Engine) handle(line []byte) {
	q, a, qerr := e.dec.Decode(line)
	switch {
	case qerr != nil:
		e.write(qerr)
	case a != nil:
		e.act(a)
	default:
		e.mu.Lock()
		for i := range q.Turns {
			ctx, cancel := context.WithCancel(context.Background())
			e.queue = append(e.queue, &turn{q: q, i: i, ctx: ctx, cancel: cancel})
		}
		e.more.Broadcast()
		e.mu.Unlock()
	}
}

// act carries out a special action and answers it, echoing its fields.
func (e *Engine) act(a *Action) {
	reply := make(map[string]any, len(a.fields)+1)
	for k, v := range a.fields {
		reply[k] = v
	}
	switch a.Name {
	case "query_version":
		reply["version"] = e.version
	case "terminate", "terminate_all":
		e.terminate(func(t *turn) bool {
			if a.Name == "terminate" && t.q.ID != a.TerminateID {
				return false
			}
			if a.TurnNumbers == nil {
				return true
			}
			for _, n := range a.TurnNumbers {
				if n == t.q.Turns[t.i] {
					return true
				}
			}
			return false
		})
	}
	e.write(reply)
}

// terminate ends the turns that match: a queued one is answered at once
// with no results, a running one stops and reports what it found.
func (e *Engine) terminate(match func(*turn) bool) {
	e.mu.Lock()
	var dropped []*turn
	kept := e.queue[:0]
	for _, t := range e.queue {
		if match(t) {
			dropped = append(dropped, t)
		} else {
			kept = append(kept, t)
		}
	}
	clear(e.queue[len(kept):])
	e.queue = kept
	for t := range e.running {
		if match(t) {
			t.terminated = true
			t.cancel()
		}
	}
	e.mu.Unlock()
	for _, t := range dropped {
		t.cancel()
		e.write(&Response{ID: t.q.ID, TurnNumber: t.q.Turns[t.i], Terminated: true, NoResults: true})
	}
}

// work searches queued turns with s until the input has ended and the
// queue is empty.
func (e *Engine) work(s *searcher) {
	for {
		e.mu.Lock()
		for len(e.queue) == 0 && !e.closed {
			e.more.Wait()
		}
		if len(e.queue) == 0 {
			e.mu.Unlock()
			return
		}
		t := e.queue[0]
		e.queue[0] = nil
		e.queue = e.queue[1:]
		e.running[t] = true
		e.mu.Unlock()

		r := e.search(s, t)

		e.mu.Lock()
		delete(e.running, t)
		r.Terminated = r.Terminated || t.terminated
		e.mu.Unlock()
		t.cancel()
		e.write(r)
	}
}

// search searches one turn and returns its final response.
func (e *Engine) search(s *searcher, t *turn) *Response {
	q, n := t.q, t.q.Turns[t.i]
	a, err := s.search(t.ctx, q.Positions[t.i], q.Limits, q.ReportEvery, func(a *bot.Analysis) {
		e.write(respond(q.ID, n, a, true, false))
	})
	switch {
	case err != nil && t.ctx.Err() != nil:
		return &Response{ID: q.ID, TurnNumber: n, Terminated: true, NoResults: true}
	case err != nil:
		// The decoder checked the position; a search that still fails is
		// reported on the turn, which ends without results.
		e.write(&Error{ID: q.ID, Message: fmt.Sprintf("turn %d: %v", n, err)})
		return &Response{ID: q.ID, TurnNumber: n, NoResults: true}
	}
	return respond(q.ID, n, a, false, q.IncludePolicy)
}

// write writes v as one JSON line.
func (e *Engine) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// A value JSON cannot hold (NaN): say so, and end the turn of a
		// final response without results, so that it still ends.
		r, _ := v.(*Response)
		id := ""
		if r != nil {
			id = r.ID
		}
		b, _ = json.Marshal(&Error{ID: id, Message: "encoding a response: " + err.Error()})
		if r != nil && !r.IsDuringSearch {
			b = append(b, '\n')
			end, _ := json.Marshal(&Response{ID: r.ID, TurnNumber: r.TurnNumber, Terminated: r.Terminated, NoResults: true})
			b = append(b, end...)
		}
	}
	b = append(b, '\n')
	e.outMu.Lock()
	defer e.outMu.Unlock()
	e.out.Write(b)
}
