package bot

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/nn"
	"trench/tactics"
)

// tinyTrichessNet is a freshly initialised tiny Trichess net with one
// value per seat, as trench train --game trichess makes.
func tinyTrichessNet(t testing.TB) *Net {
	t.Helper()
	c, err := nn.PresetFor("tiny", trichess.Game)
	if err != nil {
		t.Fatal(err)
	}
	c.Seats = trichess.Game.Players()
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	inf, err := nn.NewInference(w)
	if err != nil {
		t.Fatal(err)
	}
	return &Net{Inference: inf, Source: "tiny trichess test net"}
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
// Trichess with a value for each seat, and a game without a built-in net
// (tic-tac-toe) gets ErrNoDefaultNet naming the game.
func TestTrichessDefaultNet(t *testing.T) {
	for _, ref := range []string{"", DefaultNet} {
		n, err := LoadNet(trichess.Game, ref)
		if err != nil {
			t.Fatalf("LoadNet(trichess, %q): %v", ref, err)
		}
		if n.Weights.Config.Seats != 3 {
			t.Errorf("LoadNet(trichess, %q): %d seats, want 3", ref, n.Weights.Config.Seats)
		}
		if _, err := New(trichess.Game, n, Options{}); err != nil {
			t.Errorf("a bot with the built-in Trichess net: %v", err)
		}
		if _, err := New(trench.Game, n, Options{}); err == nil {
			t.Error("the Trichess net was accepted for Trench")
		}
	}
	if _, err := LoadNet(tictactoe.Game{}, DefaultNet); !errors.Is(err, ErrNoDefaultNet) || !strings.Contains(err.Error(), "tictactoe") {
		t.Errorf("LoadNet(tictactoe, default) = %v, want ErrNoDefaultNet naming the game", err)
	}
	if _, err := New(trichess.Game, tinyNet(t), Options{}); err == nil {
		t.Error("a Trench net was accepted for Trichess")
	}
}

func TestFallbackValues(t *testing.T) {
	// White without its queen: behind by 9 points, each other player
	// ahead by 4.5.
	fen := strings.Replace(trichess.StartFEN, "wRwNwBwQwKwBwNwR", "wRwNwB1wKwBwNwR", 1)
	s, err := trichess.Game.ParseState(fen)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]mcts.Evaluation, 2)
	if err := (Fallback{}).Evaluate([]engine.State{s, trichess.Game.Start()}, out); err != nil {
		t.Fatal(err)
	}
	want := []float32{float32(math.Tanh(-9.0 / tactics.MaterialScale)), float32(math.Tanh(4.5 / tactics.MaterialScale)), float32(math.Tanh(4.5 / tactics.MaterialScale))}
	for p, v := range out[0].Values {
		if math.Abs(float64(v-want[p])) > 1e-6 {
			t.Errorf("player %d's value %v, want %v", p, v, want[p])
		}
	}
	for p, v := range out[1].Values {
		if v != 0 {
			t.Errorf("start: player %d's value %v, want 0", p, v)
		}
	}
	n := len(s.LegalActions(nil))
	var sum float32
	for _, pr := range out[0].Policy {
		sum += pr
	}
	if len(out[0].Policy) != n || math.Abs(float64(sum-1)) > 1e-5 {
		t.Errorf("%d priors summing to %v for %d moves", len(out[0].Policy), sum, n)
	}
	// Captures come first: in a random game's first position with a
	// capture, every capture's prior is above every other move's.
	rng := rand.New(rand.NewPCG(11, 12))
	cur := trichess.Game.Start().(*trichess.State)
	for ply := 0; ; ply++ {
		if ply == 500 || cur.Over() {
			t.Fatal("no capture in a random game")
		}
		var caps, quiet []int
		acts := cur.LegalActions(nil)
		for i, a := range acts {
			m, _ := cur.ActionToMove(a)
			if _, _, took := cur.PieceAt(m.To()); took {
				caps = append(caps, i)
			} else {
				quiet = append(quiet, i)
			}
		}
		if len(caps) == 0 {
			cur.Play(acts[rng.IntN(len(acts))])
			continue
		}
		ev := make([]mcts.Evaluation, 1)
		if err := (Fallback{}).Evaluate([]engine.State{cur}, ev); err != nil {
			t.Fatal(err)
		}
		for _, c := range caps {
			for _, q := range quiet {
				if ev[0].Policy[c] <= ev[0].Policy[q] {
					t.Errorf("capture %s's prior %v is not above %s's %v", cur.ActionString(acts[c]), ev[0].Policy[c], cur.ActionString(acts[q]), ev[0].Policy[q])
				}
			}
		}
		break
	}
	// Games without material get zero values.
	tr := make([]mcts.Evaluation, 1)
	if err := (Fallback{}).Evaluate([]engine.State{trench.Game.Start()}, tr); err != nil {
		t.Fatal(err)
	}
	if len(tr[0].Values) != 2 || tr[0].Values[0] != 0 || tr[0].Values[1] != 0 {
		t.Errorf("Trench values %v, want zeros", tr[0].Values)
	}
}

func TestFallbackBot(t *testing.T) {
	b, err := NewWithEvaluator(trichess.Game, Fallback{}, FallbackDoc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Net() != nil || b.String() != FallbackDoc+"; tactical aids: "+tactics.Play.String() {
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
	if b.Net() != nil || !strings.HasPrefix(b.String(), FallbackDoc) {
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
