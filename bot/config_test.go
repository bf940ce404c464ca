package bot

import (
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/mcts"
	"trench/searchconfig"
)

// TestOptionsFor checks that a bot's settings become its options: the
// guard and endgame made when asked, refused in a game without a
// classical search, and every search setting carried over.
func TestOptionsFor(t *testing.T) {
	play := searchconfig.Play()
	play.Kind, play.Endgame = searchconfig.MCTS, 15 // the tree search with both classical aids
	arena := searchconfig.Arena()
	gumbel := arena
	gumbel.Search, gumbel.PolicyTemperature, gumbel.Symmetries, gumbel.QuiescenceValue = "gumbel", 2, true, "shift"
	bad := arena
	bad.Threads = 0
	for _, tc := range []struct {
		name           string
		game           engine.Game
		c              searchconfig.Config
		guard, endgame bool
		err            string
	}{
		{"play", trench.Game, play, true, true, ""},
		{"arena", trench.Game, arena, false, false, ""},
		{"gumbel", trench.Game, gumbel, false, false, ""},
		{"play in tic-tac-toe", tictactoe.Game{}, play, false, false, "guard: tictactoe has no classical search"},
		{"bad threads", trench.Game, bad, false, false, "threads must be in 1..256, got 0"},
	} {
		o, err := OptionsFor(tc.game, tc.c)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if (o.Guard != nil) != tc.guard || (o.Endgame != nil) != tc.endgame {
			t.Errorf("%s: guard %v endgame %v", tc.name, o.Guard, o.Endgame)
		}
		if o.Guard != nil && (o.Guard.Share != tc.c.Guard || o.Guard.Depth != tc.c.GuardDepth) {
			t.Errorf("%s: guard %+v", tc.name, o.Guard)
		}
		if o.Endgame != nil && (o.Endgame.Points != tc.c.Endgame || o.Endgame.Depth != tc.c.EndgameDepth) {
			t.Errorf("%s: endgame %+v", tc.name, o.Endgame)
		}
		wantAlgo := mcts.PUCT
		if tc.c.Search == "gumbel" {
			wantAlgo = mcts.Gumbel
		}
		if o.Threads != tc.c.Threads || o.Params.Algorithm != wantAlgo || o.Params.PolicyTemperature != tc.c.PolicyTemperature ||
			o.AverageSymmetries != tc.c.Symmetries || *o.Tactics != tc.c.Tactics() {
			t.Errorf("%s: options %+v params %+v", tc.name, o, *o.Params)
		}
		if _, err := New(tc.game, nil, o); err != nil {
			t.Errorf("%s: New: %v", tc.name, err)
		}
	}
}
