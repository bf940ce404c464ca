package terminal

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/games/plugin"
	"trench/mcts"
	"trench/neteval"
	"trench/nn/nntest"
	"trench/record"
	"trench/tactics"
)

// tinyNet is a freshly initialised tiny net for g (one value per seat).
func tinyNet(t *testing.T, g engine.Game) *neteval.Net {
	return &neteval.Net{Inference: nntest.Inference(t, nntest.TinyFor(t, g), 7, 7), Source: "tiny test net"}
}

// options sets up a game from start against a bot with net (nil: the
// material fallback), people in the seats named (the first
// seat when empty), the board drawn without colour.
func options(t *testing.T, start engine.State, seats string, net *neteval.Net, limits bot.Limits) Options {
	t.Helper()
	g := start.Game()
	var b bot.Bot
	var err error
	if net == nil {
		b, err = bot.NewWithEvaluator(g, tactics.Fallback{}, tactics.FallbackDoc, bot.Options{Threads: 1})
	} else {
		b, err = bot.New(g, net, bot.Options{Threads: 1})
	}
	if err != nil {
		t.Fatal(err)
	}
	humans, err := Seats(g, "", seats)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Bot: b, Game: record.New(start), Humans: humans, Limits: limits}
}

// play plays script as the people's input and returns the output.
func play(t *testing.T, script string, o Options) string {
	t.Helper()
	var out bytes.Buffer
	if err := Play(context.Background(), strings.NewReader(script), &out, o); err != nil {
		t.Fatalf("Play: %v\n%s", err, out.String())
	}
	return out.String()
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
	out := play(t, script, options(t, trench.Game.Start(), "", tinyNet(t, trench.Game), bot.Limits{Sims: 2}))
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
	net := tinyNet(t, trench.Game)
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
			start := trench.Game.Start()
			if tc.fen != "" {
				var err error
				if start, err = trench.Game.ParseState(tc.fen); err != nil {
					t.Fatal(err)
				}
			}
			out := play(t, tc.script, options(t, start, tc.side, net, bot.Limits{Sims: 2}))
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// A session whose context ends during a search plays, suggests and
// agrees nothing from the search cut short, and Play returns the
// context's error.
func TestSearchCutShortDoesNothing(t *testing.T) {
	net := tinyNet(t, trench.Game)
	for _, tc := range []struct {
		name, script string
		notWant      []string
	}{
		{"go", "go\n", []string{"(the bot's choice"}},
		{"hint", "hint\n", []string{"hint: "}},
		{"armistice", "armistice\n", []string{"accepts the armistice", "declines the armistice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := options(t, trench.Game.Start(), "black", net, bot.Limits{Sims: bot.MaxSims})
			// The context ends 50 ms after the person's command is read,
			// in the search it asks for, which has its root by then.
			in := &cancelAfterRead{r: strings.NewReader(tc.script), after: 50 * time.Millisecond, cancel: cancel}
			var out bytes.Buffer
			err := Play(ctx, in, &out, o)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Play returned %v, want %v", err, context.Canceled)
			}
			for _, w := range tc.notWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q from a search cut short:\n%s", w, out.String())
				}
			}
			if n := o.Game.Len(); n != 0 {
				t.Errorf("%d moves played, want none", n)
			}
		})
	}
}

// cancelAfterRead calls cancel a while after its first read.
type cancelAfterRead struct {
	r      io.Reader
	after  time.Duration
	cancel func()
	once   sync.Once
}

func (c *cancelAfterRead) Read(b []byte) (int, error) {
	c.once.Do(func() { time.AfterFunc(c.after, c.cancel) })
	return c.r.Read(b)
}

func TestPlayLongLine(t *testing.T) {
	script := strings.Repeat("x", 2*1<<20) + "\nmoves d4\nquit\n"
	out := play(t, script, options(t, trench.Game.Start(), "", tinyNet(t, trench.Game), bot.Limits{Sims: 2}))
	if !strings.Contains(out, "line too long (limit 1 MiB)") || !strings.Contains(out, "d4d5") {
		t.Errorf("want the long line refused and the next command obeyed:\n%.2000s", out)
	}
}

