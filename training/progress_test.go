package training

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"trench/internal/syncbuf"
	"trench/selfplay"
)

func TestPlayProgress(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bars  bool
		games int
		want  []string
	}{
		{"plain lines", false, 0, []string{"self-play: games 3 · positions 120 · ", " positions/s\n", "self-play now uses ckpt\n"}},
		{"bar with an end", true, 5, []string{"self-play: games 3 · positions 120 · ", "(3/5)", "self-play now uses ckpt\n"}},
		{"bar without end", true, 0, []string{"self-play: games 3 · positions 120 · ", "self-play now uses ckpt\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stats selfplay.Stats
			out := &syncbuf.Buffer{}
			p := startPlayProgress(context.Background(), Options{Progress: out, Bars: tc.bars, StatusEvery: 5 * time.Millisecond}, &stats, tc.games)
			stats.Games.Store(3)
			stats.Positions.Store(120)
			p.println("self-play now uses %s", "ckpt")
			time.Sleep(300 * time.Millisecond)
			p.finish()
			got := out.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("progress lacks %q:\n%q", w, got)
				}
			}
			lines := regexp.MustCompile(`(?m)^self-play: games`).FindAllString(got, -1)
			if !tc.bars && len(lines) < 2 {
				t.Errorf("%d plain status lines, want a line every 5 ms and a last one:\n%s", len(lines), got)
			}
			if tc.bars && strings.Count(got, "\n") > 3 {
				t.Errorf("a bar writes lines:\n%q", got)
			}
		})
	}
}
