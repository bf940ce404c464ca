package trichess

import (
	"context"
	"fmt"
	"testing"

	"trench/engine/trichess"
	"trench/nnue"
)

// mustNNUE is an NNUE evaluator with a net of random weights.
func mustNNUE(t testing.TB, hidden int, seed uint64) Evaluator {
	t.Helper()
	net, err := nnue.Trichess.New(hidden, seed)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewNNUE(net)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// evaluations make a fresh evaluator of each kind, for one searcher.
var evaluations = []struct {
	name string
	make func(t testing.TB) Evaluator
}{
	{"hand", func(testing.TB) Evaluator { return Hand{} }},
	{"material", func(testing.TB) Evaluator { return Material{} }},
	{"nnue", func(t testing.TB) Evaluator { return mustNNUE(t, 32, 1) }},
}

// pathEval wraps an evaluator and checks that the search keeps it told
// of the path: every Push from the path's position at its ply, every
// Leads of the path's position at its ply. check, if set, is called on
// every Leads with the leads inner gave.
type pathEval struct {
	t      *testing.T
	inner  Evaluator
	path   []trichess.Position
	pushes int
	leaves int
	check  func(p *trichess.Position, leads Values)
}

func (e *pathEval) SetRoot(p *trichess.Position) {
	e.path = append(e.path[:0], *p)
	e.inner.SetRoot(p)
}

func (e *pathEval) Push(ply int, parent, child *trichess.Position, m trichess.Move) {
	if ply >= len(e.path) || *parent != e.path[ply] {
		e.t.Fatalf("Push at ply %d from a position that is not the path's", ply)
	}
	if !parent.IsLegal(m) {
		e.t.Fatalf("Push at ply %d of an illegal move %v", ply, m)
	}
	want := *parent
	want.Play(m)
	if want != *child {
		e.t.Fatalf("Push at ply %d: the child is not the parent after %v", ply, m)
	}
	e.path = append(e.path[:ply+1], *child)
	e.pushes++
	e.inner.Push(ply, parent, child, m)
}

func (e *pathEval) Leads(ply int, p *trichess.Position) Values {
	if ply >= len(e.path) || e.path[ply] != *p {
		e.t.Fatalf("Leads at ply %d of a position that is not the path's", ply)
	}
	e.leaves++
	l := e.inner.Leads(ply, p)
	if e.check != nil {
		e.check(p, l)
	}
	return l
}

// TestEvaluatorSeesThePath searches through an evaluator that checks the
// path with every algorithm (BRS's layers of two moves included):
// through the hand evaluation it finds what the built-in one finds in as
// many nodes.
func TestEvaluatorSeesThePath(t *testing.T) {
	for _, a := range algorithms {
		for _, fen := range BenchPositions {
			p := mustParse(t, fen)
			pe := &pathEval{t: t, inner: Hand{}}
			s := newSearcher(t, a)
			s.SetEvaluator(pe)
			limits := Limits{Depth: 3, Nodes: 20_000}
			got, err := s.Search(context.Background(), p, limits)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := newSearcher(t, a).Search(context.Background(), p, limits)
			if got.Move != want.Move || got.Score != want.Score || got.Nodes != want.Nodes {
				t.Errorf("%v, %s: through the interface %v %d %d nodes; built in %v %d %d nodes",
					a, fen, got.Move, got.Score, got.Nodes, want.Move, want.Score, want.Nodes)
			}
			if pe.pushes == 0 || pe.leaves == 0 {
				t.Errorf("%v, %s: %d pushes, %d leaves", a, fen, pe.pushes, pe.leaves)
			}
			pe.leaves = 0
			s.Quiesce(p)
			if pe.leaves == 0 {
				t.Errorf("%v, %s: the quiescence search evaluated nothing", a, fen)
			}
		}
	}
}

// TestNNUEIncrementalInSearch checks the net's leads at the leaves of
// every algorithm's search against a fresh evaluation of the leaf.
func TestNNUEIncrementalInSearch(t *testing.T) {
	fresh := mustNNUE(t, 32, 7)
	for _, a := range algorithms {
		for _, fen := range BenchPositions {
			checked := 0
			pe := &pathEval{t: t, inner: mustNNUE(t, 32, 7), check: func(p *trichess.Position, got Values) {
				fresh.SetRoot(p)
				want := fresh.Leads(0, p)
				for c := range got {
					// Float sums in another order differ in the last bits.
					if d := got[c] - want[c]; d < -1 || d > 1 {
						t.Fatalf("%v, %s: the leaf %s's leads %v, fresh %v", a, fen, p.FEN(), got, want)
					}
				}
				checked++
			}}
			s := newSearcher(t, a)
			s.SetEvaluator(pe)
			if _, err := s.Search(context.Background(), mustParse(t, fen), Limits{Depth: 3, Nodes: 20_000}); err != nil {
				t.Fatal(err)
			}
			if checked == 0 {
				t.Errorf("%v, %s: no leaf checked", a, fen)
			}
		}
	}
}

// TestEvaluationsSearch searches random games' positions with every
// evaluation and algorithm: each returns a legal move.
func TestEvaluationsSearch(t *testing.T) {
	positions := randomPositions(t, 12, 3)
	for _, ev := range evaluations {
		for _, a := range algorithms {
			s := newSearcher(t, a)
			s.SetEvaluator(ev.make(t))
			for _, p := range positions {
				r, err := s.Search(context.Background(), p, Limits{Depth: 3, Nodes: 3000})
				if err != nil {
					t.Fatalf("%s, %v, %s: %v", ev.name, a, p.FEN(), err)
				}
				if !p.IsLegal(r.Move) {
					t.Fatalf("%s, %v, %s: illegal move %s", ev.name, a, p.FEN(), r.Move)
				}
				if q := s.Quiesce(p); forced(q.Score) == 0 && (q.Score < -evalBound || q.Score > evalBound) {
					t.Errorf("%s, %v, %s: quiescence %d beyond the evaluation's bound", ev.name, a, p.FEN(), q.Score)
				}
			}
		}
	}
}

// TestNNUELead checks that a seat's lead alone is that seat's of all
// three.
func TestNNUELead(t *testing.T) {
	e := mustNNUE(t, 32, 5).(*NNUE)
	for _, p := range randomPositions(t, 30, 4) {
		e.SetRoot(&p)
		leads := e.Leads(0, &p)
		for c := trichess.White; c <= trichess.Black; c++ {
			if got := e.Lead(0, &p, c); got != leads[c] {
				t.Fatalf("%s: %v's lead %d, of all three %d", p.FEN(), c, got, leads[c])
			}
		}
	}
}

func TestMaterial(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      Values
	}{
		{"start", trichess.StartFEN, Values{}},
		{"White has no queen", "wRwNwB1wKwBwNwR/wPwPwPwPwPwPwPwP/8/8|rRrNrBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w KQ,KQ,KQ 0 1",
			Values{-900, 450, 450}},
	} {
		p := mustParse(t, tc.fen)
		if got := (Material{}).Leads(0, &p); got != tc.want {
			t.Errorf("%s: Material's leads %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSetEvaluator(t *testing.T) {
	for _, tc := range []struct {
		set  Evaluator
		want string
	}{
		{nil, "hand"}, {Hand{}, "hand"}, {Material{}, "material"}, {mustNNUE(t, 16, 1), "nnue (hidden 16)"},
	} {
		s := newSearcher(t, BRS)
		s.SetEvaluator(tc.set)
		if got := s.eval.(fmt.Stringer).String(); got != tc.want {
			t.Errorf("SetEvaluator(%v): the searcher's evaluation %q, want %q", tc.set, got, tc.want)
		}
	}
}

func TestNewNNUERefuses(t *testing.T) {
	trench, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewNNUE(trench); err == nil {
		t.Error("NewNNUE accepted a Trench net")
	}
}
