package trichess

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"trench/engine/trichess"
	"trench/nnue"
)

func mustParse(t testing.TB, fen string) trichess.Position {
	t.Helper()
	p, err := trichess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newSearcher(t testing.TB, a Algorithm) *Searcher {
	t.Helper()
	s, err := New(a, 16)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var algorithms = []Algorithm{BRS, Paranoid, MaxN}

// TestForcedWin checks that every algorithm with every evaluation finds,
// at small depth, a move that ends the game with the player to move
// seigneur: an échec et fat set up by hand (Wd1Wd4 checks both other
// kings), and checkmates in one found in random games.
func TestForcedWin(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		ending    trichess.Ending
	}{
		{"échec et fat", "3wR3wK/8/8/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10", trichess.EchecEtFat},
		{"White mates Red", "6wR1/wN2bN3wP/3rP1wPwKrB/wR1bB3wP1|3wQ1rR1rK/7rR/rP1wP5/1rP4bP1|8/2rN2bKbPbR/2rB2bN1bP/3bP4 w -,-,- 1 51", trichess.Checkmate},
		{"Red mates Black", "6wRwN/4wK2wR/2wN4rP/wPbPwP2wPwP1|8/3rKrQ2bN/2rNrN4/2wP2bP2|2bK5/rR4bB2/1rB2bP2bN/2bB1wP1wBbP r -,-,- 6 56", trichess.Checkmate},
		{"Black mates White", "wRwK1wB4/1wP4wP1/3bN4/2bB4wR|6wQ1/3rP4/2rQrBrP3/rP2rN3rK|8/6bR1/bBbP2bKbP2/rPrB5bP b -,-,- 5 61", trichess.Checkmate},
	} {
		for _, ev := range evaluations {
			for _, a := range algorithms {
				for _, depth := range []int{1, 2, 3} {
					p := mustParse(t, tc.fen)
					s := newSearcher(t, a)
					s.SetEvaluator(ev.make(t))
					r, err := s.Search(context.Background(), p, Limits{Depth: depth})
					if err != nil {
						t.Fatal(err)
					}
					child := p
					child.Play(r.Move)
					o := child.Outcome()
					title, ok := r.Title()
					if o.Ending != tc.ending || o.Titles[p.SideToMove()] != trichess.Seigneur || r.Forced() != 1 || !ok || title != trichess.Seigneur {
						t.Errorf("%s, %s, %v depth %d: %s (%v), score %d, forced %d", tc.name, ev.name, a, depth, r.Move, o, r.Score, r.Forced())
					}
					if r.Depth != 1 {
						t.Errorf("%s, %s, %v depth %d: went on to depth %d after a forced result", tc.name, ev.name, a, depth, r.Depth)
					}
				}
			}
		}
	}
}

// randomPositions returns positions of random games: n of them, every
// few plies.
func randomPositions(t testing.TB, n int, seed uint64) []trichess.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []trichess.Position
	for len(out) < n {
		p := trichess.StartPosition()
		for ply := 0; ply < 200 && len(out) < n; ply++ {
			moves := p.GenerateMoves(nil)
			if len(moves) == 0 {
				break
			}
			if ply%7 == 3 {
				out = append(out, p)
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// TestLegalMoves checks that every algorithm returns a legal move, and a
// principal variation of legal moves, in the positions of random games.
func TestLegalMoves(t *testing.T) {
	positions := randomPositions(t, 60, 1)
	for _, a := range algorithms {
		s := newSearcher(t, a)
		for _, p := range positions {
			r, err := s.Search(context.Background(), p, Limits{Depth: 3, Nodes: 4000})
			if err != nil {
				t.Fatalf("%v, %s: %v", a, p.FEN(), err)
			}
			if !p.IsLegal(r.Move) {
				t.Fatalf("%v, %s: illegal move %s", a, p.FEN(), r.Move)
			}
			if len(r.PV) == 0 || r.PV[0] != r.Move {
				t.Errorf("%v, %s: PV %v does not start with %s", a, p.FEN(), r.PV, r.Move)
			}
			q := p
			for i, m := range r.PV {
				if !q.IsLegal(m) {
					t.Errorf("%v, %s: PV move %d, %s, is illegal", a, p.FEN(), i, m)
					break
				}
				q.Play(m)
			}
			if sum := r.Leads[0] + r.Leads[1] + r.Leads[2]; a == MaxN && (sum < -2 || sum > 2) {
				t.Errorf("%v, %s: leads %v sum to %d", a, p.FEN(), r.Leads, sum)
			}
		}
	}
}

// TestDeterministic checks that a depth-limited search gives the same
// result twice from a fresh searcher, and that a searcher whose table
// holds an earlier search of the same position at the same depth finds
// the same move and score.
func TestDeterministic(t *testing.T) {
	for _, a := range algorithms {
		for _, fen := range BenchPositions {
			p := mustParse(t, fen)
			var res [2]Result
			for i := range res {
				var err error
				if res[i], err = newSearcher(t, a).Search(context.Background(), p, Limits{Depth: 3}); err != nil {
					t.Fatal(err)
				}
			}
			if res[0].Move != res[1].Move || res[0].Score != res[1].Score || res[0].Nodes != res[1].Nodes {
				t.Errorf("%v, %s: two searches differ: %s %d %d nodes, %s %d %d nodes", a, fen,
					res[0].Move, res[0].Score, res[0].Nodes, res[1].Move, res[1].Score, res[1].Nodes)
			}
			s := newSearcher(t, a)
			first, _ := s.Search(context.Background(), p, Limits{Depth: 3})
			again, err := s.Search(context.Background(), p, Limits{Depth: 3})
			if err != nil {
				t.Fatal(err)
			}
			if again.Move != first.Move || again.Score != first.Score {
				t.Errorf("%v, %s: with the table filled: %s %d, fresh: %s %d", a, fen, again.Move, again.Score, first.Move, first.Score)
			}
			if again.Nodes >= first.Nodes {
				t.Errorf("%v, %s: the table saved nothing: %d nodes, %d fresh", a, fen, again.Nodes, first.Nodes)
			}
		}
	}
}

// TestLimits checks the node and depth limits and refused limits.
func TestLimits(t *testing.T) {
	p := mustParse(t, BenchPositions[1])
	for _, a := range algorithms {
		for _, nodes := range []uint64{1500, 20_000} {
			r, err := newSearcher(t, a).Search(context.Background(), p, Limits{Nodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
			// The search checks its limits every 1024 nodes.
			if r.Nodes > nodes+1024 || !p.IsLegal(r.Move) {
				t.Errorf("%v, %d nodes: searched %d, move %s", a, nodes, r.Nodes, r.Move)
			}
		}
		r, err := newSearcher(t, a).Search(context.Background(), p, Limits{Depth: 2})
		if err != nil || r.Depth != 2 {
			t.Errorf("%v, depth 2: depth %d, err %v", a, r.Depth, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if r, err := newSearcher(t, a).Search(ctx, p, Limits{Depth: 30}); err == nil && !p.IsLegal(r.Move) {
			t.Errorf("%v, cancelled: move %s, err %v", a, r.Move, err)
		}
	}
	s := newSearcher(t, BRS)
	for _, l := range []Limits{{}, {Depth: -1}, {Depth: MaxDepth + 1}, {Time: -1}} {
		if _, err := s.Search(context.Background(), p, l); err == nil {
			t.Errorf("limits %+v accepted", l)
		}
	}
	over := mustParse(t, "3wR3wK/8/8/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10")
	over.Play(mustMove(t, &over, "Wd1Wd4"))
	if _, err := s.Search(context.Background(), over, Limits{Depth: 1}); err != ErrGameOver {
		t.Errorf("finished game: err %v, want ErrGameOver", err)
	}
	if _, err := New(BRS, 5); err == nil {
		t.Error("a table of 2^5 entries accepted")
	}
	if _, err := New(Algorithm(7), 16); err == nil {
		t.Error("algorithm 7 accepted")
	}
}

func mustMove(t *testing.T, p *trichess.Position, text string) trichess.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseAlgorithm(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Algorithm
		err  string
	}{
		{"", BRS, ""}, {"brs", BRS, ""}, {"paranoid", Paranoid, ""}, {"maxn", MaxN, ""},
		{"BRS", 0, `unknown search "BRS" (known: brs, paranoid, maxn)`},
		{"max^n", 0, `unknown search "max^n"`},
	} {
		a, err := ParseAlgorithm(tc.name)
		if tc.err == "" && (err != nil || a != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", tc.name, a, err)
		}
		if tc.err == "" && a.String() != strings.ToLower(cmpName(tc.name)) {
			t.Errorf("%v.String() = %q", a, a.String())
		}
	}
}

// cmpName is the name ParseAlgorithm("") stands for.
func cmpName(name string) string {
	if name == "" {
		return Default.String()
	}
	return name
}

// TestQuiesce checks the quiescence search against the evaluation: a
// quiet start is its own evaluation, and a free capture raises it.
func TestQuiesce(t *testing.T) {
	for _, a := range algorithms {
		s := newSearcher(t, a)
		p := trichess.StartPosition()
		if r := s.Quiesce(p); r.Score != Evaluate(&p).Lead(trichess.White) || r.Nodes != 1 {
			t.Errorf("%v, start: quiescence %d in %d nodes, evaluation %d", a, r.Score, r.Nodes, Evaluate(&p).Lead(trichess.White))
		}
		// White's rook on Wd1 can take Red's queen on Wd3 for free.
		q := mustParse(t, "3wR3wK/8/3rQ4/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10")
		if r := s.Quiesce(q); r.Score <= Evaluate(&q).Lead(trichess.White)+500 {
			t.Errorf("%v, a queen to take: quiescence %d, evaluation %d", a, r.Score, Evaluate(&q).Lead(trichess.White))
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	for _, a := range algorithms {
		for i, fen := range BenchPositions {
			p := mustParse(b, fen)
			b.Run(a.String()+[]string{"/start", "/middle"}[i], func(b *testing.B) {
				s := newSearcher(b, a)
				var nodes uint64
				for b.Loop() {
					s.Clear()
					r, err := s.Search(context.Background(), p, Limits{Nodes: 200_000})
					if err != nil {
						b.Fatal(err)
					}
					nodes += r.Nodes
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}

// BenchmarkSearchNNUE compares the nodes/s of each algorithm with the
// hand-written evaluation and with a net of 128 hidden units (random
// weights) from the same positions, searched to the same node limit: at
// a fixed depth a net of random weights prunes far worse.
func BenchmarkSearchNNUE(b *testing.B) {
	net, err := nnue.Trichess.New(128, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, a := range algorithms {
		for _, ev := range []struct {
			name string
			make func() (Evaluator, error)
		}{
			{"hand", func() (Evaluator, error) { return Hand{}, nil }},
			{"nnue128", func() (Evaluator, error) { return NewNNUE(net) }},
		} {
			b.Run(a.String()+"/"+ev.name, func(b *testing.B) {
				var nodes uint64
				var spent time.Duration
				for b.Loop() {
					e, err := ev.make()
					if err != nil {
						b.Fatal(err)
					}
					r, err := BenchWith(context.Background(), a, Limits{Nodes: 100_000}, e)
					if err != nil {
						b.Fatal(err)
					}
					nodes += r.Nodes
					spent += r.Elapsed
				}
				b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
			})
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	p := mustParse(b, BenchPositions[1])
	sum := 0
	for b.Loop() {
		sum += Evaluate(&p)[0]
	}
	_ = sum
}

// A position's seat leads: the mover's is the search's score, and each
// other seat keeps its lead by the evaluation less half of the search's
// correction of the mover's, so the two opponents stay apart as the
// evaluation sees them; max^n's are its own.
func TestSeatLeads(t *testing.T) {
	// White has lost a rook and Red a knight, so the evaluation tells
	// Red from Black.
	p, err := trichess.ParseFEN("wRwNwBwQwKwBwN1/wPwPwPwPwPwPwPwP/8/8|rR1rBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w Q,KQ,KQ 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Algorithm{BRS, Paranoid, MaxN} {
		s, err := New(a, 16)
		if err != nil {
			t.Fatal(err)
		}
		s.SetEvaluator(Material{})
		r, err := s.Search(context.Background(), p, Limits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		got := s.SeatLeads(&p, r)
		if a == MaxN {
			if got != r.Leads {
				t.Errorf("max^n: %v, want its leads %v", got, r.Leads)
			}
			continue
		}
		e := Material{}.Leads(0, &p)
		d := r.Score - e[trichess.White]
		want := Values{r.Score, e[trichess.Red] - d/2, e[trichess.Black] - d/2}
		if got != want || got[trichess.Red] == got[trichess.Black] {
			t.Errorf("%s: %v, want %v (evaluation %v, score %d)", a, got, want, e, r.Score)
		}
	}
}
