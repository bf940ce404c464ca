package main

import (
	"strings"
	"testing"
	"time"

	"trench/bot"
	"trench/engine/trench"
	"trench/engine/trichess"
)

func TestEngineProtocol(t *testing.T) {
	net := tinyNetFile(t)
	script := strings.Join([]string{
		"trench",
		"isready",
		"position startpos moves d4d5",
		"moves",
		"go sims 30",
		"position fen 8/8 b",           // refused: the position stays
		"position startpos moves d4e5", // refused: illegal move
		"position startpos d4d5",       // refused: no "moves"
		"go sims 0",                    // refused
		"go sims",                      // refused
		"go nodes 5",                   // refused
		"go level 9",                   // refused
		"frobnicate",                   // refused
		"show",
		"go time 60000", "stop", // stopped at once
		"newgame",
		"position fen 7g/8/8/8/8/8/8/Gs6 b 23 0 0 20 moves a1b1",
		"go sims 5",
		"quit",
		"go sims 5", // after quit: never read
	}, "\n") + "\n"
	start := time.Now()
	code, out, errOut := runCLIInput(script, "engine", "--net", net)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("stop did not end the 60-second search: took %v", d)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := []string{
		"id name trench",
		"trenchok",
		"readyok",
		"moves e5e4 f5f4 g5g4 e6d6 e7d7 h5f3 h5g4 h5h3 h5h4 e8c6 e8d7 e8c8 e8d8",
		"info sims 30 visits 31 ",
		"error position fen: want the 6 fields",
		`error position: move 1 "d4e5"`,
		`error position: want "moves" after the position`,
		`error go: sims "0" is not a positive number`,
		"error go: want pairs",
		`error go: unknown limit "nodes"`,
		"error go: level 9 is not in 1..8",
		`error unknown command "frobnicate"`,
		"position 4skcg/4pskc/4ppsk/3Pppps/SPP5/KSPP4/CKSP4/GCKS4 w 0 0 1 1",
		"info string the game is over",
		"bestmove none",
	}
	i := 0
	for _, l := range lines {
		if i < len(want) && strings.HasPrefix(l, want[i]) {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("output lacks %q (in order):\n%s", want[i], out)
	}
	var best []string
	for _, l := range lines {
		if m, ok := strings.CutPrefix(l, "bestmove "); ok {
			best = append(best, m)
		}
	}
	if len(best) != 3 {
		t.Fatalf("%d bestmove lines, want 3:\n%s", len(best), out)
	}
	// Both searched moves are White's legal replies to d4d5.
	s := trench.Game.Start()
	a, _ := s.ParseAction("d4d5")
	s.Play(a)
	for _, m := range best[:2] {
		if _, err := s.ParseAction(m); err != nil {
			t.Errorf("bestmove %s: %v", m, err)
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "info sims") && !strings.Contains(l, " wdl ") {
			t.Errorf("info line without wdl: %q", l)
		}
	}
}

func TestEngineTrichess(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		net  string
	}{
		{"fallback", nil, "no net"},
		{"net", []string{"--net", tinyTrichessNetFile(t)}, "/tiny-trichess.tnet (step 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := strings.Join([]string{
				"trench",
				"position startpos moves We2We4",
				"moves",
				"go sims 20",
				"position fen " + trichess.StartFEN + " moves We2We4 Rd2Rd4",
				"show",
				"position startpos moves d4d5",      // refused: a Trench move
				"position fen 8/8 b",                // refused
				"position fen " + trichess.StartFEN, // five fields
				"quit",
			}, "\n") + "\n"
			code, out, errOut := runCLIInput(script, append([]string{"engine", "--game", "trichess"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("code %d, stderr %q", code, errOut)
			}
			for _, want := range []string{
				"id net ", tc.net,
				"moves Rb1Ra3 Rb1Rc3 ",
				"info sims 20 visits ",
				" values ",
				"bestmove R",
				"position " + "wRwNwBwQwKwBwNwR/wPwPwPwP1wPwPwP/8/4wP3|rRrNrBrQrKrBrNrR/rPrPrP1rPrPrPrP/8/3rP4|",
				"wK",
				`error position: move 1 "d4d5"`,
				"error position fen: want the 5 fields",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Count(out, "error") != 2 {
				t.Errorf("%d errors, want 2:\n%s", strings.Count(out, "error"), out)
			}
		})
	}
}

