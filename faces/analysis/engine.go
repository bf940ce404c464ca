// Package analysis is the JSON analysis engine of "trench analysis",
// after KataGo's: queries one a line on an input, each a JSON object
// naming positions of a game to search, and responses one a line on an
// output, JSON objects with the search's moves, values and main lines,
// written as the searches end, in any order. The searches are those of
// the bots a bot.Maker makes, by default the bot as shipped (for Trench
// the alphabeta kind with the NNUE built in, which reports the root
// moves it searched in full, best first), or the tree search. Several
// turns are searched at once, one bot a worker; the tree search's bots
// make their net calls through one neteval.Batcher, so that concurrent
// searches share the net's batches. A query it refuses gets an error
// line naming the field at fault, and the engine carries on; special
// actions terminate queries and report the version. docs/playing.md
// describes the fields.
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
	"trench/internal/textline"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
)

// Config is what an engine needs.
type Config struct {
	// Maker makes the workers' bots, one each: their game, their kind
	// of search (searchconfig.AlphaBeta or MCTS), their net and, for the
	// tree search, the threads searching each turn's tree.
	Maker *bot.Maker
	// Workers is the number of turns searched at once; 0 means 1.
	Workers int
	// Limits bound the search of a query that gives none of maxVisits,
	// maxNodes and maxTime: simulations (the mcts kind) or nodes (the
	// alphabeta kind) and a time; Limits.MultiPV is the lines of a query
	// that gives no multiPV.
	Limits bot.Limits
	// MaxVisits is the largest maxVisits a query may ask; 0 means
	// bot.MaxSims.
	MaxVisits int
	// MaxNodes is the largest maxNodes a query may ask; 0 means
	// bot.MaxNodes.
	MaxNodes int
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
	// bot names the bots' search and net, on every response.
	bot     string
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
	case cfg.Maker == nil:
		return nil, errors.New("analysis: no bot maker")
	case cfg.Workers < 0 || cfg.Workers > MaxWorkers:
		return nil, fmt.Errorf("workers must be in 1..%d, got %d", MaxWorkers, cfg.Workers)
	case cfg.MaxVisits < 0 || cfg.MaxVisits > bot.MaxSims:
		return nil, fmt.Errorf("the largest maxVisits must be in 1..%d, got %d", bot.MaxSims, cfg.MaxVisits)
	case cfg.MaxNodes < 0 || cfg.MaxNodes > bot.MaxNodes:
		return nil, fmt.Errorf("the largest maxNodes must be in 1..%d, got %d", bot.MaxNodes, cfg.MaxNodes)
	case cfg.MaxLine < 0:
		return nil, fmt.Errorf("the line limit must not be negative, got %d", cfg.MaxLine)
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, err
	}
	g, c := cfg.Maker.Game(), cfg.Maker.Config()
	switch {
	case c.Kind == searchconfig.AlphaBeta && cfg.Limits.Sims > 0:
		return nil, fmt.Errorf("the alphabeta kind searches by nodes or time, not by %d simulations", cfg.Limits.Sims)
	case c.Kind != searchconfig.AlphaBeta && cfg.Limits.Nodes > 0:
		return nil, fmt.Errorf("the mcts kind searches by simulations or time, not by %d nodes", cfg.Limits.Nodes)
	}
	workers := max(1, cfg.Workers)
	e := &Engine{
		dec: Decoder{
			Game: g, Kind: c.Kind, Limits: cfg.Limits,
			MaxVisits: cfg.MaxVisits, MaxNodes: cfg.MaxNodes,
		},
		version: cfg.Version,
		bot:     cfg.Maker.String(),
		maxLine: cfg.MaxLine,
		running: make(map[*turn]bool),
	}
	if e.maxLine == 0 {
		e.maxLine = textline.Max
	}
	e.more = sync.NewCond(&e.mu)
	var shared mcts.Evaluator
	if net := cfg.Maker.Net(); net != nil {
		ev, err := neteval.New(g, net.Inference)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", net.Source, err)
		}
		e.batcher = neteval.NewBatcher(ev, workers*max(1, c.Threads))
		shared = e.batcher
	}
	for range workers {
		b, err := cfg.Maker.New(0, shared)
		if err != nil {
			e.close()
			return nil, err
		}
		e.workers = append(e.workers, &searcher{bot: b})
	}
	return e, nil
}

// Describe names the bots' search and the net it read, as the bot
// field of every response does: the words of bot.Maker.String.
func (e *Engine) Describe() string { return e.bot }

// Batcher returns the evaluator the tree search's workers share, or nil
// without one (the alphabeta kind, or no net).
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
		e.write(&Response{ID: t.q.ID, TurnNumber: t.q.Turns[t.i], Bot: e.bot, Terminated: true, NoResults: true})
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
		e.write(e.respond(q, n, a, true))
	})
	switch {
	case err != nil && t.ctx.Err() != nil:
		return &Response{ID: q.ID, TurnNumber: n, Bot: e.bot, Terminated: true, NoResults: true}
	case err != nil:
		// The decoder checked the position; a search that still fails is
		// reported on the turn, which ends without results.
		e.write(&Error{ID: q.ID, Message: fmt.Sprintf("turn %d: %v", n, err)})
		return &Response{ID: q.ID, TurnNumber: n, Bot: e.bot, NoResults: true}
	}
	return e.respond(q, n, a, false)
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
			end, _ := json.Marshal(&Response{ID: r.ID, TurnNumber: r.TurnNumber, Bot: r.Bot, Terminated: r.Terminated, NoResults: true})
			b = append(b, end...)
		}
	}
	b = append(b, '\n')
	e.outMu.Lock()
	defer e.outMu.Unlock()
	e.out.Write(b)
}
