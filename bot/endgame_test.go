package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
	"trench/tactics"
)

func TestEndgameValidate(t *testing.T) {
	cl := games.Of(trench.Game).Classical
	for _, tt := range []struct {
		name string
		e    Endgame
		want string // "" for valid
	}{
		{"valid", Endgame{Classical: cl, Points: 15, Depth: 5}, ""},
		{"a fraction of a point", Endgame{Classical: cl, Points: 0.5, Depth: 1}, ""},
		{"no classical search", Endgame{Points: 15, Depth: 5}, "no classical search"},
		{"no points", Endgame{Classical: cl, Depth: 5}, "score"},
		{"negative points", Endgame{Classical: cl, Points: -1, Depth: 5}, "score"},
		{"no depth", Endgame{Classical: cl, Points: 15}, "depth"},
	} {
		err := tt.e.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Validate() = %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	if _, err := New(trench.Game, nil, Options{Endgame: &Endgame{Classical: cl, Depth: 5}}); err == nil {
		t.Error("New took an endgame from 0 points")
	}
	if _, err := NewEndgame(tictactoe.Game{}, 15, 5); err == nil || !strings.Contains(err.Error(), "no classical search") {
		t.Errorf("NewEndgame(tictactoe) = %v, want an error saying it has no classical search", err)
	}
}

func TestEndgameReached(t *testing.T) {
	e, err := NewEndgame(trench.Game, 15, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		position string
		want     bool
	}{
		{trench.Game.Start().String(), false},
		{"8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 14 14 0 38", false},
		{"8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 15 0 0 38", true},
		{"8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 w 3 16 0 38", true},
		{guardLosesByForce, true},
	} {
		if got := e.reached(mustState(t, tt.position)); got != tt.want {
			t.Errorf("reached(%s) = %v, want %v", tt.position, got, tt.want)
		}
	}
}

// In guardLosesByForce (22 points each) a bot whose priors favour d3c3,
// which loses by force, plays the classical search's move once the
// endgame has begun, and the tree's move before it (d3c3 in 30
// simulations), under a limit of simulations (the classical search
// searching to the endgame's depth) and of time, through Search and
// Choose.
func TestEndgameBotSearch(t *testing.T) {
	s := mustState(t, guardLosesByForce)
	bad, good := mustAction(t, s, "d3c3"), mustAction(t, s, "d2g2")
	noAids := tactics.Settings{}
	const depth = 4
	// The endgame's own table size: the same search, the same main line.
	cs, err := games.Of(trench.Game).Classical.NewSearcher(EndgameTableBits)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := cs.Search(context.Background(), s, plugin.ClassicalLimits{Depth: depth})
	if err != nil {
		t.Fatal(err)
	}
	if direct.Action == bad {
		t.Fatalf("alphabeta at depth %d plays d3c3, which loses by force", depth)
	}
	for _, points := range []float64{15, 23} {
		for _, lim := range []Limits{{Sims: 30}, {Time: 500 * time.Millisecond}} {
			e, err := NewEndgame(trench.Game, points, depth)
			if err != nil {
				t.Fatal(err)
			}
			b, err := NewWithEvaluator(trench.Game, mcts.PriorEvaluator{bad: 0.9, good: 0.1}, "favours d3c3", Options{Tactics: &noAids, Endgame: e})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "endgame: alphabeta from") {
				t.Errorf("String() = %q, want the endgame named", b.String())
			}
			if err := b.SetPosition(s); err != nil {
				t.Fatal(err)
			}
			a, err := b.Search(context.Background(), lim)
			if err != nil {
				t.Fatal(err)
			}
			classical := points <= 22
			if classical {
				if a.Move == "d3c3" || a.Endgame == "" || !strings.Contains(a.Endgame, "alphabeta chose "+a.Move) || a.Sims > 1 || a.PV[0] != a.Move {
					t.Errorf("from %g points, %v: played %s with %d simulations (PV %v, endgame %q); want alphabeta's move, at most the root's first simulation", points, lim, a.Move, a.Sims, a.PV, a.Endgame)
				}
				if lim.Sims > 0 && (a.Action != direct.Action || !slices.Equal(a.PVActions, direct.PV)) {
					t.Errorf("from %g points, %v: played %s, main line %v; alphabeta at depth %d plays %s, main line %v", points, lim, a.Move, a.PVActions, depth, s.ActionString(direct.Action), direct.PV)
				}
				if len(a.Moves) == 0 || a.Visits < 1 {
					t.Errorf("from %g points, %v: no root statistics (%d moves, %d visits)", points, lim, len(a.Moves), a.Visits)
				}
			} else if (lim.Sims > 0 && a.Move != "d3c3") || a.Endgame != "" || a.Sims == 0 {
				// Given time, the tree may find d3c3 lost itself.
				t.Errorf("from %g points, %v: played %s with %d simulations (endgame %q); want the tree's move (d3c3 in 30 simulations)", points, lim, a.Move, a.Sims, a.Endgame)
			}
			var r mcts.Result
			b.NewGame()
			if err := b.SetPosition(s); err != nil {
				t.Fatal(err)
			}
			if err := b.Choose(context.Background(), lim, &r); err != nil || (classical && r.Action == bad) || (!classical && lim.Sims > 0 && r.Action != bad) {
				t.Errorf("from %g points, %v: Choose played %s, %v", points, lim, s.ActionString(r.Action), err)
			}
			// The game goes on from the endgame's move: the tree follows it.
			if err := b.Play(r.Action); err != nil {
				t.Fatal(err)
			}
			if !b.Position().Over() {
				if _, err := b.Search(context.Background(), Limits{Sims: 10}); err != nil {
					t.Errorf("from %g points, %v: searching after the move: %v", points, lim, err)
				}
			}
		}
	}
}

// A stopped context stops the endgame's search: before the root was ever
// evaluated the search returns the context's error; after, a legal move
// marked stopped: the classical search's, if it finished a depth before it
// saw the context stopped (its table is warm from the first search), else
// the tree's.
func TestEndgameStopped(t *testing.T) {
	s := mustState(t, guardLosesByForce)
	e, err := NewEndgame(trench.Game, 15, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewWithEvaluator(trench.Game, mcts.UniformEvaluator{}, "uniform", Options{Endgame: e})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetPosition(s); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Search(ctx, Limits{Time: time.Second}); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped before the root's evaluation: %v, want %v", err, context.Canceled)
	}
	if _, err := b.Search(context.Background(), Limits{Sims: 1}); err != nil {
		t.Fatal(err)
	}
	a, err := b.Search(ctx, Limits{Time: time.Second})
	if err != nil || !a.Stopped || !slices.Contains(s.LegalActions(nil), a.Action) || (a.Endgame != "" && !strings.Contains(a.Endgame, "alphabeta chose "+a.Move)) {
		t.Errorf("stopped after the root's evaluation: %+v, %v; want a legal move, stopped, and alphabeta's note naming it if any", a, err)
	}
}
