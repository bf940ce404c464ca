package bot

import (
	"context"
	"errors"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/nnue"
	"trench/searchconfig"
)

// testNNUE saves a tiny random NNUE and returns its file.
func testNNUE(t testing.TB) string {
	t.Helper()
	n, err := nnue.New(16, 7)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "tiny.nnue")
	if err := n.Save(file); err != nil {
		t.Fatal(err)
	}
	return file
}

// alphaBetaConfig is Play's settings with kind alphabeta and the tiny
// net.
func alphaBetaConfig(t testing.TB) searchconfig.Config {
	c := searchconfig.Play()
	c.Kind, c.NNUE, c.Endgame = searchconfig.AlphaBeta, testNNUE(t), 15
	return c
}

// checkAnalysis checks what an alphabeta bot's analysis of s must hold.
func checkAnalysis(t *testing.T, s engine.State, a *Analysis) {
	t.Helper()
	if !slices.Contains(s.LegalActions(nil), a.Action) || a.Move != s.ActionString(a.Action) {
		t.Errorf("move %s (%d) is not legal in %s", a.Move, a.Action, s)
	}
	if len(a.PV) == 0 || a.PV[0] != a.Move || len(a.PV) != len(a.PVActions) || a.PVActions[0] != a.Action {
		t.Errorf("PV %v (%v) does not start with the move %s", a.PV, a.PVActions, a.Move)
	}
	if a.Nodes <= 0 || a.Depth < 0 || a.Sims != 0 || a.Visits != 0 {
		t.Errorf("nodes %d depth %d sims %d visits %d; want nodes and no simulations", a.Nodes, a.Depth, a.Sims, a.Visits)
	}
	if a.Draw != 0 || a.ScoreDiff != 0 || math.Abs(a.Win+a.Loss-1) > 1e-9 || math.Abs(a.Win-a.Loss-a.Value) > 1e-9 || math.Abs(a.Value) > 1 {
		t.Errorf("win %g draw %g loss %g value %g score %g; want win+loss 1, their difference the value, no draw or score", a.Win, a.Draw, a.Loss, a.Value, a.ScoreDiff)
	}
	other := 1 - a.ToMove
	if a.Players[other].Value != -a.Value || a.Players[a.ToMove].Win != a.Win {
		t.Errorf("players %+v disagree with the mover's value %g", a.Players, a.Value)
	}
	if !strings.Contains(a.Effort(), "nodes, depth") {
		t.Errorf("Effort() = %q", a.Effort())
	}
}

