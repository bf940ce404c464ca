package bot

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/neteval"
	"trench/nn/nntest"
	"trench/searchconfig"
	"trench/tactics"
)

// tinyNet is a freshly initialised tiny net for fast tests.
func tinyNet(t testing.TB) *neteval.Net {
	return &neteval.Net{Inference: nntest.Inference(t, nntest.Tiny(t, trench.Game), 1, 2), Source: "tiny test net"}
}

func newBot(t testing.TB) *Tree {
	t.Helper()
	b, err := New(trench.Game, tinyNet(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLevels(t *testing.T) {
	for _, kind := range []string{searchconfig.MCTS, searchconfig.AlphaBeta} {
		prev := 0
		for n := 1; n <= Levels; n++ {
			l, err := Level(kind, n)
			if err != nil || l.Validate() != nil {
				t.Fatalf("Level(%s, %d) = %v, %v", kind, n, l, err)
			}
			work := l.Sims
			if kind == searchconfig.AlphaBeta {
				work = l.Nodes
				if l.Sims != 0 {
					t.Errorf("alphabeta level %d has simulations: %v", n, l)
				}
			} else if l.Nodes != 0 {
				t.Errorf("mcts level %d has nodes: %v", n, l)
			}
			if work <= prev {
				t.Errorf("%s level %d asks %d, not more than level %d's %d", kind, n, work, n-1, prev)
			}
			prev = work
		}
	}
}

func TestLimitsValidate(t *testing.T) {
	for _, tc := range []struct {
		l  Limits
		ok bool
	}{
		{Limits{Sims: 1}, true},
		{Limits{Time: time.Millisecond}, true},
		{Limits{Sims: 10, Time: time.Second}, true},
		{Limits{}, false},
		{Limits{Sims: -1}, false},
		{Limits{Time: -time.Second}, false},
		{Limits{Sims: MaxSims + 1}, false},
		{Limits{Time: MaxTime + 1}, false},
		{Limits{Nodes: 10, MultiPV: 3}, true},
		{Limits{Nodes: 10, MultiPV: -1}, false},
		{Limits{Nodes: 10, MultiPV: MaxMultiPV + 1}, false},
	} {
		if err := tc.l.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: Validate() = %v, want ok=%v", tc.l, err, tc.ok)
		}
	}
}

func TestSearchAnalysis(t *testing.T) {
	b := newBot(t)
	a, err := b.Search(context.Background(), Limits{Sims: 40})
	if err != nil {
		t.Fatal(err)
	}
	start := trench.Game.Start()
	if _, err := start.ParseAction(a.Move); err != nil {
		t.Fatalf("chosen move %q: %v", a.Move, err)
	}
	if a.Sims != 40 || a.Visits < 40 {
		t.Errorf("sims %d visits %d, want 40 new simulations", a.Sims, a.Visits)
	}
	if len(a.PV) == 0 || a.PV[0] != a.Move || len(a.PV) != len(a.PVActions) {
		t.Errorf("PV %v does not start with the move %s", a.PV, a.Move)
	}
	if sum := a.Win + a.Draw + a.Loss; math.Abs(sum-1) > 1e-6 || a.Win < 0 || a.Draw < 0 || a.Loss < 0 {
		t.Errorf("W/D/L %v %v %v", a.Win, a.Draw, a.Loss)
	}
	if math.Abs(a.Win-a.Loss-a.Value) > 1e-6 {
		t.Errorf("win - loss = %v, value %v", a.Win-a.Loss, a.Value)
	}
	if len(a.Moves) != len(start.LegalActions(nil)) {
		t.Errorf("%d root moves, want %d", len(a.Moves), len(start.LegalActions(nil)))
	}
	total, estimated := 0, 0
	for i, m := range a.Moves {
		total += m.Visits
		if i > 0 && m.Visits > a.Moves[i-1].Visits {
			t.Errorf("moves not sorted by visits: %v", a.Moves)
		}
		// The most visited moves, up to maxAnalysed, carry the net's
		// view after them; the rest do not.
		want := m.Visits > 0 && i < maxAnalysed
		if m.Estimated != want {
			t.Errorf("move %d %s (%d visits): estimated %v, want %v", i, m.Move, m.Visits, m.Estimated, want)
		}
		// Each visited move has its main line, the chosen one the PV.
		switch {
		case m.Action == a.Action && !slices.Equal(m.PV, a.PV):
			t.Errorf("chosen move %s: line %v, want the PV %v", m.Move, m.PV, a.PV)
		case m.Visits == 0 && m.PV != nil:
			t.Errorf("unvisited move %s has the line %v", m.Move, m.PV)
		case m.Visits > 0 && (len(m.PV) == 0 || m.PV[0] != m.Move || m.Visits >= 2 && len(m.PV) < 2):
			t.Errorf("move %s, %d visits: line %v", m.Move, m.Visits, m.PV)
		}
		if m.Estimated {
			estimated++
			if m.Draw < 0 || m.Draw > 1 || math.IsNaN(m.ScoreDiff) || math.Abs(m.ScoreDiff) > trench.ArmyPoints {
				t.Errorf("move %s: draw %v, score difference %v", m.Move, m.Draw, m.ScoreDiff)
			}
		}
	}
	if estimated == 0 {
		t.Error("no move carries the net's view after it")
	}
	if total != a.Visits-1 || a.Moves[0].Move != a.Move {
		t.Errorf("children visits %d, root %d; top move %s, chosen %s", total, a.Visits, a.Moves[0].Move, a.Move)
	}
	if math.IsNaN(a.ScoreDiff) || math.Abs(a.ScoreDiff) > trench.ArmyPoints {
		t.Errorf("expected score difference %v", a.ScoreDiff)
	}
}

func TestTreeReuse(t *testing.T) {
	b := newBot(t)
	a, err := b.Search(context.Background(), Limits{Sims: 200})
	if err != nil {
		t.Fatal(err)
	}
	// The bot's move and the most visited reply: their subtree is kept.
	s := trench.Game.Start()
	s.Play(a.PVActions[0])
	if len(a.PVActions) < 2 {
		t.Fatalf("PV %v too short to test reuse", a.PV)
	}
	s.Play(a.PVActions[1])
	if err := b.SetPosition(s); err != nil {
		t.Fatal(err)
	}
	a2, err := b.Search(context.Background(), Limits{Sims: 10})
	if err != nil {
		t.Fatal(err)
	}
	if a2.Sims != 10 || a2.Visits <= 10 {
		t.Errorf("after reuse: %d sims, %d visits; want visits kept from the previous search", a2.Sims, a2.Visits)
	}
	if a2.Position != s.String() {
		t.Errorf("searched %s, want %s", a2.Position, s)
	}
	// An unrelated position starts afresh.
	p, err := trench.Game.ParseState("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetPosition(p); err != nil {
		t.Fatal(err)
	}
	a3, err := b.Search(context.Background(), Limits{Sims: 10})
	if err != nil {
		t.Fatal(err)
	}
	if a3.Visits != 11 || a3.ToMove != 1 {
		t.Errorf("fresh tree: %d visits, mover %d; want 11 and White", a3.Visits, a3.ToMove)
	}
}

func TestPlayKeepsSubtree(t *testing.T) {
	b := newBot(t)
	a, err := b.Search(context.Background(), Limits{Sims: 50})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Play(a.Action); err != nil {
		t.Fatal(err)
	}
	if err := b.Play(-1); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("Play(-1) = %v, want ErrIllegalAction", err)
	}
	want := trench.Game.Start()
	want.Play(a.Action)
	if got := b.Position().String(); got != want.String() {
		t.Errorf("position %s, want %s", got, want)
	}
}

func TestSearchTimeLimit(t *testing.T) {
	b := newBot(t)
	a, err := b.Search(context.Background(), Limits{Time: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if a.Sims < 1 || a.Stopped {
		t.Errorf("timed search: %d sims, stopped %v", a.Sims, a.Stopped)
	}
}

// A time limit that ends before the root's first evaluation still finds
// a move: the search runs on until the root and one simulation are
// evaluated.
func TestSearchTimeEndsFirst(t *testing.T) {
	b := newBot(t)
	a, err := b.Search(context.Background(), Limits{Time: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if a.Visits < 2 || a.Stopped {
		t.Errorf("search out of time at once: %d visits, stopped %v; want the root and a simulation", a.Visits, a.Stopped)
	}
	if _, err := trench.Game.Start().ParseAction(a.Move); err != nil {
		t.Errorf("chosen move %q: %v", a.Move, err)
	}
}

// Choose is Search without the analysis: the same move and root
// statistics from bots that search alike.
func TestChooseMatchesSearch(t *testing.T) {
	searched, chosen := newBot(t), newBot(t)
	var r mcts.Result
	for range 3 {
		a, err := searched.Search(context.Background(), Limits{Sims: 60})
		if err != nil {
			t.Fatal(err)
		}
		if err := chosen.Choose(context.Background(), Limits{Sims: 60}, &r); err != nil {
			t.Fatal(err)
		}
		if r.Action != a.Action || r.Visits != a.Visits || len(r.Actions) != len(a.Moves) {
			t.Fatalf("Choose: %s with %d visits; Search: %s with %d", chosen.Position().ActionString(r.Action), r.Visits, a.Move, a.Visits)
		}
		for _, st := range r.Actions {
			for _, m := range a.Moves {
				if m.Action == st.Action && m.Visits != st.Visits {
					t.Errorf("%s: %d visits by Choose, %d by Search", m.Move, st.Visits, m.Visits)
				}
			}
		}
		if len(a.PVActions) < 2 {
			break
		}
		next := searched.Position()
		next.Play(a.PVActions[0])
		next.Play(a.PVActions[1])
		if err := searched.SetPosition(next); err != nil {
			t.Fatal(err)
		}
		if err := chosen.SetPosition(next); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSearchCancelled(t *testing.T) {
	b := newBot(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Search(ctx, Limits{Sims: 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the root was evaluated: %v, want context.Canceled", err)
	}
	// With the root evaluated, a cancelled search reports what it has.
	if _, err := b.Search(context.Background(), Limits{Sims: 5}); err != nil {
		t.Fatal(err)
	}
	a, err := b.Search(ctx, Limits{Sims: 10})
	if err != nil || !a.Stopped {
		t.Errorf("cancelled after the root was evaluated: %+v, %v", a, err)
	}
}

func TestSearchErrors(t *testing.T) {
	b := newBot(t)
	if _, err := b.Search(context.Background(), Limits{}); err == nil {
		t.Error("a search without limits was accepted")
	}
	if err := b.SetPosition(trichess.Game.Start()); err == nil || !strings.Contains(err.Error(), "a trichess position given to a trench bot") {
		t.Errorf("a Trichess position: %v", err)
	}
	// Black has 25 points: the game is over.
	over, err := trench.Game.ParseState("4s3/4ps2/4pp2/4pp1s/SPPP4/KSPP4/CKSP4/GCKS4 w 25 0 0 9")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetPosition(over); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Search(context.Background(), Limits{Sims: 5}); !errors.Is(err, mcts.ErrGameOver) {
		t.Errorf("finished game: %v, want ErrGameOver", err)
	}
}

func TestAcceptsArmistice(t *testing.T) {
	pos := func(fen string) engine.State {
		s, err := trench.Game.ParseState(fen)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	even := pos("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1")
	blackAhead := pos("4skcg/4pskc/4pps1/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 3 0 4 8")
	for _, tc := range []struct {
		name   string
		s      engine.State
		player int
		a      Analysis
		want   bool
	}{
		{"even, no expectation", even, 1, Analysis{ToMove: 0, Value: 0, ScoreDiff: 0}, true},
		{"even, engine expects to win", even, 1, Analysis{ToMove: 0, Value: -0.4, ScoreDiff: -3}, false},
		{"even, engine expects to lose", even, 1, Analysis{ToMove: 0, Value: 0.4, ScoreDiff: 3}, true},
		{"even, engine to move expects points", even, 0, Analysis{ToMove: 0, Value: 0.02, ScoreDiff: 2}, false},
		{"behind", blackAhead, 1, Analysis{ToMove: 0, Value: 0.9, ScoreDiff: 8}, false},
		{"ahead, holding", blackAhead, 0, Analysis{ToMove: 0, Value: 0.9, ScoreDiff: 3}, true},
		{"ahead, expecting more", blackAhead, 0, Analysis{ToMove: 0, Value: 0.9, ScoreDiff: 9}, false},
	} {
		if got := AcceptsArmistice(tc.s, tc.player, &tc.a); got != tc.want {
			t.Errorf("%s: AcceptsArmistice = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	b := newBot(t)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			s := trench.Game.Start()
			if i%2 == 1 {
				s.Play(s.LegalActions(nil)[i])
			}
			if err := b.SetPosition(s); err != nil {
				t.Error(err)
			}
			if _, err := b.Search(context.Background(), Limits{Sims: 8}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

func BenchmarkSearch100(b *testing.B) {
	bt := newBot(b)
	s := trench.Game.Start()
	for b.Loop() {
		if err := bt.SetPosition(s); err != nil {
			b.Fatal(err)
		}
		bt.tree.Reset(s)
		if _, err := bt.Search(context.Background(), Limits{Sims: 100}); err != nil {
			b.Fatal(err)
		}
	}
}

// A bot searching with several threads, the shipped net and the tactical
// aids runs exactly the simulations asked for, keeps them from move to
// move, and reports root statistics that add up. Run it with -race.
func TestThreadedBot(t *testing.T) {
	net, err := neteval.LoadNet(trench.Game, shipped.Ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []int{2, 4} {
		b, err := New(trench.Game, net, Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		visits := 1
		for move := range 3 {
			a, err := b.Search(context.Background(), Limits{Sims: 150})
			if err != nil {
				t.Fatal(err)
			}
			if a.Sims != 150 || a.Visits != visits+150 {
				t.Errorf("%d threads, move %d: %d simulations, %d visits; want 150, %d", threads, move, a.Sims, a.Visits, visits+150)
			}
			sum := 0
			for _, m := range a.Moves {
				sum += m.Visits
			}
			if sum != a.Visits-1 {
				t.Errorf("%d threads, move %d: the moves have %d visits, the root %d", threads, move, sum, a.Visits)
			}
			if err := b.Play(a.Action); err != nil {
				t.Fatal(err)
			}
			for _, m := range a.Moves { // the chosen move's subtree is kept
				if m.Action == a.Action {
					visits = m.Visits
				}
			}
		}
	}
}

// TestLoad loads bots as the commands do: a run directory's newest good
// checkpoint with a warning for a damaged newer one, the built-in net,
// the fallback for a game without one, and an error for a missing file.
func TestLoad(t *testing.T) {
	run := t.TempDir()
	good := nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), run, 5)
	damaged := nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), run, 10)
	if err := os.WriteFile(damaged, []byte("not a net"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		game         engine.Game
		ref          string
		doc, warning string
		err          string
	}{
		{trench.Game, run, good, "warning: passing over " + damaged, ""},
		{trench.Game, shipped.Ref, "(step ", "", ""},
		{trichess.Game, shipped.Ref, "embedded Trichess net (step ", "", ""},
		{trichess.Game, "", "embedded Trichess net (step ", "", ""},
		{tictactoe.Game{}, shipped.Ref, tactics.FallbackDoc, "", ""},
		{trench.Game, searchconfig.NoNet, tactics.FallbackDoc + "; tactical aids", "", ""},
		{trench.Game, filepath.Join(run, "missing.tnet"), "", "", "missing.tnet"},
	} {
		var warn strings.Builder
		c := searchconfig.Play()
		c.Kind, c.Net, c.Threads = searchconfig.MCTS, tc.ref, 2
		c.Fit(tc.game, func(k string) bool { return k == "net" })
		b, err := Load(tc.game, c, &warn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Load(%s, %q): %v, want an error naming %q", tc.game.Name(), tc.ref, err, tc.err)
			}
			continue
		}
		if err != nil || !strings.Contains(b.String(), tc.doc) || !strings.Contains(warn.String(), tc.warning) || tc.warning == "" && warn.Len() > 0 {
			t.Errorf("Load(%s, %q) = %v, %v warning %q; want %q warning %q", tc.game.Name(), tc.ref, b, err, warn.String(), tc.doc, tc.warning)
		}
	}
}

// A bot told to average over the board's symmetries searches as one whose
// evaluator is the net's averaged by mcts.SymmetryAverage, and says so; a
// game with no symmetry is searched as without.
func TestAverageSymmetries(t *testing.T) {
	net := tinyNet(t)
	averaged, err := New(trench.Game, net, Options{AverageSymmetries: true})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := neteval.New(trench.Game, net.Inference)
	if err != nil {
		t.Fatal(err)
	}
	wrapped, err := NewWithEvaluator(trench.Game, mcts.SymmetryAverage{Evaluator: ev}, "wrapped", Options{})
	if err != nil {
		t.Fatal(err)
	}
	plain := newBot(t)
	if !strings.Contains(averaged.String(), "averaged over 2 symmetries") || strings.Contains(plain.String(), "symmetries") {
		t.Errorf("described as %q and, without averaging, %q", averaged, plain)
	}
	a, err := averaged.Search(context.Background(), Limits{Sims: 80})
	if err != nil {
		t.Fatal(err)
	}
	w, err := wrapped.Search(context.Background(), Limits{Sims: 80})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plain.Search(context.Background(), Limits{Sims: 80})
	if err != nil {
		t.Fatal(err)
	}
	same := func(x, y *Analysis) bool {
		if len(x.Moves) != len(y.Moves) {
			return false
		}
		for i := range x.Moves {
			if x.Moves[i].Move != y.Moves[i].Move || x.Moves[i].Visits != y.Moves[i].Visits {
				return false
			}
		}
		return true
	}
	if !same(a, w) {
		t.Errorf("averaging bot and wrapped evaluator searched differently: %v against %v", a.Moves, w.Moves)
	}
	if same(a, p) {
		t.Errorf("averaging changed no visit of the search")
	}
	tri, err := New(trichess.Game, tinyTrichessNet(t), Options{AverageSymmetries: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tri.String(), "symmetries") {
		t.Errorf("a Trichess bot, with one symmetry, described as %q", tri)
	}
}
