package mcts_test

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
)

// The tactics tests build Trench positions with one tactical point each,
// prove the point by exhaustive minimax over the engine contract, and then
// check that PUCT and Gumbel, guided only by UniformEvaluator (equal priors,
// value 0), find it in 800 simulations: everything they know comes from
// the game's results at the leaves of their trees.

// tacticSims is the search budget of every tactics test.
const tacticSims = 800

// outcome is the minimax value of s for the player to move, searching depth
// plies: +1 or -1 only when proven by results within the horizon, 0 for a
// draw or when the horizon hides the result. Two players only.
func outcome(s engine.State, depth int) float32 {
	if s.Over() {
		return s.Result(nil)[s.ToMove()]
	}
	if depth == 0 {
		return 0
	}
	best := float32(-1)
	for _, a := range s.LegalActions(nil) {
		if best = max(best, valueAfter(s, a, depth-1)); best == 1 {
			break
		}
	}
	return best
}

// valueAfter is the proven value, for the player to move in s, of playing
// a, searching depth plies after it (see outcome).
func valueAfter(s engine.State, a, depth int) float32 {
	me := s.ToMove()
	c := s.Clone()
	c.Play(a)
	if c.Over() {
		return c.Result(nil)[me]
	}
	v := outcome(c, depth)
	if c.ToMove() != me {
		v = -v
	}
	return v
}

// gain is the number of points the mover scores by playing a in s.
func gain(s engine.State, a int) int {
	me := s.ToMove()
	before := s.Scores(nil)[me]
	c := s.Clone()
	c.Play(a)
	return int(c.Scores(nil)[me] - before)
}

// pieceMove returns the Trench move of action a in s and the enemy pieces
// it captures.
func pieceMove(t *testing.T, s engine.State, a int) (trench.Move, int) {
	t.Helper()
	ts := s.(*trench.State)
	m, ok := trench.ActionToMove(a, ts.SideToMove())
	if !ok {
		t.Fatalf("action %d is not a move", a)
	}
	return m, bits.OnesCount64(ts.Captured(m))
}

// inTrench reports whether sq is on the trench, the a8–h1 diagonal.
func inTrench(sq trench.Square) bool { return sq.File()+sq.Rank() == 7 }

// inTerritory reports whether sq is in colour c's own territory.
func inTerritory(sq trench.Square, c trench.Color) bool {
	if c == trench.Black {
		return sq.File()+sq.Rank() < 7
	}
	return sq.File()+sq.Rank() > 7
}

// greediest returns the legal capture of s that scores the most points with
// a single piece taken, and its gain.
func greediest(t *testing.T, s engine.State) (int, int) {
	t.Helper()
	best, most := -1, 0
	for _, a := range s.LegalActions(nil) {
		if _, n := pieceMove(t, s, a); n == 1 && gain(s, a) > most {
			best, most = a, gain(s, a)
		}
	}
	if best < 0 {
		t.Fatal("no single-piece capture in the position")
	}
	return best, most
}

// names lists the notation of actions, sorted.
func names(s engine.State, actions []int) []string {
	var out []string
	for _, a := range actions {
		out = append(out, s.ActionString(a))
	}
	slices.Sort(out)
	return out
}

// filter returns the legal actions of s that keep satisfies.
func filter(s engine.State, keep func(a int) bool) []int {
	var out []int
	for _, a := range s.LegalActions(nil) {
		if keep(a) {
			out = append(out, a)
		}
	}
	return out
}

