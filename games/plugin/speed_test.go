package plugin

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestDeepeningSpeed checks the depths DeepeningSpeed searches and the
// speed it reports: nodes over time summed over the depths searched, the
// next depth taken while four times the time so far fits in d, at least
// one depth, none past the deepest.
func TestDeepeningSpeed(t *testing.T) {
	// Depth k visits 1000·k nodes in k ms.
	bench := func(depths *int) func(context.Context, int) (uint64, time.Duration, error) {
		return func(_ context.Context, depth int) (uint64, time.Duration, error) {
			*depths = depth
			return uint64(1000 * depth), time.Duration(depth) * time.Millisecond, nil
		}
	}
	for _, tc := range []struct {
		maxDepth, depths int
		d                time.Duration
	}{
		{64, 1, 0},                     // one depth at least
		{64, 1, 4 * time.Millisecond},  // 1 ms so far: 4 ms < 4 ms stops
		{64, 2, 5 * time.Millisecond},  // 4 < 5 goes on; 3 ms: 12 < 5 stops
		{64, 4, 40 * time.Millisecond}, // 6 ms: 24 < 40 goes on; 10 ms: 40 < 40 stops
		{3, 3, time.Hour},
	} {
		var deepest int
		nps, err := DeepeningSpeed(context.Background(), tc.maxDepth, tc.d, bench(&deepest))
		if err != nil || deepest != tc.depths || nps != 1e6 {
			t.Errorf("max depth %d, %v: %v nodes/s to depth %d, %v; want 1e6 to depth %d", tc.maxDepth, tc.d, nps, deepest, err, tc.depths)
		}
	}
	boom := errors.New("boom")
	if _, err := DeepeningSpeed(context.Background(), 8, time.Second, func(context.Context, int) (uint64, time.Duration, error) {
		return 0, 0, boom
	}); !errors.Is(err, boom) {
		t.Errorf("a failing bench: %v", err)
	}
}
