package alphabeta

import (
	"context"
	"testing"

	"trench/engine/trench"
)

// countingEval is the hand evaluation behind the Evaluator interface,
// which checks that the search keeps it told of the path.
type countingEval struct {
	t      *testing.T
	path   []trench.Position
	pushes int
}

func (c *countingEval) SetRoot(p *trench.Position) { c.path = append(c.path[:0], *p) }

func (c *countingEval) Push(ply int, parent, child *trench.Position, m trench.Move) {
	if *parent != c.path[ply] {
		c.t.Fatalf("Push at ply %d from a position that is not the path's", ply)
	}
	want := *parent
	want.Play(m)
	if want != *child {
		c.t.Fatalf("Push at ply %d: the child is not the parent after %v", ply, m)
	}
	c.path = append(c.path[:ply+1], *child)
	c.pushes++
}

func (c *countingEval) Evaluate(ply int, p *trench.Position) int {
	if c.path[ply] != *p {
		c.t.Fatalf("Evaluate at ply %d of a position that is not the path's", ply)
	}
	return Evaluate(p)
}

func TestEvaluatorSeesThePath(t *testing.T) {
	p := mustParse(t, BenchPositions[1])
	ce := &countingEval{t: t}
	e, err := NewWith(16, ce)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Search(context.Background(), p, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := newSearcher(t).Search(context.Background(), p, Limits{Depth: 4})
	if got.Move != want.Move || got.Score != want.Score || got.Nodes != want.Nodes {
		t.Errorf("through the interface: %v %d %d nodes; built in: %v %d %d nodes",
			got.Move, got.Score, got.Nodes, want.Move, want.Score, want.Nodes)
	}
	if ce.pushes == 0 {
		t.Error("the search told the evaluator of no move")
	}
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want int
	}{
		{trench.StartFEN, 0},
		{"5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 b 3 2 0 12", 100},
		{"5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 w 0 4 0 12", 400},
	} {
		p := mustParse(t, tc.fen)
		if got := (Rules{}).Evaluate(0, &p); got != tc.want {
			t.Errorf("Rules.Evaluate(%s) = %d, want %d", tc.fen, got, tc.want)
		}
	}
}

func TestRulesSearchDeterministic(t *testing.T) {
	p := mustParse(t, BenchPositions[1])
	var res [2]Result
	for i := range res {
		e, err := NewWith(16, Rules{})
		if err != nil {
			t.Fatal(err)
		}
		if res[i], err = e.Search(context.Background(), p, Limits{Depth: 4}); err != nil {
			t.Fatal(err)
		}
	}
	if res[0].Move != res[1].Move || res[0].Score != res[1].Score || res[0].Nodes != res[1].Nodes {
		t.Errorf("two searches with Rules differ: %+v, %+v", res[0], res[1])
	}
}

func TestNewWithRefusesNil(t *testing.T) {
	if _, err := NewWith(16, nil); err == nil {
		t.Error("NewWith(16, nil) succeeded")
	}
}