// action parses a move in s or fails the test.
func action(t *testing.T, s engine.State, text string) int {
	t.Helper()
	a, err := s.ParseAction(text)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// tactic is a position built around one tactical point. prove checks by
// minimax that the position has it and returns the moves a search may
// choose: those that get the point right.
type tactic struct {
	name, fen string
	prove     func(t *testing.T, s engine.State) (good []int)
	// refuted, if set, is a losing move whose refutation the search
	// must have met: a negative Q, which with a uniform evaluator can
	// only come from lost games in its subtree.
	refuted string
	// wins says that the mover wins by force within the search's reach,
	// so that the solver proves the root won.
	wins bool
}

var tactics = []tactic{
	{
		// Black's General in the trench on d5 sweeps e5, f5 and g5 (1 + 2 +
		// 3 points) by full reach: 19 + 6 = 25. The most valuable single
		// piece, the Colonel on d7, only takes the score to 23.
		name: "full-reach capture to 25",
		fen:  "7g/3c4/8/3Gpsk1/8/8/1S6/8 b 19 10 0 30",
		prove: func(t *testing.T, s engine.State) []int {
			wins := filter(s, func(a int) bool { return valueAfter(s, a, 0) == 1 })
			if len(wins) == 0 {
				t.Fatal("no move wins at once")
			}
			for _, a := range wins {
				m, n := pieceMove(t, s, a)
				if !inTrench(m.From()) || n < 2 {
					t.Errorf("%s wins without a full-reach capture from the trench (%d pieces)", m, n)
				}
				if got := s.Scores(nil)[0] + float32(gain(s, a)); got < trench.WinScore {
					t.Errorf("%s wins with a score of %g", m, got)
				}
			}
			if g, _ := greediest(t, s); slices.Contains(wins, g) {
				t.Errorf("the greedy single capture %s wins too", s.ActionString(g))
			}
			if n := len(s.LegalActions(nil)); 4*len(wins) > n {
				t.Errorf("%d of %d moves win: too easy to stumble on", len(wins), n)
			}
			return wins
		},
		wins: true,
	},
	{
		// White (20) threatens g1xh1, the General in the trench, from
		// behind, for 25. Black (22) can take the Sergeant on a8 from behind
		// with b8xa8 for 24, and then loses the General. f1xg1 takes only
		// the Soldier, and White's last piece, the Sergeant walled in on
		// a8, must come down the a-file, where the Soldiers on a6 and b6
		// take it: 23 + 2 = 25.
		name: "single capture wins, greedy capture loses",
		fen:  "sP6/1P6/PP6/8/8/8/8/5PpG b 22 20 0 30",
		prove: func(t *testing.T, s engine.State) []int {
			key := action(t, s, "f1g1")
			greedy, most := greediest(t, s)
			if gain(s, key) >= most {
				t.Errorf("%s gains %d, not less than the greedy %s (%d)", s.ActionString(key), gain(s, key), s.ActionString(greedy), most)
			}
			if _, n := pieceMove(t, s, key); n != 1 {
				t.Errorf("%s captures %d pieces, want 1", s.ActionString(key), n)
			}
			if v := valueAfter(s, greedy, 1); v != -1 {
				t.Errorf("greedy %s: value %g after 2 plies, want a proven loss", s.ActionString(greedy), v)
			}
			if wins := filter(s, func(a int) bool { return valueAfter(s, a, 0) == 1 }); len(wins) > 0 {
				t.Errorf("%v win at once", names(s, wins))
			}
			wins := filter(s, func(a int) bool { return valueAfter(s, a, 2) == 1 })
			if !slices.Contains(wins, key) {
				t.Errorf("%s does not win within 3 plies; winning moves %v", s.ActionString(key), names(s, wins))
			}
			return wins
		},
		wins: true,
	},
	{
		// Black's General on h1 is in the trench, so White can take it only
		// from behind, from Black's territory. The Sergeant on f1 is there,
		// held off by Black's Sergeant on g1. g1xg3 takes the Colonel, the
		// richest capture on the board, and opens the rank: f1xh1 takes
		// the General and White reaches 25. g1xf1 takes the attacker.
		name: "keeps the General covered from behind",
		fen:  "8/8/8/8/8/6c1/8/5sSG b 20 20 0 30",
		prove: func(t *testing.T, s engine.State) []int {
			key := action(t, s, "g1g3")
			if greedy, _ := greediest(t, s); greedy != key {
				t.Errorf("the greedy capture is %s, want %s", s.ActionString(greedy), s.ActionString(key))
			}
			general := trench.Square(bits.TrailingZeros64(s.(*trench.State).Pieces(trench.Black, trench.General)))
			if !inTrench(general) {
				t.Fatalf("Black's General on %s is not in the trench", general)
			}
			after := s.Clone()
			after.Play(key)
			refuted := false
			for _, r := range after.LegalActions(nil) {
				m, _ := pieceMove(t, after, r)
				if m.To() == general && inTerritory(m.From(), trench.Black) && valueAfter(after, r, 0) == 1 {
					refuted = true
				}
			}
			if !refuted {
				t.Errorf("after %s White cannot take the General from behind and win", s.ActionString(key))
			}
			safe := filter(s, func(a int) bool { return valueAfter(s, a, 1) != -1 })
			if slices.Contains(safe, key) || len(safe) == 0 {
				t.Errorf("moves that do not lose at once: %v", names(s, safe))
			}
			return safe
		},
		refuted: "g1g3",
	},
}

// searchTactic searches s with p and the uniform evaluator and returns the
// result.
func searchTactic(t *testing.T, s engine.State, p mcts.Params) *mcts.Result {
	t.Helper()
	tree, err := mcts.NewTree(s, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Search(context.Background(), mcts.UniformEvaluator{}, tacticSims, 1); err != nil {
		t.Fatal(err)
	}
	var r mcts.Result
	if err := tree.Result(&r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// describe lists the most visited root actions with their visits and Q.
func describe(s engine.State, r *mcts.Result, show []int) string {
	stats := slices.Clone(r.Actions)
	sort.SliceStable(stats, func(i, j int) bool { return stats[i].Visits > stats[j].Visits })
	out := ""
	for i, a := range stats {
		if i < 8 || slices.Contains(show, a.Action) {
			out += fmt.Sprintf(" %s:%d/%.2f", s.ActionString(a.Action), a.Visits, a.Q)
		}
	}
	return out
}

func TestTactics(t *testing.T) {
	for _, tc := range tactics {
		t.Run(tc.name, func(t *testing.T) {
			s, err := trench.Game.ParseState(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			good := tc.prove(t, s)
			if t.Failed() {
				t.FailNow()
			}
			legal := len(s.LegalActions(nil))
			t.Logf("%d legal moves, good: %v", legal, names(s, good))
			show := good
			if tc.refuted != "" {
				show = append(slices.Clone(good), action(t, s, tc.refuted))
			}
			// PUCT without noise or temperature ignores the seed; Gumbel
			// draws its noise from it.
			for _, run := range []struct {
				algo   mcts.Algorithm
				solver bool
				seeds  uint64
			}{{mcts.PUCT, false, 1}, {mcts.PUCT, true, 1}, {mcts.Gumbel, false, 5}} {
				algo := run.algo
				for seed := uint64(1); seed <= run.seeds; seed++ {
					p := mcts.DefaultParams()
					p.Algorithm = algo
					p.Solver = run.solver
					p.Seed = seed
					// With equal priors Gumbel-top-k draws a uniformly
					// random subset of GumbelConsidered root moves, and a
					// move outside it is never searched: with the default
					// 16 and the 14 to 35 moves here, the key move would
					// be left out in up to half the draws. Considering
					// every move makes the test about the search, not the
					// draw; sequential halving then still gives each move
					// 6 to 14 visits in its first round.
					p.GumbelConsidered = legal
					r := searchTactic(t, s, p)
					t.Logf("%s solver %v seed %d: chose %s;%s", algo, run.solver, seed, s.ActionString(r.Action), describe(s, r, show))
					if tc.refuted != "" {
						bad := action(t, s, tc.refuted)
						for _, a := range r.Actions {
							if a.Action == bad && a.Q > -0.25 {
								t.Errorf("%s seed %d: %s has Q %.2f after %d visits; the search did not see it lose",
									algo, seed, tc.refuted, a.Q, a.Visits)
							}
							// Its refutation wins at once: a solving
							// tree proves it lost.
							if a.Action == bad && run.solver && (!a.Proven || a.Q != -1) {
								t.Errorf("solver: %s is proven %v with Q %.2f, want proven lost", tc.refuted, a.Proven, a.Q)
							}
						}
					}
					if run.solver && tc.wins && (!r.Proven || r.Value[s.ToMove()] != 1) {
						t.Errorf("solver: the root is proven %v with value %v, want proven won", r.Proven, r.Value)
					}
					if !slices.Contains(good, r.Action) {
						t.Errorf("%s seed %d chose %s, want one of %v; most visited:%s",
							algo, seed, s.ActionString(r.Action), names(s, good), describe(s, r, show))
					}
				}
			}
		})
	}
}
