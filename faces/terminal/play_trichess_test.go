package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/bot"
	"trench/engine/trichess"
	"trench/record"
)

func TestPlayTrichessScripted(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "tri.txt")
	script := strings.Join([]string{
		"help",
		"moves Re2",     // the pawn's moves
		"moves we2",     // White's pawn: refused
		"moves Rz9",     // not a square
		"Re2Re5",        // illegal
		"re2re4",        // lower case is fine; Black's and White's engines reply
		"hint",          // for Red
		"resign",        // Trichess has none
		"armistice",     // nor this
		"undo",          // takes back Red's move and both replies
		"Rd2Rd4",        //
		"go",            // the bot plays Red's move
		"save " + saved, //
		"load " + saved, //
		"quit",
	}, "\n") + "\n"
	out := play(t, script, options(t, trichess.Game.Start(), "red", tinyNet(t, trichess.Game), bot.Limits{Sims: 1}))
	for _, want := range []string{
		"Trichess: you play red; the bot plays white and black with ",
		"White (bot) plays ", // White moves first, before the human
		"main line: ",
		"expected White ",
		"Re2: Re2Re3; Re2Re4",
		"the piece on We2 is White's; Red is to move",
		"square \"Rz9\"",
		"Re2Re5: ",
		"Black (bot) plays ",
		"hint: ",
		"for red: expected Red ",
		"Trichess has no resignation",
		"Trichess has no armistice",
		"took back 3 move(s)",
		"red plays ",        // go
		"saved 7 moves to ", // Red's two, and two replies each
		"loaded 7 moves from ",
		"material White (bot) ",
		"Red (you) ",
		"Red to play",
		"Black  ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out[:min(len(out), 12000)])
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.Parse(data, saved)
	if err != nil {
		t.Fatal(err)
	}
	if g.EngineGame().Name() != "trichess" || g.Len() != 7 || g.Notation()[1] != "Rd2Rd4" {
		t.Errorf("saved game: %s, moves %v", g.EngineGame().Name(), g.Notation())
	}
	if !strings.Contains(string(data), "[Red \"you\"]") || !strings.Contains(string(data), "[White \"trench 1 sims\"]") {
		t.Errorf("saved tags:\n%s", data)
	}
}

func TestPlayTrichessTwoHumans(t *testing.T) {
	// White and Black are people, Red the engine (a bot without a net:
	// the material fallback). Both humans move; the engine answers in
	// between.
	script := "We2We4\nBd2Bd4\nWd2Wd4\nundo\nquit\n"
	out := play(t, script, options(t, trichess.Game.Start(), "white,b", nil, bot.Limits{Sims: 1}))
	for _, want := range []string{
		"you play white and black; the bot plays red with no net",
		"The bot searches without a net",
		"white> ",
		"Red (bot) plays ",
		"black> ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(out, "Red (bot) plays "); n != 2 {
		t.Errorf("the engine moved %d times, want 2", n)
	}
	// Undo takes back Red's reply and White's Wd2Wd4, the last human move.
	if !strings.Contains(out, "took back 2 move(s)") || !strings.HasSuffix(strings.TrimSpace(out), "white>") {
		t.Errorf("undo did not go back to White's move")
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}
