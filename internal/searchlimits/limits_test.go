package searchlimits

import (
	"testing"
	"time"
)

func TestLimitsCheck(t *testing.T) {
	for _, tc := range []struct {
		l    Limits
		says string
	}{
		{Limits{Depth: 3}, ""},
		{Limits{Time: time.Second}, ""},
		{Limits{Nodes: 1}, ""},
		{Limits{Depth: 10}, ""},
		{Limits{}, "give a depth, a time or a node limit"},
		{Limits{Depth: -1}, "depth must be in 1..10, got -1"},
		{Limits{Depth: 11}, "depth must be in 1..10, got 11"},
		{Limits{Depth: 2, Time: -time.Second}, "time must be positive, got -1s"},
		{Limits{SoftNodes: 5}, ""},
		{Limits{SoftNodes: 5, Nodes: 5}, ""},
		{Limits{SoftNodes: 6, Nodes: 5}, "soft node limit 6 is above the node limit 5"},
	} {
		err := tc.l.Check(10)
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || err.Error() != tc.says) {
			t.Errorf("%+v: Check(10) = %v, want %q", tc.l, err, tc.says)
		}
	}
}

func TestDeepen(t *testing.T) {
	const bound = 900
	for _, tc := range []struct {
		l       Limits
		score   int
		elapsed time.Duration
		nodes   uint64
		deepen  bool
	}{
		{Limits{Depth: 5}, 10, time.Hour, 1 << 40, true},
		{Limits{Depth: 5}, 950, 0, 0, false},
		{Limits{Depth: 5}, -950, 0, 0, false},
		{Limits{Time: time.Second}, 0, 400 * time.Millisecond, 0, true},
		{Limits{Time: time.Second}, 0, 600 * time.Millisecond, 0, false},
		{Limits{Nodes: 1000}, 0, 0, 999, true},
		{Limits{Nodes: 1000}, 0, 0, 1000, false},
		{Limits{SoftNodes: 100, Nodes: 1000}, 0, 0, 99, true},
		{Limits{SoftNodes: 100, Nodes: 1000}, 0, 0, 100, false},
	} {
		if got := tc.l.Deepen(tc.score, bound, tc.elapsed, tc.nodes); got != tc.deepen {
			t.Errorf("%+v.Deepen(%d, %v, %d) = %v", tc.l, tc.score, tc.elapsed, tc.nodes, got)
		}
	}
}
