package record

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
)

// randomGame plays random legal moves from the start until the rules end
// the game or n moves are played.
func randomGame(t testing.TB, seed uint64, n int) *Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	g := New(trench.Game.Start())
	for i := 0; i < n && !g.Over(); i++ {
		acts := g.Current().LegalActions(nil)
		if err := g.PlayAction(acts[rng.IntN(len(acts))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestPlayUndo(t *testing.T) {
	g := New(trench.Game.Start())
	if _, err := g.Play("d4e5"); err == nil {
		t.Error("an illegal move was played")
	}
	if _, err := g.Play("d4d5"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play("zz"); err == nil || g.Len() != 1 {
		t.Errorf("malformed move: %v, %d moves", err, g.Len())
	}
	if err := g.PlayAction(-5); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("PlayAction(-5) = %v", err)
	}
	if _, err := g.Play("e5e4"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.Notation(), " "); got != "d4d5 e5e4" {
		t.Errorf("notation %q", got)
	}
	if n := g.Undo(5); n != 2 || g.Len() != 0 || g.Current().String() != trench.StartFEN {
		t.Errorf("Undo(5) took %d, left %d moves at %s", n, g.Len(), g.Current())
	}
}

func TestEndings(t *testing.T) {
	g := New(trench.Game.Start())
	if _, ok := g.Outcome(); ok {
		t.Error("a new game has an outcome")
	}
	if err := g.Resign(1); err != nil {
		t.Fatal(err)
	}
	o, ok := g.Outcome()
	if !ok || o.Winner != 0 || o.Result[1] != -1 || !strings.Contains(o.Summary(trench.Game), "white resigned") {
		t.Errorf("after White resigns: %+v", o)
	}
	if _, err := g.Play("d4d5"); !errors.Is(err, ErrOver) {
		t.Errorf("move after resignation: %v", err)
	}
	g.Undo(0)
	if g.Over() {
		t.Error("Undo did not take back the resignation")
	}
	if err := g.Resign(2); err == nil {
		t.Error("player 2 resigned")
	}
	if err := g.AgreeArmistice(); err != nil {
		t.Fatal(err)
	}
	if o, _ := g.Outcome(); o.Winner != -1 || o.Summary(trench.Game) != "draw 0-0 (armistice)" {
		t.Errorf("armistice at 0-0: %+v, %q", o, o.Summary(trench.Game))
	}
	// An armistice when Black is ahead on points: Black wins.
	s, err := trench.Game.ParseState("4skcg/4pskc/4pps1/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 3 0 4 8")
	if err != nil {
		t.Fatal(err)
	}
	g = New(s)
	if err := g.AgreeArmistice(); err != nil {
		t.Fatal(err)
	}
	if o, _ := g.Outcome(); o.Winner != 0 || o.Result[0] != 1 {
		t.Errorf("armistice at 3-0: %+v", o)
	}
	// The rules' own end.
	g = randomGame(t, 7, 10000)
	o, ok = g.Outcome()
	if !ok || g.Ending() != ByRules {
		t.Fatalf("random game not over after %d moves", g.Len())
	}
	want := g.Current().Result(nil)
	for p := range want {
		if o.Result[p] != want[p] {
			t.Errorf("outcome %v, rules say %v", o.Result, want)
		}
	}
}

func TestFileRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *Game
		end  func(*Game) error
	}{
		{"empty", New(trench.Game.Start()), nil},
		{"finished", randomGame(t, 3, 10000), nil},
		{"resigned", randomGame(t, 4, 9), func(g *Game) error { return g.Resign(0) }},
		{"armistice", randomGame(t, 5, 30), func(g *Game) error { return g.AgreeArmistice() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.g
			g.Tags = []Tag{{"Black", "you"}, {"White", `trench "level" 4`}}
			if tc.end != nil && !g.Over() {
				if err := tc.end(g); err != nil {
					t.Fatal(err)
				}
			}
			data := g.Marshal()
			h, err := Parse(data, "game.txt")
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !equalGames(g, h) {
				t.Errorf("round trip changed the game:\n%s\n---\n%s", data, h.Marshal())
			}
			if string(h.Marshal()) != string(data) {
				t.Errorf("second write differs:\n%s\n---\n%s", data, h.Marshal())
			}
		})
	}
}

func equalGames(a, b *Game) bool {
	if a.Start().String() != b.Start().String() || a.Ending() != b.Ending() || a.Len() != b.Len() || len(a.Tags) != len(b.Tags) {
		return false
	}
	for i, m := range a.Moves() {
		if b.Moves()[i] != m {
			return false
		}
	}
	for i, tg := range a.Tags {
		if b.Tags[i] != tg {
			return false
		}
	}
	oa, _ := a.Outcome()
	ob, _ := b.Outcome()
	return oa.Winner == ob.Winner && oa.Reason == ob.Reason
}

func TestParseErrors(t *testing.T) {
	head := "[Game \"trench\"]\n[Start \"" + trench.StartFEN + "\"]\n"
	for _, tc := range []struct{ name, text, want string }{
		{"no game", "[Start \"" + trench.StartFEN + "\"]\n", "no [Game]"},
		{"unknown game", "[Game \"chess\"]\n", "chess"},
		{"no start", "[Game \"trench\"]\n", "no [Start]"},
		{"bad start", "[Game \"trench\"]\n[Start \"8/8 b\"]\n", "start position"},
		{"illegal move", head + "1. d4e5\n", "move 1 \"d4e5\""},
		{"bad move", head + "1. d4d5 xx\n", "move 2 \"xx\""},
		{"unquoted", "[Game trench]\n", "quoted"},
		{"unclosed", "[Game \"trench\"\n", "end with ]"},
		{"bad key", "[Ga-me \"x\"]\n", "key"},
		{"twice", head + "[Game \"trench\"]\n", "twice"},
		{"tag after moves", head + "d4d5\n[Black \"x\"]\n", "after the moves"},
		{"bad ending", head + "[Ending \"gave up\"]\n", "ending"},
		{"bad resign", head + "[Ending \"resign x\"]\n", "ending"},
		{"resign unknown player", head + "[Ending \"resign 3\"]\n", "player 3"},
		{"move after end", "[Game \"trench\"]\n[Start \"4s3/4ps2/4pp2/4pp1s/SPPP4/KSPP4/CKSP4/GCKS4 w 25 0 0 9\"]\nd4d5\n", "over"},
		{"too big", head + strings.Repeat(" ", MaxFileSize), "bytes"},
	} {
		if _, err := Parse([]byte(tc.text), "g.txt"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(randomGame(f, 1, 40).Marshal())
	f.Add([]byte("[Game \"trench\"]\n[Start \"" + trench.StartFEN + "\"]\n[Ending \"armistice\"]\n1. d4d5"))
	f.Add([]byte("[Game \"tictactoe\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		h, err := Parse(g.Marshal(), "again")
		if err != nil {
			t.Fatalf("a parsed game's file does not parse: %v\n%s", err, g.Marshal())
		}
		if !equalGames(g, h) {
			t.Fatalf("round trip changed the game")
		}
	})
}
