package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/internal/textline"
	"trench/mcts"
	"trench/neteval"
	"trench/nn/nntest"
	"trench/searchconfig"
	"trench/tactics"
)

// tinyNet makes a net of the tiny preset for g with random weights.
func tinyNet(t testing.TB, g engine.Game) *neteval.Net {
	t.Helper()
	net, err := neteval.NetFromCheckpoint(g, nntest.Checkpoint(t, nntest.Weights(t, nntest.TinyFor(t, g), 7, 7), "tiny.tnet"))
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// withNet makes bots for g that search with a tiny net.
func withNet(t testing.TB, g engine.Game) func() (Bot, error) {
	net := tinyNet(t, g)
	return func() (Bot, error) { return bot.New(g, net, bot.Options{}) }
}

// withoutNet makes bots for g that search with the material fallback.
func withoutNet(g engine.Game) func() (Bot, error) {
	return func() (Bot, error) {
		return bot.NewWithEvaluator(g, tactics.Fallback{}, tactics.FallbackDoc, bot.Options{})
	}
}

// stateBoard draws a line naming the position's game, enough to see that
// show calls the board.
func stateBoard(w io.Writer, s engine.State) { fmt.Fprintf(w, "board of %s\n", s.Game().Name()) }

// talk runs a session of cfg on script and returns what it answered
// after its first line, which it checks names the bot.
func talk(t *testing.T, cfg Config, script string) string {
	t.Helper()
	if cfg.Limits == (bot.Limits{}) {
		cfg.Limits = bot.Limits{Sims: 10}
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Run(strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(out.String(), "\n")
	if want := fmt.Sprintf("info string bot %s", s.bot); first != want {
		t.Errorf("first line %q, want %q", first, want)
	}
	return rest
}

func TestProtocol(t *testing.T) {
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
	out := talk(t, Config{Game: trench.Game, NewBot: withNet(t, trench.Game), Board: stateBoard}, script)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("stop did not end the 60-second search: took %v", d)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := []string{
		"id name trench",
		"id net tiny.tnet (step 0",
		"id levels 8 (1=1, 2=8, 3=32, 4=100, 5=200, 6=400, 7=800, 8=1600)",
		"trenchok",
		"readyok",
		"moves e5e4 f5f4 g5g4 e6d6 e7d7 h5f3 h5g4 h5h3 h5h4 e8c6 e8d7 e8c8 e8d8",
		"info sims 30 visits 31 ",
		"error position fen: want the 6 fields",
		`error position: move 1 "d4e5"`,
		`error position: want "moves" after the position`,
		`error go: sims "0" is not a positive number`,
		"error go: want pairs",
		`error go: nodes limits the alphabeta kind; the mcts kind searches by sims`,
		"error go: level must be a whole number in 1..8, got \"9\"",
		`error unknown command "frobnicate"`,
		"position 4skcg/4pskc/4ppsk/3Pppps/SPP5/KSPP4/CKSP4/GCKS4 w 0 0 1 1",
		"board of trench",
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

func TestTrichess(t *testing.T) {
	for _, tc := range []struct {
		name   string
		newBot func() (Bot, error)
		net    string
	}{
		{"fallback", withoutNet(trichess.Game), "id net no net"},
		{"net", withNet(t, trichess.Game), "id net tiny.tnet (step 0"},
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
			out := talk(t, Config{Game: trichess.Game, NewBot: tc.newBot, Board: stateBoard}, script)
			for _, want := range []string{
				tc.net,
				"moves Rb1Ra3 Rb1Rc3 ",
				"info sims 20 visits ",
				" values ",
				"bestmove R",
				"position " + "wRwNwBwQwKwBwNwR/wPwPwPwP1wPwPwP/8/4wP3|rRrNrBrQrKrBrNrR/rPrPrP1rPrPrPrP/8/3rP4|",
				"board of trichess",
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

// Without a board, show prints the position string alone.
func TestShowWithoutBoard(t *testing.T) {
	out := talk(t, Config{Game: trench.Game, NewBot: withoutNet(trench.Game)}, "show\n")
	if want := "position " + trench.Game.Start().String() + "\n"; out != want {
		t.Errorf("show: %q, want %q", out, want)
	}
}

func TestNewErrors(t *testing.T) {
	broken := errors.New("no such net")
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no game", Config{NewBot: withoutNet(trench.Game), Limits: bot.Limits{Sims: 1}}, "no game"},
		{"no bot", Config{Game: trench.Game, Limits: bot.Limits{Sims: 1}}, "no bot"},
		{"no limits", Config{Game: trench.Game, NewBot: withoutNet(trench.Game)}, "simulations or nodes, or a time"},
		{"negative time", Config{Game: trench.Game, NewBot: withoutNet(trench.Game), Limits: bot.Limits{Time: -time.Second}}, "negative"},
		{"the bot fails", Config{Game: trench.Game, NewBot: func() (Bot, error) { return nil, broken }, Limits: bot.Limits{Sims: 1}}, "no such net"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// An input that fails ends the session with its error, after stopping a
// running search.
func TestReadError(t *testing.T) {
	s, err := New(Config{Game: trench.Game, NewBot: withoutNet(trench.Game), Limits: bot.Limits{Sims: 10}})
	if err != nil {
		t.Fatal(err)
	}
	broken := errors.New("the pipe broke")
	in := io.MultiReader(strings.NewReader("position startpos\ngo time 60000\n"), iotest.ErrReader(broken))
	var out bytes.Buffer
	start := time.Now()
	if err := s.Run(in, &out); !errors.Is(err, broken) {
		t.Errorf("Run: %v, want %v", err, broken)
	}
	if d := time.Since(start); d > 20*time.Second || !strings.Contains(out.String(), "bestmove ") {
		t.Errorf("after %v, output %q: want the search stopped with its bestmove", d, out.String())
	}
}

func FuzzParsers(f *testing.F) {
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
		for _, kind := range []string{searchconfig.MCTS, searchconfig.AlphaBeta} {
			if l, err := parseGo(args, def, kind); err == nil && l.Validate() != nil {
				t.Fatalf("go %q (%s) gave invalid limits %+v", line, kind, l)
			}
		}
		if s, err := parsePosition(trichess.Game, args); err == nil {
			if _, err := trichess.Game.ParseState(s.String()); err != nil {
				t.Fatalf("Trichess position %q from %q does not read back: %v", s, line, err)
			}
		}
	})
}

// infoVisits returns the visits of every info line of out.
func infoVisits(out string) []string {
	var visits []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 4 && f[0] == "info" && f[3] == "visits" {
			visits = append(visits, f[4])
		}
	}
	return visits
}

func TestNewGameForgetsTheTree(t *testing.T) {
	// sims 40 is one step of the search: one info line a search.
	script := "position startpos\ngo sims 40\nnewgame\ngo sims 40\nshow\ngo sims 40\nshow\n"
	out := talk(t, Config{Game: trench.Game, NewBot: withNet(t, trench.Game)}, script)
	// After newgame the tree starts afresh (41 visits: the root's own
	// evaluation and 40 simulations); without it the tree is kept.
	if got := strings.Join(infoVisits(out), " "); got != "41 41 81" {
		t.Errorf("root visits of the three searches %q, want \"41 41 81\":\n%s", got, out)
	}
}

func TestEndOfInputStopsTheSearch(t *testing.T) {
	start := time.Now()
	out := talk(t, Config{Game: trench.Game, NewBot: withNet(t, trench.Game)}, "position startpos\ngo time 60000\n")
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the end of input left the 60-second search running: took %v", d)
	}
	if !strings.Contains(out, "bestmove ") {
		t.Errorf("no bestmove from the stopped search:\n%s", out)
	}
}

func TestQuitStopsTheSearch(t *testing.T) {
	start := time.Now()
	out := talk(t, Config{Game: trench.Game, NewBot: withNet(t, trench.Game)}, "position startpos\ngo time 60000\nquit\nisready\n")
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("quit left the 60-second search running: took %v", d)
	}
	if !strings.Contains(out, "bestmove ") || strings.Contains(out, "readyok") {
		t.Errorf("want the stopped search's bestmove and nothing read after quit:\n%s", out)
	}
}

func TestLongLine(t *testing.T) {
	atLimit := "isready" + strings.Repeat(" ", textline.Max-len("isready"))
	script := "isready\n" + strings.Repeat("x", 3*textline.Max/2) + "\nisready\n" + atLimit + "\r\nposition startpos moves " + strings.Repeat("d4d5 ", textline.Max/4) + "\nmoves\n"
	out := talk(t, Config{Game: trench.Game, NewBot: withoutNet(trench.Game)}, script)
	want := "readyok\nerror line too long (limit 1 MiB)\nreadyok\nreadyok\nerror line too long (limit 1 MiB)\nmoves "
	if !strings.HasPrefix(out, want) {
		t.Errorf("output %.300q, want it to start %q", out, want)
	}
}

// When the guard replaces the search's move, an info string says so and
// bestmove is the replacement.
func TestGuardInfo(t *testing.T) {
	const fen = "8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38"
	s, err := trench.Game.ParseState(fen)
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := s.ParseAction("d3c3")
	good, _ := s.ParseAction("d2g2")
	noAids := tactics.Settings{}
	newBot := func() (Bot, error) {
		g, err := bot.NewGuard(trench.Game, 0.1, 3)
		if err != nil {
			return nil, err
		}
		return bot.NewWithEvaluator(trench.Game, mcts.PriorEvaluator{bad: 0.7, good: 0.3}, "favours d3c3", bot.Options{Tactics: &noAids, Guard: g})
	}
	out := talk(t, Config{Game: trench.Game, NewBot: newBot, Board: stateBoard, Limits: bot.Limits{Sims: 30}}, "position fen "+fen+"\ngo\nshow\nquit\n")
	for _, want := range []string{"info string alphabeta found a forced loss after d3c3; played d2g2\n", "bestmove d2g2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// In the endgame the classical search chooses with the whole limit at
// once, and the engine says so.
func TestEndgameInfo(t *testing.T) {
	const fen = "8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38"
	s, err := trench.Game.ParseState(fen)
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := s.ParseAction("d3c3")
	noAids := tactics.Settings{}
	newBot := func() (Bot, error) {
		e, err := bot.NewEndgame(trench.Game, 15, 3)
		if err != nil {
			return nil, err
		}
		return bot.NewWithEvaluator(trench.Game, mcts.PriorEvaluator{bad: 0.9}, "favours d3c3", bot.Options{Tactics: &noAids, Endgame: e})
	}
	out := talk(t, Config{Game: trench.Game, NewBot: newBot, Board: stateBoard, Limits: bot.Limits{Sims: 400}}, "position fen "+fen+"\ngo\nshow\nquit\n")
	if !strings.Contains(out, "info string alphabeta chose ") || strings.Contains(out, "bestmove d3c3") || strings.Count(out, "info sims") != 1 {
		t.Errorf("want one search, by alphabeta, not playing d3c3:\n%s", out)
	}
}

// withAlphaBeta makes bots of the alphabeta kind with the hand-written
// evaluation.
func withAlphaBeta(t testing.TB) func() (Bot, error) {
	c := searchconfig.Play()
	c.Kind, c.Eval = searchconfig.AlphaBeta, "hand"
	m, err := bot.NewMaker(trench.Game, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return func() (Bot, error) { return m.New(0, nil) }
}

// TestAlphaBetaBot checks the protocol with a bot of the alphabeta
// kind: its levels in nodes, go by nodes, level and time, one info line
// a search with depth and nodes, and simulations refused.
func TestAlphaBetaBot(t *testing.T) {
	script := strings.Join([]string{
		"trench",
		"position startpos",
		"go nodes 2000",
		"show",
		"go level 1",
		"show",
		"go time 50",
		"show",
		"go sims 30",
		"newgame",
		"go",
		"show",
	}, "\n") + "\n"
	out := talk(t, Config{Game: trench.Game, NewBot: withAlphaBeta(t), Limits: bot.Limits{Nodes: 1500}}, script)
	for _, want := range []string{
		"id levels 8 (1=1000, 2=3000, 3=10000, 4=30000, 5=100000, 6=300000, 7=1000000, 8=3000000)",
		"trenchok",
		"info depth ", "bestmove ",
		"info depth ", "bestmove ",
		"info depth ", "bestmove ",
		"error go: sims limits the mcts kind; the alphabeta kind searches by nodes",
		"info depth ", "bestmove ",
	} {
		i := strings.Index(out, want)
		if i < 0 {
			t.Fatalf("output lacks %q (in order):\n%s", want, out)
		}
		out = out[i+len(want):]
	}
	full := talk(t, Config{Game: trench.Game, NewBot: withAlphaBeta(t)}, "position startpos\ngo nodes 2000\nshow\n")
	var infos []string
	for _, l := range strings.Split(full, "\n") {
		if strings.HasPrefix(l, "info ") {
			infos = append(infos, l)
		}
	}
	if len(infos) != 1 || !regexp.MustCompile(`^info depth \d+ nodes \d+ time \d+ wdl \d+ 0 \d+ value -?[0-9.]+ pv \S+`).MatchString(infos[0]) {
		t.Errorf("info lines %q, want one with depth, nodes, time, wdl, value and pv", infos)
	}
}
