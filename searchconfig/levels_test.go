package searchconfig

import (
	"fmt"
	"strings"
	"testing"
)

func TestLevelList(t *testing.T) {
	for _, tc := range []struct {
		kind, want string
		per        func(int) (int, error)
	}{
		{MCTS, "1=1, 2=8, 3=32, 4=100, 5=200, 6=400, 7=800, 8=1600", LevelSims},
		{AlphaBeta, "1=1000, 2=3000, 3=10000, 4=30000, 5=100000, 6=300000, 7=1000000, 8=3000000", LevelNodes},
	} {
		got := LevelListOf(tc.kind)
		if got != tc.want {
			t.Errorf("LevelListOf(%s) = %q, want %q", tc.kind, got, tc.want)
		}
		if !strings.Contains(LevelList(), tc.kind) || !strings.Contains(LevelList(), got) {
			t.Errorf("LevelList() = %q lacks %s's %q", LevelList(), tc.kind, got)
		}
		for n := 1; n <= Levels; n++ {
			x, _ := tc.per(n)
			if !strings.Contains(got+",", fmt.Sprintf("%d=%d,", n, x)) {
				t.Errorf("LevelListOf(%s) does not say level %d's %d", tc.kind, n, x)
			}
		}
		if _, err := tc.per(Levels + 1); err == nil {
			t.Errorf("%s level %d accepted", tc.kind, Levels+1)
		}
	}
}
