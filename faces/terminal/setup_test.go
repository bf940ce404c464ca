package terminal

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/engine/trichess"
)

// TestSetupOptions checks a terminal game's setup: the seats, the style
// and the start, and every flag at fault named.
func TestSetupOptions(t *testing.T) {
	o, err := Setup{Game: trench.Game, Side: "white", Square: true, Color: "never"}.Options(io.Discard)
	if err != nil || !o.Humans[1] || o.Humans[0] || !o.Style.Square || o.Style.Color || o.Game.Current().String() != trench.Game.Start().String() {
		t.Fatalf("Options: %+v, %v", o, err)
	}
	const fen = "8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38"
	if o, err := (Setup{Game: trench.Game, Color: "auto", FEN: fen}).Options(io.Discard); err != nil || o.Game.Current().String() != fen {
		t.Errorf("--fen: %v, %v", o.Game, err)
	}
	for _, tc := range []struct {
		s    Setup
		want string
	}{
		{Setup{Game: trench.Game, Color: "sometimes"}, "--color"},
		{Setup{Game: trench.Game, Color: "never", FEN: fen, Load: "x"}, "give --fen or --load, not both"},
		{Setup{Game: trichess.Game, Color: "never", Square: true}, "--square draws"},
		{Setup{Game: trench.Game, Color: "never", FEN: "8/8 b"}, "--fen: "},
		{Setup{Game: trench.Game, Color: "never", Load: filepath.Join(t.TempDir(), "none.txt")}, "none.txt"},
		{Setup{Game: trench.Game, Color: "never", Side: "green"}, "green"},
	} {
		if _, err := tc.s.Options(io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		}
	}
}
