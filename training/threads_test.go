package training

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// The trainer takes one thread beside its own self-play, every core while
// all the self-play workers are held back, and every core without
// self-play (or in the relabelling phase, which has none), unless told.
func TestTrainThreads(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		name          string
		opt           Options
		held          int32
		relabelling   bool
		most, threads int
	}{
		{"self-play here", Options{}, 0, false, cores, 1},
		{"self-play here, one worker held", Options{}, 1, false, cores, 1},
		{"self-play here, every worker held", Options{}, 2, false, cores, cores},
		{"relabelling phase", Options{}, 0, true, cores, cores},
		{"no self-play", Options{NoSelfPlay: true}, 0, false, cores, cores},
		{"told, with self-play", Options{TrainThreads: 3}, 0, false, 3, 3},
		{"told, with self-play held", Options{TrainThreads: 3}, 2, false, 3, 3},
		{"told, in the relabelling phase", Options{TrainThreads: 1}, 0, true, 1, 1},
		{"told, without self-play", Options{TrainThreads: 1, NoSelfPlay: true}, 0, false, 1, 1},
	} {
		cfg := tinyConfig(t)
		cfg.Workers = 2
		r := &runner{cfg: cfg, opt: tc.opt}
		r.held.Store(tc.held)
		if got := r.trainConfig().Threads; got != tc.most {
			t.Errorf("%s: trainer made for %d threads, want %d", tc.name, got, tc.most)
		}
		ph := r.selfPlayPhase()
		if tc.relabelling {
			ph = phase{}
		}
		if got := r.stepThreads(ph); got != tc.threads {
			t.Errorf("%s: a step on %d threads, want %d", tc.name, got, tc.threads)
		}
	}
}

// throttle counts the workers it holds back while they wait, and no
// longer once the trainer has caught up or the worker stops.
func TestThrottleCountsHeld(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.MinPositions, cfg.ReplayRatio = 0, 2
	r := &runner{cfg: cfg}
	r.total.Store(100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { done <- r.throttle(ctx) }()
	go func() { done <- r.throttle(context.Background()) }()
	waitFor(t, func() bool { return r.held.Load() == 2 }, "two workers held")
	cancel()
	if err := <-done; err == nil {
		t.Errorf("a worker stopped while held: no error")
	}
	waitFor(t, func() bool { return r.held.Load() == 1 }, "one worker held after the other stopped")
	r.trained.Store(200)
	if err := <-done; err != nil {
		t.Errorf("a worker let go: %v", err)
	}
	if n := r.held.Load(); n != 0 {
		t.Errorf("%d workers held after the trainer caught up", n)
	}
	if err := r.throttle(context.Background()); err != nil || r.held.Load() != 0 {
		t.Errorf("a worker the trainer is not behind: %v, %d held", err, r.held.Load())
	}
}

// waitFor polls cond for up to 5 seconds and fails the test with what
// otherwise.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