func TestSeats(t *testing.T) {
	for _, tc := range []struct {
		game        engine.Game
		side, seats string
		want        []bool
		err         string
	}{
		{trench.Game, "", "", []bool{true, false}, ""},
		{trench.Game, "white", "", []bool{false, true}, ""},
		{trench.Game, "B", "", []bool{true, false}, ""},
		{trench.Game, "green", "", nil, "--side must be black or white, got \"green\""},
		{trench.Game, "black", "white", nil, "not both"},
		{trench.Game, "", "black,white", []bool{true, true}, ""},
		{trichess.Game, "", "", []bool{true, false, false}, ""},
		{trichess.Game, "", "red,B", []bool{false, true, true}, ""},
		{trichess.Game, "white", "", nil, "takes --seats"},
		{trichess.Game, "", "green", nil, "no seat \"green\" in trichess (seats: white, red, black)"},
		{trichess.Game, "", "red,red", nil, "twice"},
	} {
		got, err := Seats(tc.game, tc.side, tc.seats)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Seats(%s, %q, %q) = %v, %v; want an error with %q", tc.game.Name(), tc.side, tc.seats, got, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Seats(%s, %q, %q) = %v, %v; want %v", tc.game.Name(), tc.side, tc.seats, got, err, tc.want)
		}
	}
}

func TestPlayRefusesBadOptions(t *testing.T) {
	o := options(t, trench.Game.Start(), "", nil, bot.Limits{Sims: 1})
	o.Humans = o.Humans[:1]
	if err := Play(context.Background(), strings.NewReader(""), &bytes.Buffer{}, o); err == nil || !strings.Contains(err.Error(), "1 seats") {
		t.Errorf("one seat for Trench: %v", err)
	}
	tri := options(t, trichess.Game.Start(), "", nil, bot.Limits{Sims: 1})
	tri.Style = plugin.Style{Square: true}
	if err := Play(context.Background(), strings.NewReader(""), &bytes.Buffer{}, tri); err == nil || !strings.Contains(err.Error(), "Trichess has no square view") {
		t.Errorf("a square Trichess board: %v", err)
	}
	if _, err := View(tictactoe.Game{}); err == nil || !strings.Contains(err.Error(), "cannot show tictactoe games (it plays trench and trichess)") {
		t.Errorf("View(tictactoe) = %v", err)
	}
}

func TestLoadGame(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(path, record.New(trench.Game.Start()).Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, err := LoadGame(trench.Game, path); err != nil || g.Len() != 0 {
		t.Errorf("LoadGame: %v, %v", g, err)
	}
	if err := os.WriteFile(path, []byte("[Game \"trench\"]\n[Start \"8/8 b\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadGame(trench.Game, path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a damaged game file: %v, want an error naming it", err)
	}
}

// When the guard replaces the bot's move, the terminal says why.
func TestPlayShowsGuard(t *testing.T) {
	start, err := trench.Game.ParseState("8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38")
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := start.ParseAction("d3c3")
	good, _ := start.ParseAction("d2g2")
	guard, err := bot.NewGuard(trench.Game, 0.1, 3)
	if err != nil {
		t.Fatal(err)
	}
	noAids := tactics.Settings{}
	b, err := bot.NewWithEvaluator(trench.Game, mcts.PriorEvaluator{bad: 0.7, good: 0.3}, "favours d3c3", bot.Options{Tactics: &noAids, Guard: guard})
	if err != nil {
		t.Fatal(err)
	}
	humans, err := Seats(trench.Game, "", "white")
	if err != nil {
		t.Fatal(err)
	}
	out := play(t, "quit\n", Options{Bot: b, Game: record.New(start), Humans: humans, Limits: bot.Limits{Sims: 30}})
	if !strings.Contains(out, "plays d2g2") || !strings.Contains(out, "check: alphabeta found a forced loss after d3c3; played d2g2") {
		t.Errorf("no check shown:\n%s", out)
	}
}

func TestPlayShowsEndgame(t *testing.T) {
	start, err := trench.Game.ParseState("8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38")
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := start.ParseAction("d3c3")
	endgame, err := bot.NewEndgame(trench.Game, 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	noAids := tactics.Settings{}
	b, err := bot.NewWithEvaluator(trench.Game, mcts.PriorEvaluator{bad: 0.9}, "favours d3c3", bot.Options{Tactics: &noAids, Endgame: endgame})
	if err != nil {
		t.Fatal(err)
	}
	humans, err := Seats(trench.Game, "", "white")
	if err != nil {
		t.Fatal(err)
	}
	out := play(t, "quit\n", Options{Bot: b, Game: record.New(start), Humans: humans, Limits: bot.Limits{Sims: 30}})
	if strings.Contains(out, "plays d3c3") || !strings.Contains(out, "endgame: alphabeta chose ") || !strings.Contains(out, "at depth 3") {
		t.Errorf("no endgame shown, or the tree's losing move played:\n%s", out)
	}
}
