package bot

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/engine"
	"trench/engine/trench"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
	"trench/tactics"
)

// classicalSearcher is a fresh alphabeta searcher for the guard's tests.
func classicalSearcher(t *testing.T) plugin.ClassicalSearcher {
	t.Helper()
	c, err := games.Of(trench.Game).Classical.NewSearcher(16)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustState(t *testing.T, text string) engine.State {
	t.Helper()
	s, err := trench.Game.ParseState(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustAction(t *testing.T, s engine.State, move string) int {
	t.Helper()
	a, err := s.ParseAction(move)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestGuardValidate(t *testing.T) {
	c := classicalSearcher(t)
	for _, tt := range []struct {
		name string
		g    Guard
		want string // "" for valid
	}{
		{"valid", Guard{Searcher: c, Share: 0.1, Depth: 4}, ""},
		{"half the time", Guard{Searcher: c, Share: 0.5, Depth: 1}, ""},
		{"no searcher", Guard{Share: 0.1, Depth: 4}, "no classical searcher"},
		{"no share", Guard{Searcher: c, Depth: 4}, "share"},
		{"too big a share", Guard{Searcher: c, Share: 0.6, Depth: 4}, "share"},
		{"no depth", Guard{Searcher: c, Share: 0.1}, "depth"},
	} {
		err := tt.g.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Validate() = %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	if _, err := New(trench.Game, nil, Options{Guard: &Guard{Searcher: c, Depth: 4}}); err == nil {
		t.Error("New took a guard with no share of the time")
	}
}

// guardLosesByForce comes from one of the engine's losses to alphabeta at
// 200 ms a move: the tree chose d3c3, after which White reaches 25 points
// by force; d2g2 and a4a5 do not lose so.
const guardLosesByForce = "8/3g4/1k6/3spp2/PP2p3/K2P1p2/G2K4/8 b 22 22 0 38"

// treeResult is a search result at s in which the tree chose the first of
// moves and visited the others, fewer times in order.
func treeResult(t *testing.T, s engine.State, moves ...string) *mcts.Result {
	t.Helper()
	r := &mcts.Result{}
	for _, a := range s.LegalActions(nil) {
		r.Actions = append(r.Actions, mcts.ActionStats{Action: a})
	}
	for i, m := range moves {
		a := mustAction(t, s, m)
		for j := range r.Actions {
			if r.Actions[j].Action == a {
				r.Actions[j].Visits = 100 - 10*i
			}
		}
	}
	r.Action = mustAction(t, s, moves[0])
	r.PV = []int{r.Action}
	return r
}

func TestGuardReview(t *testing.T) {
	ago := func(d time.Duration) time.Time { return time.Now().Add(-d) }
	for _, tt := range []struct {
		name   string
		limits Limits
		start  time.Duration // how long ago the search began
		moves  []string      // the tree's move, then the other visited moves
		want   string        // the move played
		note   string        // part of the note, "" for none
	}{
		{"lost move replaced", Limits{Sims: 100}, 0, []string{"d3c3", "d2g2", "a4a5"}, "d2g2", "forced loss after d3c3; played d2g2"},
		{"replaced by a less visited move", Limits{Sims: 100}, 0, []string{"d3c3", "a4a5"}, "a4a5", "played a4a5"},
		{"safe move kept", Limits{Sims: 100}, 0, []string{"d2g2", "d3c3"}, "d2g2", ""},
		{"nothing to replace it with", Limits{Sims: 100}, 0, []string{"d3c3"}, "d3c3", ""},
		{"within a time limit", Limits{Time: 4 * time.Second}, 3600 * time.Millisecond, []string{"d3c3", "d2g2"}, "d2g2", "forced loss after d3c3"},
		{"no time left", Limits{Time: 100 * time.Millisecond}, 200 * time.Millisecond, []string{"d3c3", "d2g2"}, "d3c3", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := mustState(t, guardLosesByForce)
			g := &Guard{Searcher: classicalSearcher(t), Name: "alphabeta", Share: 0.1, Depth: 4}
			r := treeResult(t, s, tt.moves...)
			start := ago(tt.start)
			note, err := g.review(context.Background(), s, tt.limits, start, r)
			if err != nil {
				t.Fatal(err)
			}
			if played := s.ActionString(r.Action); played != tt.want || len(r.PV) == 0 || r.PV[0] != r.Action {
				t.Errorf("played %s (PV %v), want %s", played, r.PV, tt.want)
			}
			// A replaced move comes with the line the classical search
			// found after it; a move left alone keeps the tree's line.
			if replaced := tt.note != ""; replaced != (len(r.PV) > 1) {
				t.Errorf("main line %v after %q, want the move alone only when it was not replaced", r.PV, note)
			}
			line := s.Clone()
			for i, a := range r.PV {
				if !slices.Contains(line.LegalActions(nil), a) {
					t.Fatalf("main line %v: move %d is not legal", r.PV, i)
				}
				line.Play(a)
			}
			if (note == "") != (tt.note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("note %q, want one with %q", note, tt.note)
			}
		})
	}
}

// lostAfter reports whether the classical search finds, searching depth
// plies, that the player to move in s loses by force after action.
func lostAfter(t *testing.T, s engine.State, action, depth int) bool {
	t.Helper()
	after := s.Clone()
	after.Play(action)
	if after.Over() {
		return false
	}
	r, err := classicalSearcher(t).Search(context.Background(), after, plugin.ClassicalLimits{Depth: depth})
	if err != nil {
		t.Fatal(err)
	}
	return r.Forced > 0
}

func TestGuardedBotSearch(t *testing.T) {
	s := mustState(t, guardLosesByForce)
	bad, good := mustAction(t, s, "d3c3"), mustAction(t, s, "d2g2")
	noAids := tactics.Settings{}
	for _, lim := range []Limits{{Sims: 30}, {Time: 150 * time.Millisecond}} {
		for _, guarded := range []bool{false, true} {
			opts := Options{Tactics: &noAids}
			if guarded {
				opts.Guard = &Guard{Searcher: classicalSearcher(t), Name: "alphabeta", Share: 0.2, Depth: 3}
			}
			b, err := NewWithEvaluator(trench.Game, mcts.PriorEvaluator{bad: 0.7, good: 0.3}, "favours d3c3", opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), "guard: alphabeta, 0.2 of the time or depth 3"); got != guarded {
				t.Errorf("String() = %q", b.String())
			}
			if err := b.SetPosition(s); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			a, err := b.Search(context.Background(), lim)
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			want := "d3c3"
			if guarded {
				want = "d2g2"
			}
			if lim.Time > 0 {
				// In the time given the tree finds lost moves itself; what
				// it plays must not lose by force when guarded (unless a
				// loaded machine left the guard no time to check).
				if guarded && lostAfter(t, s, a.Action, 3) && took < lim.Time {
					t.Errorf("%v, guarded: played %s, which loses by force (guard %q)", lim, a.Move, a.Guard)
				}
				continue
			}
			if a.Move != want || a.PV[0] != want || (a.Guard != "") != guarded {
				t.Errorf("%v, guarded %v: played %s (PV %v, guard %q), want %s", lim, guarded, a.Move, a.PV, a.Guard, want)
			}
			var r mcts.Result
			b.NewGame()
			if err := b.SetPosition(s); err != nil {
				t.Fatal(err)
			}
			if err := b.Choose(context.Background(), lim, &r); err != nil || s.ActionString(r.Action) != want {
				t.Errorf("%v, guarded %v: Choose played %s, %v; want %s", lim, guarded, s.ActionString(r.Action), err, want)
			}
		}
	}
}
