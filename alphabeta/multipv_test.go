package alphabeta

import (
	"context"
	"testing"
	"time"

	"trench/engine/trench"
)

// multiPVPositions are positions the multi-PV tests search: the start,
// a middle game with captures about, and one with a forced win.
var multiPVPositions = append(append([]string{}, BenchPositions...),
	"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1",
	"7g/8/4Pk2/8/8/8/8/G7 b 24 0 0 1")

// SearchLines with one line is Search, move for move and node for node.
func TestSearchLinesOneIsSearch(t *testing.T) {
	for _, fen := range multiPVPositions {
		p := mustParse(t, fen)
		for _, lines := range []int{0, 1} {
			a, err := newSearcher(t).Search(context.Background(), p, Limits{Depth: 4})
			if err != nil {
				t.Fatal(err)
			}
			b, err := newSearcher(t).SearchLines(context.Background(), p, Limits{Depth: 4}, lines)
			if err != nil {
				t.Fatal(err)
			}
			a.Elapsed, b.Elapsed = 0, 0
			if a.Move != b.Move || a.Score != b.Score || a.Depth != b.Depth || a.Nodes != b.Nodes ||
				!equalMoves(a.PV, b.PV) || b.Lines != nil {
				t.Errorf("%s, %d lines: %+v, want Search's %+v", fen, lines, b, a)
			}
		}
	}
}

// A multi-PV search's lines are distinct legal moves with legal main
// lines, best first, the first scored as the single-line search scores
// the position at the same depth, and each scored as a search of the
// position after it scores that position (one ply shallower).
func TestSearchLines(t *testing.T) {
	for _, fen := range multiPVPositions {
		p := mustParse(t, fen)
		legal := len(p.GenerateMoves(nil))
		for depth := 1; depth <= 4; depth++ {
			for _, n := range []int{2, 4, 200} {
				one, err := newSearcher(t).Search(context.Background(), p, Limits{Depth: depth})
				if err != nil {
					t.Fatal(err)
				}
				r, err := newSearcher(t).SearchLines(context.Background(), p, Limits{Depth: depth}, n)
				if err != nil {
					t.Fatal(err)
				}
				if want := min(n, legal); len(r.Lines) != want {
					t.Fatalf("%s depth %d: %d lines, want %d", fen, depth, len(r.Lines), want)
				}
				l0 := r.Lines[0]
				if r.Move != l0.Move || r.Score != l0.Score || r.Depth != one.Depth || !equalMoves(r.PV, l0.PV) {
					t.Errorf("%s depth %d: result %v %d depth %d pv %v, first line %+v", fen, depth, r.Move, r.Score, r.Depth, r.PV, l0)
				}
				if l0.Score != one.Score {
					t.Errorf("%s depth %d, %d lines: best score %d, the single line's %d", fen, depth, n, l0.Score, one.Score)
				}
				seen := map[trench.Move]bool{}
				for i, l := range r.Lines {
					if seen[l.Move] {
						t.Errorf("%s depth %d: %s twice", fen, depth, l.Move)
					}
					seen[l.Move] = true
					if i > 0 && l.Score > r.Lines[i-1].Score {
						t.Errorf("%s depth %d: line %d scores %d above line %d's %d", fen, depth, i, l.Score, i-1, r.Lines[i-1].Score)
					}
					if l.Depth != r.Depth || len(l.PV) == 0 || l.PV[0] != l.Move {
						t.Errorf("%s depth %d: line %d %+v", fen, depth, i, l)
					}
					q := p
					for j, m := range l.PV {
						if !q.IsLegal(m) {
							t.Fatalf("%s depth %d: line %d's move %d, %s, is illegal in %s", fen, depth, i, j, m, q.FEN())
						}
						q.Play(m)
					}
				}
			}
		}
	}
}

// With as many lines as moves, each line's score is its move's value: a
// search of the position after it, one ply shallower, negated.
func TestSearchLinesExact(t *testing.T) {
	p := mustParse(t, BenchPositions[1])
	const depth = 3
	r, err := newSearcher(t).SearchLines(context.Background(), p, Limits{Depth: depth}, 300)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Lines {
		if l.Forced() != 0 {
			continue
		}
		q := p
		q.Play(l.Move)
		c, err := newSearcher(t).Search(context.Background(), q, Limits{Depth: depth - 1})
		if err != nil {
			t.Fatal(err)
		}
		if -c.Score != l.Score {
			t.Errorf("%s: line score %d, the position after it searched alone %d", l.Move, l.Score, -c.Score)
		}
	}
}

// A multi-PV search stopped by its limits still has a move, and lines
// when it finished an iteration.
func TestSearchLinesLimits(t *testing.T) {
	p := trench.StartPosition()
	r, err := newSearcher(t).SearchLines(context.Background(), p, Limits{Time: 30 * time.Millisecond}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Depth == 0 || len(r.Lines) != 3 || r.Lines[0].Move != r.Move {
		t.Errorf("30ms, 3 lines: %+v", r)
	}
	r, err = newSearcher(t).SearchLines(context.Background(), p, Limits{Nodes: 5000}, 3)
	if err != nil || r.Nodes > 6100 || len(r.Lines) != 3 {
		t.Errorf("5000 nodes, 3 lines: %+v, %v", r, err)
	}
	if _, err := newSearcher(t).SearchLines(context.Background(), p, Limits{Depth: 2}, -1); err == nil {
		t.Error("-1 lines accepted")
	}
}

func equalMoves(a, b []trench.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
