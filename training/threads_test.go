package training

import (
	"runtime"
	"testing"
)

// The trainer takes one thread beside its own self-play and every core
// without it, unless told.
func TestTrainThreads(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want int
	}{
		{"self-play here", Options{}, 1},
		{"no self-play", Options{NoSelfPlay: true}, runtime.GOMAXPROCS(0)},
		{"told, with self-play", Options{TrainThreads: 3}, 3},
		{"told, without self-play", Options{TrainThreads: 1, NoSelfPlay: true}, 1},
	} {
		r := &runner{cfg: tinyConfig(t), opt: tc.opt}
		if got := r.trainConfig().Threads; got != tc.want {
			t.Errorf("%s: %d threads, want %d", tc.name, got, tc.want)
		}
	}
}
