package searchconfig

import (
	"fmt"
	"strings"
	"testing"
)

func TestLevelList(t *testing.T) {
	want := "1=1, 2=8, 3=32, 4=100, 5=200, 6=400, 7=800, 8=1600"
	if got := LevelList(); got != want {
		t.Errorf("LevelList() = %q, want %q", got, want)
	}
	for n := 1; n <= Levels; n++ {
		sims, _ := LevelSims(n)
		if !strings.Contains(LevelList()+",", fmt.Sprintf("%d=%d,", n, sims)) {
			t.Errorf("LevelList() does not say level %d's %d sims", n, sims)
		}
	}
}