func TestEngineFlags(t *testing.T) {
	if code, _, errOut := runCLIInput("", "engine", "--net", "/no/such.tnet"); code != 2 || !strings.Contains(errOut, "such.tnet") {
		t.Errorf("missing net: %d %q", code, errOut)
	}
	if code, _, errOut := runCLIInput("", "engine", "--time", "-1s"); code != 2 || !strings.Contains(errOut, "negative") {
		t.Errorf("negative time: %d %q", code, errOut)
	}
}

func FuzzEngineParsers(f *testing.F) {
	f.Add("startpos moves d4d5 e5e4")
	f.Add("fen 7g/8/8/8/8/8/8/Gs6 b 23 0 0 20 moves a1b1")
	f.Add("sims 100 time 2000")
	f.Add("level 3")
	f.Add("startpos moves We2We4 Rd2Rd4")
	f.Add("fen " + trichess.StartFEN + " moves We2We4")
	f.Add("time 99999999999999")
	def := bot.Limits{Sims: 7}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if s, err := parsePosition(trench.Game, args); err == nil {
			if _, err := trench.Game.ParseState(s.String()); err != nil {
				t.Fatalf("position %q from %q does not read back: %v", s, line, err)
			}
		}
		if l, err := parseGo(args, def); err == nil && l.Validate() != nil {
			t.Fatalf("go %q gave invalid limits %+v", line, l)
		}
		if s, err := parsePosition(trichess.Game, args); err == nil {
			if _, err := trichess.Game.ParseState(s.String()); err != nil {
				t.Fatalf("Trichess position %q from %q does not read back: %v", s, line, err)
			}
		}
	})
}

// infoVisits returns the visits of every info line of out.
func infoVisits(t *testing.T, out string) []string {
	t.Helper()
	var visits []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 4 && f[0] == "info" && f[3] == "visits" {
			visits = append(visits, f[4])
		}
	}
	return visits
}

func TestEngineNewGameForgetsTheTree(t *testing.T) {
	// sims 40 is one step of the search: one info line a search.
	script := "position startpos\ngo sims 40\nnewgame\ngo sims 40\nshow\ngo sims 40\nshow\n"
	code, out, errOut := runCLIInput(script, "engine", "--net", tinyNetFile(t))
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	// After newgame the tree starts afresh (41 visits: the root's own
	// evaluation and 40 simulations); without it the tree is kept.
	if got := strings.Join(infoVisits(t, out), " "); got != "41 41 81" {
		t.Errorf("root visits of the three searches %q, want \"41 41 81\":\n%s", got, out)
	}
}

func TestEngineEndOfInputStopsTheSearch(t *testing.T) {
	start := time.Now()
	code, out, errOut := runCLIInput("position startpos\ngo time 60000\n", "engine", "--net", tinyNetFile(t))
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the end of input left the 60-second search running: took %v", d)
	}
	if !strings.Contains(out, "bestmove ") {
		t.Errorf("no bestmove from the stopped search:\n%s", out)
	}
}

func TestEngineQuitStopsTheSearch(t *testing.T) {
	start := time.Now()
	code, out, errOut := runCLIInput("position startpos\ngo time 60000\nquit\nisready\n", "engine", "--net", tinyNetFile(t))
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("quit left the 60-second search running: took %v", d)
	}
	if !strings.Contains(out, "bestmove ") || strings.Contains(out, "readyok") {
		t.Errorf("want the stopped search's bestmove and nothing read after quit:\n%s", out)
	}
}

func TestEngineLongLine(t *testing.T) {
	atLimit := "isready" + strings.Repeat(" ", maxLine-len("isready"))
	script := "isready\n" + strings.Repeat("x", 3*maxLine/2) + "\nisready\n" + atLimit + "\r\nposition startpos moves " + strings.Repeat("d4d5 ", maxLine/4) + "\nmoves\n"
	code, out, errOut := runCLIInput(script, "engine", "--net", tinyNetFile(t))
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	want := "readyok\nerror line too long (limit 1 MiB)\nreadyok\nreadyok\nerror line too long (limit 1 MiB)\nmoves "
	if !strings.HasPrefix(out, want) {
		t.Errorf("output %.300q, want it to start %q", out, want)
	}
}
