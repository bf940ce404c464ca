package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"trench/engine/trichess"
	"trench/nn"
	"trench/record"
)

var (
	tinyTrichessOnce sync.Once
	tinyTrichessPath string
	tinyTrichessErr  error
)

// tinyTrichessNetFile writes a tiny random Trichess net (one value per
// seat, as trench train --game trichess makes) once per test binary.
func tinyTrichessNetFile(t *testing.T) string {
	t.Helper()
	tinyTrichessOnce.Do(func() {
		dir := sharedTestDir
		c, err := nn.PresetFor("tiny", trichess.Game)
		if err != nil {
			tinyTrichessErr = err
			return
		}
		c.Seats = trichess.Game.Players()
		w, err := nn.NewWeights(c, rand.New(rand.NewPCG(8, 8)))
		if err != nil {
			tinyTrichessErr = err
			return
		}
		ck, err := w.Checkpoint()
		if err != nil {
			tinyTrichessErr = err
			return
		}
		tinyTrichessPath = filepath.Join(dir, "tiny-trichess.tnet")
		tinyTrichessErr = ck.Save(tinyTrichessPath)
	})
	if tinyTrichessErr != nil {
		t.Fatal(tinyTrichessErr)
	}
	return tinyTrichessPath
}

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
		"go",            // the engine plays Red's move
		"save " + saved, //
		"load " + saved, //
		"quit",
	}, "\n") + "\n"
	code, out, errOut := runCLIInput(script, "play", "--game", "trichess", "--seats", "red",
		"--net", tinyTrichessNetFile(t), "--level", "1", "--color", "never")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"Trichess: you play red; the engine plays white and black with ",
		"White (engine) plays ", // White moves first, before the human
		"main line: ",
		"expected White ",
		"Re2: Re2Re3; Re2Re4",
		"the piece on We2 is White's; Red is to move",
		"square \"Rz9\"",
		"Re2Re5: ",
		"Black (engine) plays ",
		"hint: ",
		"for red: expected Red ",
		"Trichess has no resignation",
		"Trichess has no armistice",
		"took back 3 move(s)",
		"red plays ",        // go
		"saved 7 moves to ", // Red's two, and two replies each
		"loaded 7 moves from ",
		"material White (engine) ",
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
	// White and Black are people, Red the engine (the material fallback:
	// no --net). Both humans move; the engine answers in between.
	script := "We2We4\nBd2Bd4\nWd2Wd4\nundo\nquit\n"
	code, out, errOut := runCLIInput(script, "play", "--game", "trichess", "--seats", "white,b", "--level", "1", "--color", "never")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"you play white and black; the engine plays red with no net",
		"No trichess net is loaded",
		"white> ",
		"Red (engine) plays ",
		"black> ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(out, "Red (engine) plays "); n != 2 {
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

func TestPlayTrichessFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, "unknown game"},
		{[]string{"--game", "tictactoe"}, "cannot be played here"},
		{[]string{"--game", "trichess", "--side", "white"}, "--seats"},
		{[]string{"--game", "trichess", "--seats", "green"}, "no seat \"green\""},
		{[]string{"--game", "trichess", "--seats", "red,red"}, "twice"},
		{[]string{"--game", "trichess", "--seats", "red", "--side", "black"}, "not both"},
		{[]string{"--game", "trichess", "--square"}, "--square"},
		{[]string{"--game", "trichess", "--fen", "8/8 w"}, "--fen"},
		{[]string{"--game", "trichess", "--net", tinyNetFile(t)}, "shape mismatch"},
	} {
		code, _, errOut := runCLIInput("", append([]string{"play"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("play %v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	// A Trench game file does not load into Trichess.
	dir := t.TempDir()
	path := filepath.Join(dir, "trench.txt")
	if err := os.WriteFile(path, record.New(trichess.Game.Start()).Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLIInput("", "play", "--load", path, "--net", tinyNetFile(t)); code != 2 || !strings.Contains(errOut, "a trichess game, not trench") {
		t.Errorf("loading a Trichess file into Trench: code %d, %q", code, errOut)
	}
}

func TestTrichessLayout(t *testing.T) {
	l := theTrichessLayout
	// Every square gets its own cells, at least cellGap columns from the
	// next one on its row, and no label overlaps a square.
	type span struct{ from, to int }
	rows := map[int][]span{}
	for s := trichess.Square(0); s < trichess.NumSquares; s++ {
		c := l.squares[s]
		rows[c.row] = append(rows[c.row], span{c.col, c.col + cellWidth})
	}
	for r, spans := range rows {
		for i := range spans {
			for j := range spans {
				if i != j && spans[i].from <= spans[j].from && spans[j].from < spans[i].from+cellGap {
					t.Errorf("row %d: squares at columns %d and %d are closer than %d", r, spans[i].from, spans[j].from, cellGap)
				}
			}
		}
	}
	for _, lb := range l.labels {
		for _, sp := range rows[lb.at.row] {
			if lb.at.col < sp.to && sp.from < lb.at.col+len(lb.text) {
				t.Errorf("label %q at %v overlaps a square", lb.text, lb.at)
			}
		}
	}
	// White's back rank lies below its rank 4, Red's to the upper right,
	// Black's to the upper left; the centre squares lie between.
	at := func(name string) textCell {
		s, err := trichess.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return l.squares[s]
	}
	if !(at("We1").row > at("We4").row && at("Ra1").col > at("Rd4").col && at("Rh1").row < at("Re4").row &&
		at("Bh1").col < at("Be4").col && at("Ba1").row < at("Bd4").row) {
		t.Errorf("sections are not where they belong")
	}
	// The squares touching across the centre are next to each other.
	for _, pair := range [][2]string{{"Wd4", "Be4"}, {"We4", "Rd4"}, {"Re4", "Bd4"}} {
		a, b := at(pair[0]), at(pair[1])
		if abs(a.row-b.row) > 3 || abs(a.col-b.col) > 12 {
			t.Errorf("%s at %v and %s at %v are far apart", pair[0], a, pair[1], b)
		}
	}
	p := trichess.StartPosition()
	var b bytes.Buffer
	boardStyle{}.drawTrichess(&b, &p, map[int]squareMark{int(at2(t, "We2")): markFrom})
	text := b.String()
	for _, want := range []string{"wK", "rK", "bK", "<wP>", " . ", " : ", " + ", "White", "Red", "Black"} {
		if !strings.Contains(text, want) {
			t.Errorf("board lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "wP") + strings.Count(text, "rP") + strings.Count(text, "bP"); n != 24 {
		t.Errorf("%d pawns drawn, want 24", n)
	}
	b.Reset()
	boardStyle{color: true}.drawTrichess(&b, &p, nil)
	if !strings.Contains(b.String(), trichessPieceColour[trichess.Red]+"rK"+ansiReset) {
		t.Errorf("coloured board lacks Red's coloured king")
	}
}

func at2(t *testing.T, name string) trichess.Square {
	s, err := trichess.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestServeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, "unknown game"},
		{[]string{"--game", "tictactoe"}, "cannot be played here"},
		{[]string{"--trichess-net", "default"}, "no net is built in"},
		{[]string{"--trichess-net", "/no/such/tri.tnet"}, "tri.tnet"},
		{[]string{"--trichess-net", tinyNetFile(t)}, "shape mismatch"},
		{[]string{"--net", tinyTrichessNetFile(t)}, "shape mismatch"},
		{[]string{"--threads", "0"}, "--threads must be in 1..256, got 0"},
		{[]string{"--threads", "257"}, "--threads must be in 1..256, got 257"},
		{[]string{"--queue", "0"}, "at least 1"},
		{[]string{"--allow-host", "a/b"}, "not a host name"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		code, _, errOut := runCLI(append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("serve %v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
