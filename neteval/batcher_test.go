package neteval

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
)

// slowEvaluator answers like the wrapped evaluator after a pause, so that
// concurrent callers pile up, and can be made to fail.
type slowEvaluator struct {
	inner mcts.Evaluator
	pause time.Duration
	fail  error
}

func (s *slowEvaluator) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	time.Sleep(s.pause)
	if s.fail != nil {
		return s.fail
	}
	return s.inner.Evaluate(states, out)
}

// Concurrent callers get exactly what a direct call gives, and share
// batches.
func TestBatcherMatchesDirect(t *testing.T) {
	ev, err := New(trench.Game, tinyNet(t, trench.Game))
	if err != nil {
		t.Fatal(err)
	}
	b := NewBatcher(&slowEvaluator{inner: ev, pause: 5 * time.Millisecond}, 64)
	defer b.Close()
	var states []engine.State
	s := trench.Game.Start()
	for i := range 16 {
		states = append(states, s.Clone())
		acts := s.LegalActions(nil)
		s.Play(acts[i%len(acts)])
	}
	want := make([]mcts.Evaluation, len(states))
	if err := ev.Evaluate(states, want); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for round := range 4 {
		for i := range states {
			wg.Go(func() {
				out := make([]mcts.Evaluation, 1)
				if err := b.Evaluate(states[i:i+1], out); err != nil {
					t.Error(err)
					return
				}
				if !slices.Equal(out[0].Policy, want[i].Policy) || !slices.Equal(out[0].Values, want[i].Values) {
					t.Errorf("round %d state %d: batched %v %v, direct %v %v", round, i, out[0].Policy[:3], out[0].Values, want[i].Policy[:3], want[i].Values)
				}
			})
		}
	}
	wg.Wait()
	calls, batches, n := b.Stats()
	if calls != 64 || n != 64 || batches >= calls {
		t.Errorf("%d calls, %d batches, %d states: want 64 calls in fewer batches", calls, batches, n)
	}
}

func TestBatcherErrorsAndClose(t *testing.T) {
	boom := errors.New("boom")
	b := NewBatcher(&slowEvaluator{inner: mcts.UniformEvaluator{}, fail: boom}, 8)
	s := trench.Game.Start()
	out := []mcts.Evaluation{{Actions: s.LegalActions(nil)}}
	if err := b.Evaluate([]engine.State{s}, out); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if err := b.Evaluate(nil, nil); err != nil {
		t.Errorf("empty call: %v", err)
	}
	b.Close()
	b.Close()
	if err := b.Evaluate([]engine.State{s}, out); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

// BenchmarkBatcher measures the overhead of gathering: 16 goroutines
// evaluate one state at a time through a uniform evaluator.
func BenchmarkBatcher(b *testing.B) {
	bt := NewBatcher(mcts.UniformEvaluator{}, 256)
	defer bt.Close()
	s := trench.Game.Start()
	acts := s.LegalActions(nil)
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		out := []mcts.Evaluation{{Actions: acts}}
		states := []engine.State{s}
		for pb.Next() {
			if err := bt.Evaluate(states, out); err != nil {
				b.Error(err)
				return
			}
		}
	})
	_, batches, n := bt.Stats()
	b.ReportMetric(float64(n)/float64(batches), "states/batch")
}

// A call is counted in Stats by the time it returns.
func TestBatcherCountsBeforeAnswering(t *testing.T) {
	ev, err := New(trench.Game, tinyNet(t, trench.Game))
	if err != nil {
		t.Fatal(err)
	}
	b := NewBatcher(ev, 64)
	defer b.Close()
	states := []engine.State{trench.Game.Start()}
	out := make([]mcts.Evaluation, 1)
	for i := range int64(2000) {
		if err := b.Evaluate(states, out); err != nil {
			t.Fatal(err)
		}
		if calls, _, _ := b.Stats(); calls != i+1 {
			t.Fatalf("after call %d returned, Stats counts %d calls", i+1, calls)
		}
	}
}
