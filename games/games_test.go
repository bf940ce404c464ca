package games

import (
	"strings"
	"testing"
)

func TestByName(t *testing.T) {
	g, err := ByName("trench")
	if err != nil || g.Name() != "trench" {
		t.Errorf("ByName(trench) = %v, %v", g, err)
	}
	if g, err := ByName("trichess"); err != nil || g.Players() != 3 {
		t.Errorf("ByName(trichess) = %v, %v", g, err)
	}
	if _, err := ByName("chess"); err == nil || !strings.Contains(err.Error(), "known: trench, trichess, tictactoe") {
		t.Errorf("ByName(chess) = %v, want an error listing the known games", err)
	}
}
