package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"trench/engine/trichess"
	"trench/neteval"
	"trench/nn/nntest"
	"trench/tactics"
)

// tinyTrichessNet is a freshly initialised tiny Trichess net with one
// value per seat, as trench train --game trichess makes.
func tinyTrichessNet(t testing.TB) *neteval.Net {
	return &neteval.Net{Inference: nntest.Inference(t, nntest.TinyFor(t, trichess.Game), 3, 4), Source: "tiny trichess test net"}
}

// checkPlayers checks an analysis's per-player evaluations.
func checkPlayers(t *testing.T, a *Analysis, players int) {
	t.Helper()
	if len(a.Players) != players {
		t.Fatalf("%d player evaluations, want %d", len(a.Players), players)
	}
	for p, e := range a.Players {
		if sum := e.Win + e.Draw + e.Loss; math.Abs(sum-1) > 1e-6 || e.Win < 0 || e.Draw < 0 || e.Loss < 0 {
			t.Errorf("player %d: W/D/L %v %v %v", p, e.Win, e.Draw, e.Loss)
		}
		if math.Abs(e.Win-e.Loss-e.Value) > 1e-6 || math.Abs(e.Value) > 1 {
			t.Errorf("player %d: win - loss = %v, value %v", p, e.Win-e.Loss, e.Value)
		}
		if math.IsNaN(e.ScoreDiff) || math.IsInf(e.ScoreDiff, 0) {
			t.Errorf("player %d: expected score difference %v", p, e.ScoreDiff)
		}
	}
	me := a.Players[a.ToMove]
	if me.Value != a.Value || me.Win != a.Win || me.ScoreDiff != a.ScoreDiff {
		t.Errorf("the mover's fields %v/%v/%v differ from Players[%d] %+v", a.Value, a.Win, a.ScoreDiff, a.ToMove, me)
	}
	for p := range players {
		w, d, l, sd := a.For(p)
		if e := a.Players[p]; w != e.Win || d != e.Draw || l != e.Loss || sd != e.ScoreDiff {
			t.Errorf("For(%d) = %v %v %v %v, want %+v", p, w, d, l, sd, e)
		}
	}
}

func TestTrichessNetSearch(t *testing.T) {
	b, err := New(trichess.Game, tinyTrichessNet(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for ply := range 3 {
		a, err := b.Search(context.Background(), Limits{Sims: 30})
		if err != nil {
			t.Fatal(err)
		}
		pos := b.Position()
		if a.ToMove != ply || pos.ToMove() != ply {
			t.Errorf("ply %d: analysis for player %d, position's mover %d", ply, a.ToMove, pos.ToMove())
		}
		if _, err := pos.ParseAction(a.Move); err != nil {
			t.Fatalf("chosen move %q: %v", a.Move, err)
		}
		checkPlayers(t, a, 3)
		if err := b.Play(a.Action); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTrenchPlayersMirror(t *testing.T) {
	a, err := newBot(t).Search(context.Background(), Limits{Sims: 30})
	if err != nil {
		t.Fatal(err)
	}
	checkPlayers(t, a, 2)
	me, other := a.Players[a.ToMove], a.Players[1-a.ToMove]
	if math.Abs(me.Value+other.Value) > 1e-6 || math.Abs(me.Win-other.Loss) > 1e-6 || math.Abs(me.ScoreDiff+other.ScoreDiff) > 1e-6 {
		t.Errorf("two players' evaluations do not mirror: %+v and %+v", me, other)
	}
}

// TestTrichessDefaultNet checks the built-in Trichess net: it loads for
func TestFallbackBot(t *testing.T) {
	b, err := NewWithEvaluator(trichess.Game, tactics.Fallback{}, tactics.FallbackDoc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Net() != nil || b.String() != tactics.FallbackDoc+"; tactical aids: "+tactics.Play.String() {
		t.Errorf("fallback bot: net %v, described as %q", b.Net(), b)
	}
	a, err := b.Search(context.Background(), Limits{Sims: 50})
	if err != nil {
		t.Fatal(err)
	}
	checkPlayers(t, a, 3)
	for p, e := range a.Players {
		if e.Draw != 0 || e.ScoreDiff != 0 {
			t.Errorf("player %d: draw %v and score %v without a net", p, e.Draw, e.ScoreDiff)
		}
	}
	if _, err := NewWithEvaluator(trichess.Game, nil, "", Options{}); err == nil {
		t.Error("a nil evaluator was accepted")
	}
}

// New with a nil net searches with Fallback, as NewWithEvaluator does.
func TestNewWithoutNet(t *testing.T) {
	b, err := New(trichess.Game, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Net() != nil || !strings.HasPrefix(b.String(), tactics.FallbackDoc) {
		t.Errorf("bot without a net: net %v, described as %q", b.Net(), b)
	}
}

// In a game of three, the bot's move and the two replies that follow are
// three plies; the subtree below them is kept all the same.
func TestTrichessTreeReuse(t *testing.T) {
	b, err := New(trichess.Game, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := b.Search(context.Background(), Limits{Sims: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.PVActions) < 3 {
		t.Fatalf("PV %v too short to test reuse", a.PV)
	}
	s := trichess.Game.Start()
	for _, act := range a.PVActions[:3] {
		s.Play(act)
	}
	if err := b.SetPosition(s); err != nil {
		t.Fatal(err)
	}
	// A fresh tree is its root alone; the kept one has the evaluated
	// node's children at least.
	if n := b.tree.Size(); n <= 1 || b.Position().String() != s.String() {
		t.Errorf("after three plies the tree holds %d nodes at %s; want the subtree of %s", n, b.Position(), s)
	}
}
