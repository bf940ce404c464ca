package record

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine/trichess"
)

// randomTrichess plays random legal Trichess moves from the start until
// the rules end the game or n moves are played.
func randomTrichess(t testing.TB, seed uint64, n int) *Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	g := New(trichess.Game.Start())
	for i := 0; i < n && !g.Over(); i++ {
		acts := g.Current().LegalActions(nil)
		if err := g.PlayAction(acts[rng.IntN(len(acts))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// finishedTrichess returns a random Trichess game the rules ended.
func finishedTrichess(t testing.TB) *Game {
	t.Helper()
	for seed := uint64(1); seed < 50; seed++ {
		if g := randomTrichess(t, seed, 3000); g.Over() {
			return g
		}
	}
	t.Fatal("no random Trichess game ended")
	return nil
}

func TestTrichessFileRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *Game
	}{
		{"empty", New(trichess.Game.Start())},
		{"started", randomTrichess(t, 7, 40)},
		{"finished", finishedTrichess(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.g
			g.Tags = []Tag{{"White", "you"}, {"Red", "trench level 1"}, {"Black", "a friend"}}
			data := g.Marshal()
			if !strings.HasPrefix(string(data), "[Game \"trichess\"]\n[Start \""+trichess.StartFEN+"\"]\n") {
				t.Errorf("file head:\n%s", data)
			}
			if g.Len() >= 4 && !strings.Contains(string(data), "1. "+g.Notation()[0]+" "+g.Notation()[1]+" "+g.Notation()[2]+" 2. "+g.Notation()[3]) {
				t.Errorf("moves are not numbered by rounds of three:\n%s", data)
			}
			h, err := Parse(data, "game.txt")
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !equalGames(g, h) || h.Current().String() != g.Current().String() {
				t.Errorf("round trip changed the game:\n%s\n---\n%s", data, h.Marshal())
			}
			if string(h.Marshal()) != string(data) {
				t.Errorf("second write differs:\n%s\n---\n%s", data, h.Marshal())
			}
		})
	}
}

func TestTrichessOutcome(t *testing.T) {
	g := finishedTrichess(t)
	o, ok := g.Outcome()
	if !ok {
		t.Fatal("no outcome")
	}
	rules := g.Current().(*trichess.State).Outcome()
	pts := rules.Points()
	sum := o.Summary(trichess.Game)
	for c, name := range []string{"white", "red", "black"} {
		if int(o.Scores[c]) != pts[c] {
			t.Errorf("%s's score %v, rules give %d", name, o.Scores[c], pts[c])
		}
		if !strings.Contains(sum, name+" ") {
			t.Errorf("summary %q does not name %s", sum, name)
		}
	}
	if !strings.Contains(sum, "("+rules.Ending.String()+")") {
		t.Errorf("summary %q does not give the ending %q", sum, rules.Ending)
	}
	if PlayerName(trichess.Game, 1) != "red" || PlayerName(trichess.Game, 5) != "player 5" {
		t.Errorf("player names %q, %q", PlayerName(trichess.Game, 1), PlayerName(trichess.Game, 5))
	}
}

func TestTrichessNoResignation(t *testing.T) {
	g := randomTrichess(t, 9, 5)
	if err := g.Resign(1); !errors.Is(err, ErrNoResignation) || g.Over() {
		t.Errorf("Resign in Trichess: %v, over %v", err, g.Over())
	}
	if err := g.AgreeArmistice(); err == nil || g.Over() {
		t.Errorf("armistice in Trichess: %v, over %v", err, g.Over())
	}
}

func TestTrichessParseErrors(t *testing.T) {
	head := "[Game \"trichess\"]\n[Start \"" + trichess.StartFEN + "\"]\n"
	for _, tc := range []struct{ name, text, want string }{
		{"bad start", "[Game \"trichess\"]\n[Start \"" + strings.Replace(trichess.StartFEN, "wK", "wQ", 1) + "\"]\n", "start position"},
		{"trench move", head + "1. d4d5\n", "move 1 \"d4d5\""},
		{"out of turn", head + "1. Re2Re4\n", "move 1 \"Re2Re4\""},
		{"illegal", head + "1. We2We5\n", "move 1 \"We2We5\""},
		{"second move illegal", head + "1. We2We4 We2We4\n", "move 2 \"We2We4\""},
		{"resignation", head + "1. We2We4\n[Ending \"resign 1\"]\n", "after the moves"},
		{"resignation tag", head + "[Ending \"resign 1\"]\n1. We2We4\n", "no resignation"},
		{"armistice", head + "[Ending \"armistice\"]\n", "armistice"},
	} {
		if _, err := Parse([]byte(tc.text), "g.txt"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzParseTrichess(f *testing.F) {
	f.Add(randomTrichess(f, 1, 30).Marshal())
	f.Add(finishedTrichess(f).Marshal())
	f.Add([]byte("[Game \"trichess\"]\n[Start \"" + trichess.StartFEN + "\"]\n[Red \"x\"]\n1. We2We4 Rd2Rd4 Bd2Bd3 2. Wd2Wd3"))
	f.Add([]byte("[Game \"trichess\"]\n[Start \"" + trichess.StartFEN + "\"]\n[Ending \"resign 2\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		out := g.Marshal()
		h, err := Parse(out, "again")
		if err != nil {
			t.Fatalf("a parsed game's file does not parse: %v\n%s", err, out)
		}
		if !equalGames(g, h) || h.Current().String() != g.Current().String() {
			t.Fatalf("round trip changed the game")
		}
		if string(h.Marshal()) != string(out) {
			t.Fatalf("second write differs")
		}
	})
}