// TestAlphaBetaBot plays a few moves with each evaluation at a level and
// under a time limit, the table kept from move to move and cleared by
// NewGame.
func TestAlphaBetaBot(t *testing.T) {
	file := testNNUE(t)
	for _, tc := range []struct {
		eval, nnue, doc string
	}{
		{"nnue", file, "nnue " + file},
		{"nnue", "default", "embedded NNUE"},
		{"hand", "", "hand-written evaluation"},
		{"rules", "", "score difference"},
	} {
		c := searchconfig.Play()
		c.Kind, c.Eval, c.NNUE, c.Endgame = searchconfig.AlphaBeta, tc.eval, tc.nnue, 15
		b, err := Load(trench.Game, c, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", tc.eval, err)
		}
		if _, ok := b.(*AlphaBeta); !ok || b.Kind() != searchconfig.AlphaBeta || !strings.Contains(b.String(), tc.doc) {
			t.Errorf("%s: %T of kind %s, String() = %q; want alphabeta naming %q", tc.eval, b, b.Kind(), b.String(), tc.doc)
		}
		if (tc.eval != "hand") != strings.Contains(b.String(), "from 15 points the hand-written evaluation") {
			t.Errorf("%s: String() = %q; the hand-over from 15 points is said only when the evaluation is not the hand-written one", tc.eval, b.String())
		}
		level1, err := Level(searchconfig.AlphaBeta, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []Limits{level1, {Time: 30 * time.Millisecond}, {Nodes: 2000, Time: time.Minute}} {
			s := b.Position()
			a, err := b.Search(context.Background(), l)
			if err != nil {
				t.Fatalf("%s %v: %v", tc.eval, l, err)
			}
			checkAnalysis(t, s, a)
			if a.Limits != l.String() {
				t.Errorf("limits %q, want %q", a.Limits, l)
			}
			if l.Time > 0 && l.Nodes == 0 && a.Elapsed > l.Time+time.Second {
				t.Errorf("%s: %v took %v", tc.eval, l, a.Elapsed)
			}
			if err := b.Play(a.Action); err != nil {
				t.Fatal(err)
			}
			if b.Position().String() == s.String() {
				t.Errorf("%s: Play(%s) left the position at %s", tc.eval, a.Move, s)
			}
		}
		b.NewGame()
		if b.Position().String() != trench.Game.Start().String() {
			t.Errorf("NewGame left %s", b.Position())
		}
	}
}

// TestAlphaBetaBotLimitsAndPositions checks the errors: simulations
// refused, a finished game, an illegal move, another game's position;
// and Choose.
func TestAlphaBetaBotLimitsAndPositions(t *testing.T) {
	b, err := Load(trench.Game, alphaBetaConfig(t), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Search(context.Background(), Limits{Sims: 10}); err == nil || !strings.Contains(err.Error(), "not by 10 simulations") {
		t.Errorf("simulations: %v", err)
	}
	if err := b.Play(-1); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("Play(-1) = %v, want ErrIllegalAction", err)
	}
	if err := b.SetPosition(trichess.Game.Start()); err == nil || !strings.Contains(err.Error(), "a trichess position given to a trench bot") {
		t.Errorf("a Trichess position: %v", err)
	}
	var r mcts.Result
	if err := b.Choose(context.Background(), Limits{Nodes: 1000}, &r); err != nil || !slices.Contains(trench.Game.Start().LegalActions(nil), r.Action) || len(r.Value) != 2 || r.Value[0] != -r.Value[1] {
		t.Errorf("Choose = %+v, %v", r, err)
	}
	over := mustState(t, "7g/8/8/8/8/8/8/Gs6 w 25 0 0 20")
	if !over.Over() {
		t.Fatalf("%s is not over", over)
	}
	if err := b.SetPosition(over); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Search(context.Background(), Limits{Nodes: 1000}); !errors.Is(err, mcts.ErrGameOver) {
		t.Errorf("a finished game: %v, want mcts.ErrGameOver", err)
	}
	// An mcts bot refuses nodes.
	if _, err := newBot(t).Search(context.Background(), Limits{Nodes: 1000}); err == nil || !strings.Contains(err.Error(), "not by 1000 nodes") {
		t.Errorf("an mcts bot given nodes: %v", err)
	}
}

// TestAlphaBetaBotEndgame checks the hand-over to the hand-written
// evaluation from the endgame's score: reported by InEndgame, searched
// within the same limits, and absent with endgame 0.
func TestAlphaBetaBotEndgame(t *testing.T) {
	s := mustState(t, guardLosesByForce) // 22 points each
	for _, tc := range []struct {
		endgame float64
		handing bool
	}{{15, true}, {23, false}, {0, false}} {
		c := alphaBetaConfig(t)
		c.Endgame = tc.endgame
		b, err := Load(trench.Game, c, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if b.InEndgame() {
			t.Errorf("endgame %g: in the endgame at the start", tc.endgame)
		}
		if err := b.SetPosition(s); err != nil {
			t.Fatal(err)
		}
		if b.InEndgame() != tc.handing {
			t.Errorf("endgame %g at 22 points: InEndgame() = %v, want %v", tc.endgame, b.InEndgame(), tc.handing)
		}
		a, err := b.Search(context.Background(), Limits{Nodes: 3000})
		if err != nil {
			t.Fatal(err)
		}
		checkAnalysis(t, s, a)
		if (b.(*AlphaBeta).hand != nil) != tc.handing {
			t.Errorf("endgame %g: the hand-written searcher made: %v, want %v", tc.endgame, b.(*AlphaBeta).hand != nil, tc.handing)
		}
		b.NewGame()
	}
}

// TestAlphaBetaBotRefused checks the settings a bot of the alphabeta
// kind refuses: another game's net, a net that does not load,
// simulations; and that the guard and threads are ignored.
func TestAlphaBetaBotRefused(t *testing.T) {
	c := alphaBetaConfig(t)
	if _, err := Load(trichess.Game, c, io.Discard); err == nil || !strings.Contains(err.Error(), c.NNUE+": nnue net of another game: a trench") {
		t.Errorf("Trichess with a Trench NNUE: %v", err)
	}
	bad := c
	bad.NNUE = filepath.Join(t.TempDir(), "missing.nnue")
	if _, err := Load(trench.Game, bad, io.Discard); err == nil || !strings.Contains(err.Error(), "missing.nnue") {
		t.Errorf("a missing net: %v", err)
	}
	bad = c
	bad.Sims = 100
	if _, err := Load(trench.Game, bad, io.Discard); err == nil || !strings.Contains(err.Error(), "sims limits the mcts kind") {
		t.Errorf("simulations: %v", err)
	}
	if _, err := OptionsFor(trench.Game, c); err == nil {
		t.Error("OptionsFor made tree search options for kind alphabeta")
	}
	c.Guard, c.Threads = 0.5, 8
	b, err := Load(trench.Game, c, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*AlphaBeta); !ok || strings.Contains(b.String(), "guard") {
		t.Errorf("%T, String() = %q; want an alpha-beta bot with no guard", b, b.String())
	}
}

// TestAlphaBetaBotLines checks the moves of an alphabeta bot's analysis:
// the chosen move alone with its score and depth by default, and with
// Limits.MultiPV 3 three distinct moves searched in full, best first,
// the first the chosen one, each with a main line of legal moves from
// it.
func TestAlphaBetaBotLines(t *testing.T) {
	b, err := Load(trench.Game, alphaBetaConfig(t), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	start := trench.Game.Start()
	a, err := b.Search(context.Background(), Limits{Nodes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Moves) != 1 || a.Moves[0].Action != a.Action || a.Moves[0].Q != a.Value || a.Moves[0].Depth != a.Depth || a.Depth == 0 {
		t.Errorf("one line: moves %+v, move %s value %g depth %d", a.Moves, a.Move, a.Value, a.Depth)
	}
	b.NewGame()
	a, err = b.Search(context.Background(), Limits{Nodes: 20000, MultiPV: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkAnalysis(t, start, a)
	if len(a.Moves) != 3 || a.Moves[0].Action != a.Action || a.Moves[0].Q != a.Value || !slices.Equal(a.Moves[0].PV, a.PV) || a.Limits != "20000 nodes, 3 lines" {
		t.Fatalf("three lines: moves %+v, move %s value %g, limits %q", a.Moves, a.Move, a.Value, a.Limits)
	}
	for i, m := range a.Moves {
		if m.Depth != a.Depth || (i > 0 && (m.Q > a.Moves[i-1].Q || m.Action == a.Moves[i-1].Action)) || len(m.PV) == 0 || m.PV[0] != m.Move {
			t.Errorf("line %d: %+v", i, m)
		}
		s := start.Clone()
		for _, mv := range m.PV {
			act, err := s.ParseAction(mv)
			if err != nil || engine.PlayChecked(s, act) != nil {
				t.Fatalf("line %d: %s in %v is not legal", i, mv, m.PV)
			}
		}
	}
}
