package bot

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
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

// TestValuesSetting checks the value setting as options: none for the
// net's own; the NNUE's at the leaf or after quiescence, Trichess's too;
// refused, naming the setting, for a net file that does not load, and
// for the alphabeta kind.
func TestValuesSetting(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.nnue")
	for _, tc := range []struct {
		name  string
		game  engine.Game
		set   func(c *searchconfig.Config)
		want  string // "" for no values, else "nnue" or "qnnue"
		error string
	}{
		{"net", trench.Game, func(c *searchconfig.Config) {}, "", ""},
		{"nnue", trench.Game, func(c *searchconfig.Config) { c.Value = "nnue" }, "nnue", ""},
		{"qnnue, no net", trench.Game, func(c *searchconfig.Config) { c.Value, c.Net = "qnnue", "none" }, "qnnue", ""},
		{"qnnue of an empty ref", trench.Game, func(c *searchconfig.Config) { c.Value, c.NNUE = "qnnue", "" }, "qnnue", ""},
		{"trichess", trichess.Game, func(c *searchconfig.Config) { c.Value = "nnue" }, "nnue", ""},
		{"missing net", trench.Game, func(c *searchconfig.Config) { c.Value, c.NNUE = "qnnue", missing }, "", "value qnnue: "},
		{"alphabeta", trench.Game, func(c *searchconfig.Config) { c.Kind, c.Value = searchconfig.AlphaBeta, "nnue" }, "", "value nnue sets the mcts kind's leaf values"},
		{"unknown", trench.Game, func(c *searchconfig.Config) { c.Value = "deep" }, "", `value must be net or nnue or qnnue or hand or qhand, got "deep"`},
	} {
		c := searchconfig.Arena()
		tc.set(&c)
		o, err := OptionsFor(tc.game, c)
		if tc.error != "" {
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.error)
			}
			if tc.name == "missing net" && (err == nil || !strings.Contains(err.Error(), "missing.nnue")) {
				t.Errorf("%s: %v, want the file named", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case tc.want == "" && o.Values != nil:
			t.Errorf("%s: values %v, want the net's", tc.name, o.Values)
		case tc.want != "" && (o.Values == nil || o.Values.Quiescence != (tc.want == "qnnue") || !strings.Contains(o.Values.String(), "nnue")):
			t.Errorf("%s: values %v, want %s", tc.name, o.Values, tc.want)
		}
	}
}

// TestNNUEValuesBot searches with bots of the mcts kind that value
// their leaves with the built-in NNUE, with and without the conv net, on
// two threads (run with -race), and checks that each says so.
func TestNNUEValuesBot(t *testing.T) {
	for _, tc := range []struct{ net, value, doc string }{
		{"none", "qnnue", "after its quiescence search"},
		{"default", "nnue", "at the leaf"},
	} {
		c := searchconfig.Arena()
		c.Net, c.Value, c.Threads = tc.net, tc.value, 2
		b, err := Load(trench.Game, c, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "values of nnue") || !strings.Contains(b.String(), tc.doc) {
			t.Errorf("net %s, value %s: the bot describes itself as %q", tc.net, tc.value, b.String())
		}
		a, err := b.Search(context.Background(), Limits{Sims: 100})
		if err != nil {
			t.Fatal(err)
		}
		if a.Sims < 100 || !(a.Value >= -1 && a.Value <= 1) {
			t.Errorf("net %s, value %s: %d simulations, value %v", tc.net, tc.value, a.Sims, a.Value)
		}
	}
}
