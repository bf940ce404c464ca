package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"trench/engine/trench"
	"trench/nn"
	"trench/record"
)

var (
	tinyNetOnce sync.Once
	tinyNetPath string
	tinyNetErr  error
)

// tinyNetFile writes a tiny random Trench net once per test binary and
// returns its path, so that play tests run fast.
func tinyNetFile(t *testing.T) string {
	t.Helper()
	tinyNetOnce.Do(func() {
		dir := sharedTestDir
		c, err := nn.Preset("tiny", trench.FeatureShape, trench.ActionCount)
		if err != nil {
			tinyNetErr = err
			return
		}
		w, err := nn.NewWeights(c, rand.New(rand.NewPCG(7, 7)))
		if err != nil {
			tinyNetErr = err
			return
		}
		ck, err := w.Checkpoint()
		if err != nil {
			tinyNetErr = err
			return
		}
		tinyNetPath = filepath.Join(dir, "tiny.tnet")
		tinyNetErr = ck.Save(tinyNetPath)
	})
	if tinyNetErr != nil {
		t.Fatal(tinyNetErr)
	}
	return tinyNetPath
}

// runCLIInput runs the trench command with input on its stdin.
func runCLIInput(input string, args ...string) (int, string, string) {
	stdin = strings.NewReader(input)
	defer func() { stdin = os.Stdin }()
	return runCLI(args...)
}

func TestPlayScriptedGame(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "mid.txt")
	final := filepath.Join(dir, "final.txt")
	script := strings.Join([]string{
		"help",
		"moves d4", // the Soldier's moves
		"moves e5", // a White piece: refused
		"moves z9", // not a square
		"d4e5",     // illegal
		"fly away", // unknown command
		"d4d5",     // the engine replies
		"undo",     // takes back both
		"d4d5",
		"hint",
		"level 0",
		"level 2",
		"view",
		"save " + saved,
		"load " + saved,
		"view",
	}, "\n") + "\n" + strings.Repeat("go\n", 1200) + "save " + final + "\nquit\n"
	code, out, errOut := runCLIInput(script, "play", "--net", tinyNetFile(t), "--sims", "2", "--color", "never")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"you play black",
		"d4: d4e4; d4d5", // moves d4
		"the piece on e5 is white's",
		"d4e5: ",
		`unknown command "fly"`,
		"trench plays ",
		"main line: ",
		"took back 2 move(s)",
		"hint: ",
		"level 0 is not in 1..8",
		"level 2: 8 sims per move",
		" 8  -  .  .  .  s  k  c  g", // the square view's top rank
		"saved 2 moves to ",
		"loaded 2 moves from ",
		"quiet plies ",
		"Game over: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output head:\n%s", out[:min(len(out), 6000)])
	}
	data, err := os.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.Parse(data, final)
	if err != nil {
		t.Fatal(err)
	}
	if g.Ending() != record.ByRules || !g.Current().Over() {
		t.Errorf("saved game ended %v at %s", g.Ending(), g.Current())
	}
	o, _ := g.Outcome()
	if !strings.Contains(out, "Game over: "+o.Summary(trench.Game)) {
		t.Errorf("the announced end differs from the saved game's %q", o.Summary(trench.Game))
	}
}

func TestPlayEndings(t *testing.T) {
	net := tinyNetFile(t)
	// Black has 24 points and its Soldier on d4 can take White's on e5...
	for _, tc := range []struct {
		name, fen, side, script string
		want                    []string
	}{
		{
			name: "armistice accepted when the engine is ahead",
			fen:  "4skcg/4pskc/4ppsk/4ppps/SPPP4/1SPP4/CKSP4/GCKS4 b 0 3 4 8", side: "black",
			script: "armistice\n", want: []string{"trench accepts the armistice", "Game over: white wins 0-3 (armistice)"},
		},
		{
			name: "armistice declined when the engine is behind",
			fen:  "4skcg/4pskc/4pps1/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 3 0 4 8", side: "black",
			script: "armistice\n", want: []string{"trench declines the armistice"},
		},
		{
			name: "resignation",
			side: "white", script: "resign\nresign\n",
			want: []string{"trench plays ", "Game over: black wins 0-0 (white resigned)", "the game is over"},
		},
		{
			name: "a winning capture",
			fen:  "7g/8/8/8/8/8/8/Gs6 b 23 0 0 20", side: "black",
			script: "a1b1\n", want: []string{"Game over: black wins 25-0 (by the rules)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"play", "--net", net, "--sims", "2", "--color", "never", "--side", tc.side}
			if tc.fen != "" {
				args = append(args, "--fen", tc.fen)
			}
			code, out, errOut := runCLIInput(tc.script, args...)
			if code != 0 {
				t.Fatalf("code %d, stderr %q", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestPlayFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--side", "green"}, "--side"},
		{[]string{"--color", "sometimes"}, "--color"},
		{[]string{"--level", "9"}, "level 9"},
		{[]string{"--level", "3", "--sims", "5"}, "not both"},
		{[]string{"--sims", "-4"}, "negative"},
		{[]string{"--net", "/no/such/net.tnet"}, "no/such/net.tnet"},
		{[]string{"--fen", "8/8 b"}, "--fen"},
		{[]string{"--load", "/no/such/game.txt"}, "game.txt"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		code, _, errOut := runCLIInput("", append([]string{"play"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("play %v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestDrawBoard(t *testing.T) {
	p := trench.StartPosition()
	var b bytes.Buffer
	boardStyle{}.drawBoard(&b, &p, nil)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 15 {
		t.Fatalf("%d lines in the diamond, want 15:\n%s", len(lines), b.String())
	}
	// White's General on top, Black's at the bottom, the trench across
	// the middle from a8 to h1.
	if !strings.HasSuffix(lines[0], " g") || !strings.HasSuffix(lines[14], " G") {
		t.Errorf("corners:\n%s", b.String())
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[7]), "a8  -   -") || !strings.Contains(lines[7], "h1  trench") {
		t.Errorf("trench row %q", lines[7])
	}
	b.Reset()
	boardStyle{color: true}.drawBoard(&b, &p, map[trench.Square]squareMark{0: markFrom})
	if !strings.Contains(b.String(), ansiBlack+"G"+ansiReset) || !strings.Contains(b.String(), ansiWhite+"g"+ansiReset) {
		t.Errorf("coloured board lacks coloured Generals")
	}
	b.Reset()
	boardStyle{square: true}.drawBoard(&b, &p, nil)
	if !strings.Contains(b.String(), " 1  G  C  K  S  .  .  .  -") {
		t.Errorf("square board:\n%s", b.String())
	}
}
