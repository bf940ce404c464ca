package neteval

import (
	"errors"
	"sync"

	"trench/engine"
	"trench/mcts"
)

// ErrClosed is returned by a Batcher's Evaluate after Close.
var ErrClosed = errors.New("neteval: the batcher is closed")

// Batcher is an mcts.Evaluator that gathers the Evaluate calls of many
// goroutines (one search per game, say) into single calls of an
// underlying evaluator: while one batch is evaluated, the calls that
// arrive wait and go together in the next. Small calls thus share one
// large net pass without any timer. It is safe for concurrent use.
type Batcher struct {
	eval     mcts.Evaluator
	maxBatch int
	reqs     chan *batchRequest
	quit     chan struct{}
	once     sync.Once
	wg       sync.WaitGroup

	mu      sync.Mutex
	calls   int64
	batches int64
	states  int64
}

// batchRequest is one waiting Evaluate call.
type batchRequest struct {
	states []engine.State
	out    []mcts.Evaluation
	done   chan error
}

// NewBatcher returns a batcher over eval that evaluates up to maxBatch
// states at once (a call larger than that goes alone).
func NewBatcher(eval mcts.Evaluator, maxBatch int) *Batcher {
	if maxBatch < 1 {
		maxBatch = 1
	}
	b := &Batcher{eval: eval, maxBatch: maxBatch, reqs: make(chan *batchRequest, 1024), quit: make(chan struct{})}
	b.wg.Add(1)
	go b.loop()
	return b
}

// Evaluate queues the states with the other callers' and returns once
// their batch is evaluated.
func (b *Batcher) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	if len(states) == 0 {
		return nil
	}
	r := &batchRequest{states: states, out: out, done: make(chan error, 1)}
	select {
	case b.reqs <- r:
	case <-b.quit:
		return ErrClosed
	}
	select {
	case err := <-r.done:
		return err
	case <-b.quit:
		// The loop answers every request it took before it stops.
		select {
		case err := <-r.done:
			return err
		default:
			return ErrClosed
		}
	}
}

// Stats returns the number of Evaluate calls, of underlying batches and
// of states evaluated so far: states/batches is the mean batch size.
func (b *Batcher) Stats() (calls, batches, states int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls, b.batches, b.states
}

// Close stops the batcher; waiting and later calls return ErrClosed.
func (b *Batcher) Close() {
	b.once.Do(func() { close(b.quit) })
	b.wg.Wait()
}

func (b *Batcher) loop() {
	defer b.wg.Done()
	var (
		batch  []*batchRequest
		states []engine.State
		out    []mcts.Evaluation
	)
	for {
		var first *batchRequest
		select {
		case first = <-b.reqs:
		case <-b.quit:
			return
		}
		batch = append(batch[:0], first)
		n := len(first.states)
	gather:
		for n < b.maxBatch {
			select {
			case r := <-b.reqs:
				batch = append(batch, r)
				n += len(r.states)
			default:
				break gather
			}
		}
		states, out = states[:0], out[:0]
		for _, r := range batch {
			states = append(states, r.states...)
			out = append(out, r.out...)
		}
		err := b.eval.Evaluate(states, out)
		// Count the batch before answering it, so that a caller who
		// reads Stats after its call returns sees the call counted.
		b.mu.Lock()
		b.calls += int64(len(batch))
		b.batches++
		b.states += int64(n)
		b.mu.Unlock()
		i := 0
		for _, r := range batch {
			// The evaluator may have grown the buffers: hand them back.
			copy(r.out, out[i:i+len(r.out)])
			i += len(r.out)
			r.done <- err
		}
		clear(states)
	}
}
