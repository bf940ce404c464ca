package alphabeta

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"trench/engine/tictactoe"
	"trench/engine/trench"
)

func mustParse(t testing.TB, fen string) trench.Position {
	t.Helper()
	p, err := trench.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newSearcher(t testing.TB) *Searcher {
	t.Helper()
	e, err := New(16)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestSearchFindsTactics(t *testing.T) {
	tests := []struct {
		name, fen string
		depth     int
		want      string
		win       bool // the score must be a forced win
	}{
		// Black's soldier on e6 takes White's captain on f6, which
		// reaches the winning score.
		{"winning capture", "7g/8/4Pk2/8/8/8/8/G7 b 24 0 0 1", 1, "e6f6", true},
		// The richer of two captures, even if recaptured.
		{"bigger capture", "7g/8/3pPc2/8/8/8/8/G7 b 0 0 0 1", 1, "e6f6", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.fen)
			r, err := newSearcher(t).Search(context.Background(), p, Limits{Depth: tt.depth})
			if err != nil {
				t.Fatal(err)
			}
			if r.Move.String() != tt.want {
				t.Errorf("best move %s (score %d, pv %v), want %s", r.Move, r.Score, r.PV, tt.want)
			}
			if tt.win && r.Score <= winBound {
				t.Errorf("score %d, want a forced win", r.Score)
			}
		})
	}
}

// A move that captures into a recapture loses material; depth 2 sees it.
func TestSearchAvoidsRecapture(t *testing.T) {
	// Black's colonel on d6, attacked by the sergeant on e7, can take
	// the soldier on e6, defended by that sergeant, or the undefended
	// soldier on b6.
	p := mustParse(t, "8/4s3/1p1Cp3/8/8/7g/8/G7 b 0 0 0 1")
	r, err := newSearcher(t).Search(context.Background(), p, Limits{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Move.String(); got != "d6b6" {
		t.Errorf("best move %s (pv %v, score %d), want d6b6", got, r.PV, r.Score)
	}
}

func TestPVIsLegal(t *testing.T) {
	p := trench.StartPosition()
	r, err := newSearcher(t).Search(context.Background(), p, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.Depth != 4 || len(r.PV) == 0 || r.PV[0] != r.Move || r.Nodes == 0 {
		t.Fatalf("result %+v", r)
	}
	q := p
	for i, m := range r.PV {
		if !q.IsLegal(m) {
			t.Fatalf("pv move %d, %s, is illegal in %s", i, m, q.FEN())
		}
		q.Play(m)
	}
}

// The engine's answer does not depend on its table's history or size.
func TestDeterministic(t *testing.T) {
	p := mustParse(t, "4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1")
	a, _ := newSearcher(t).Search(context.Background(), p, Limits{Depth: 4})
	b, _ := newSearcher(t).Search(context.Background(), p, Limits{Depth: 4})
	if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes {
		t.Errorf("two fresh searches differ: %v %d %d and %v %d %d", a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
	}
}

func TestLimits(t *testing.T) {
	p := trench.StartPosition()
	e := newSearcher(t)
	start := time.Now()
	r, err := e.Search(context.Background(), p, Limits{Time: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second || r.Depth < 1 || !p.IsLegal(r.Move) {
		t.Errorf("time-limited search: %v, depth %d, move %s", el, r.Depth, r.Move)
	}
	r, err = e.Search(context.Background(), p, Limits{Nodes: 5000})
	if err != nil || r.Nodes > 7000 || !p.IsLegal(r.Move) {
		t.Errorf("node-limited search: %d nodes, move %s, err %v", r.Nodes, r.Move, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err = e.Search(ctx, p, Limits{Depth: 30}); err == nil && !p.IsLegal(r.Move) {
		t.Errorf("cancelled search: move %s, err %v", r.Move, err)
	}
	for _, l := range []Limits{{}, {Depth: -1}, {Depth: MaxDepth + 1}, {Time: -time.Second}} {
		if _, err := e.Search(context.Background(), p, l); err == nil {
			t.Errorf("limits %+v accepted", l)
		}
	}
	over := mustParse(t, "7g/8/8/8/8/8/8/G7 b 25 0 0 1")
	if _, err := e.Search(context.Background(), over, Limits{Depth: 1}); !errors.Is(err, ErrGameOver) {
		t.Errorf("finished game: err %v, want ErrGameOver", err)
	}
	if _, err := New(5); err == nil {
		t.Error("a table of 2^5 entries accepted")
	}
}

// TestSoftNodes checks the soft node limit: a search under it alone
// finishes the iteration it is in, so it is the search to that depth;
// under a hard limit too, it stops near the hard limit.
func TestSoftNodes(t *testing.T) {
	for _, fen := range BenchPositions {
		p := mustParse(t, fen)
		for _, soft := range []uint64{500, 5000, 40000} {
			r, err := newSearcher(t).Search(context.Background(), p, Limits{SoftNodes: soft})
			if err != nil {
				t.Fatal(err)
			}
			if r.Nodes < soft && r.Forced() == 0 && r.Depth < MaxDepth {
				t.Errorf("%s, soft %d: stopped after %d nodes at depth %d", fen, soft, r.Nodes, r.Depth)
			}
			d, err := newSearcher(t).Search(context.Background(), p, Limits{Depth: r.Depth})
			if err != nil {
				t.Fatal(err)
			}
			if d.Nodes != r.Nodes || d.Move != r.Move || d.Score != r.Score {
				t.Errorf("%s, soft %d: %d nodes, %s %d; the depth-%d search: %d nodes, %s %d",
					fen, soft, r.Nodes, r.Move, r.Score, r.Depth, d.Nodes, d.Move, d.Score)
			}
			hard := soft + soft/2
			h, err := newSearcher(t).Search(context.Background(), p, Limits{SoftNodes: soft, Nodes: hard})
			if err != nil {
				t.Fatal(err)
			}
			// The search checks its limits every 1024 nodes.
			if h.Nodes > hard+1024 || h.Nodes > r.Nodes || !p.IsLegal(h.Move) {
				t.Errorf("%s, soft %d, hard %d: %d nodes (%d without the hard limit), move %s", fen, soft, hard, h.Nodes, r.Nodes, h.Move)
			}
		}
	}
	if _, err := newSearcher(t).Search(context.Background(), trench.StartPosition(), Limits{SoftNodes: 10, Nodes: 5}); err == nil {
		t.Error("a soft limit above the hard one accepted")
	}
}

func TestFromState(t *testing.T) {
	if _, err := FromState(trench.Game.Start()); err != nil {
		t.Error(err)
	}
	_, err := FromState(tictactoe.Game{}.Start())
	if err == nil || !strings.Contains(err.Error(), "tictactoe") {
		t.Errorf("tic-tac-toe state: err %v", err)
	}
}

func TestEvaluateSymmetric(t *testing.T) {
	// The start position is symmetric: equal for both sides.
	p := trench.StartPosition()
	if v := Evaluate(&p); v != 0 {
		t.Errorf("start position evaluates to %d, want 0", v)
	}
	// A point up is better for the side ahead, whoever moves.
	q := mustParse(t, "4skcg/4pskc/4ppsk/4ppp1/SPPP4/KSPP4/CKSP4/GCKS4 b 1 0 0 1")
	if v := Evaluate(&q); v <= 0 {
		t.Errorf("black a soldier up evaluates to %d for black", v)
	}
	q = mustParse(t, "4skcg/4pskc/4ppsk/4ppp1/SPPP4/KSPP4/CKSP4/GCKS4 w 1 0 0 1")
	if v := Evaluate(&q); v >= 0 {
		t.Errorf("black a soldier up evaluates to %d for white", v)
	}
	// The mirror of a position evaluates the same.
	m := q.Mirror()
	if a, b := Evaluate(&q), Evaluate(&m); a != b {
		t.Errorf("mirror evaluates to %d, position to %d", b, a)
	}
}

func BenchmarkSearchStart(b *testing.B) {
	p := trench.StartPosition()
	e := newSearcher(b)
	var nodes uint64
	for b.Loop() {
		e.Clear()
		r, err := e.Search(context.Background(), p, Limits{Depth: 5})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkEvaluate(b *testing.B) {
	p := mustParse(b, "4skcg/4pskc/4p1sk/3pppps/SPPP4/KS1P4/CKSP1P2/GCKS4 b 0 0 4 3")
	sum := 0
	for b.Loop() {
		sum += Evaluate(&p)
	}
	_ = sum
}

// BenchmarkSearchMidgame searches a middle-game position with captures
// about, where quiescence does most of the work.
func BenchmarkSearchMidgame(b *testing.B) {
	p := mustParse(b, BenchPositions[1])
	e := newSearcher(b)
	var nodes uint64
	for b.Loop() {
		e.Clear()
		r, err := e.Search(context.Background(), p, Limits{Depth: 4})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestBench(t *testing.T) {
	r, err := Bench(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Nodes == 0 || r.Elapsed <= 0 || r.NodesPerSecond() <= 0 || r.Depth != 3 {
		t.Errorf("bench result %+v", r)
	}
	if _, err := Bench(context.Background(), 0); err == nil {
		t.Error("depth 0 accepted")
	}
}

func TestResultForced(t *testing.T) {
	for _, tt := range []struct {
		score, want int
	}{
		{0, 0}, {winBound, 0}, {-winBound, 0}, {winBound + 1, 1}, {Win - 3, 1}, {-Win + 4, -1}, {-winBound - 1, -1},
	} {
		if got := (Result{Score: tt.score}).Forced(); got != tt.want {
			t.Errorf("Result{Score: %d}.Forced() = %d, want %d", tt.score, got, tt.want)
		}
	}
}

// refQuiesce is the quiescence search without pruning: the side to move
// takes the best of standing pat on the hand-written evaluation and every
// capture, each scored the same way. It counts its nodes in *nodes and
// gives up (ok false) past limit.
func refQuiesce(p *trench.Position, ply int, nodes *int, limit int) (score int, ok bool) {
	if *nodes++; *nodes > limit {
		return 0, false
	}
	if decided(p) {
		return terminal(p, ply), true
	}
	caps := p.GenerateCaptures(nil)
	if len(caps) == 0 && !p.HasMoves() {
		return terminal(p, ply), true
	}
	best := Evaluate(p)
	if ply >= maxPly-1 {
		return best, true
	}
	for _, m := range caps {
		c := *p
		c.Play(m)
		s, ok := refQuiesce(&c, ply+1, nodes, limit)
		if !ok {
			return 0, false
		}
		best = max(best, -s)
	}
	return best, true
}

func TestQuiesce(t *testing.T) {
	for _, tt := range []struct {
		name, fen string
		// want: "eval" for the evaluation itself (a quiet position),
		// "above" for more than it (a capture wins material), "win"
		// or "loss" for a forced result.
		want string
	}{
		{"start, no capture", trench.StartFEN, "eval"},
		{"a capture wins material", "7g/8/3pPc2/8/8/8/8/G7 b 0 0 0 1", "above"},
		{"a capture reaches the winning score", "7g/8/4Pk2/8/8/8/8/G7 b 24 0 0 1", "win"},
		{"the game is over: the opponent won", "7g/8/4Pk2/8/8/8/8/G7 b 0 25 0 1", "loss"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.fen)
			e := newSearcher(t)
			r := e.Quiesce(p)
			eval := Evaluate(&p)
			var ok bool
			switch tt.want {
			case "eval":
				ok = r.Score == eval && r.Nodes == 1
			case "above":
				ok = r.Score > eval && r.Forced() == 0 && r.Nodes > 1
			case "win":
				ok = r.Forced() == 1
			case "loss":
				ok = r.Forced() == -1 && r.Score == -Win
			}
			if !ok {
				t.Errorf("score %d after %d nodes (evaluation %d), want %s", r.Score, r.Nodes, eval, tt.want)
			}
			if r.Move != 0 || len(r.PV) != 0 || r.Depth != 0 {
				t.Errorf("a quiescence search reported a move: %+v", r)
			}
		})
	}
}

// TestQuiesceStandPatNoMoves checks that a position without a legal
// move scores its result even where its evaluation alone would cut off
// (quiesce stands pat before it lists the captures).
func TestQuiesceStandPatNoMoves(t *testing.T) {
	for _, tt := range []struct {
		name, fen string
		want      int
	}{
		{"the mover has no move and leads on points", "8/8/8/8/8/8/8/7p b 20 0 0 1", Win},
		{"the mover has no piece and trails on points", "7P/8/8/8/8/8/8/8 w 20 0 0 1", -Win},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.fen)
			if p.HasMoves() || decided(&p) {
				t.Fatalf("%s: want a position without a move, not decided by score", tt.fen)
			}
			e := newSearcher(t)
			// A window below the evaluation: standing pat cuts off.
			eval := Evaluate(&p)
			if got := e.quiesce(&p, -Win, eval-1, 0); got != tt.want {
				t.Errorf("quiesce = %d (evaluation %d), want the result %d", got, eval, tt.want)
			}
			if r := e.Quiesce(p); r.Score != tt.want {
				t.Errorf("Quiesce = %d, want %d", r.Score, tt.want)
			}
		})
	}
}

// TestQuiesceMatchesReference checks Quiesce, with its pruning, against
// the search without any, on the positions of random games.
func TestQuiesceMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	e := newSearcher(t)
	checked, capturing := 0, 0
	for game := 0; game < 10; game++ {
		p := trench.StartPosition()
		for ply := 0; ply < 120 && !p.Over(); ply++ {
			nodes := 0
			want, ok := refQuiesce(&p, 0, &nodes, 5_000)
			if ok {
				if got := e.Quiesce(p); got.Score != want {
					t.Fatalf("%s: Quiesce scores %d, the search without pruning %d", p.FEN(), got.Score, want)
				}
				checked++
				if nodes > 1 {
					capturing++
				}
			}
			moves := p.GenerateMoves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if checked < 100 || capturing < 50 {
		t.Errorf("%d positions checked, %d with captures: too few", checked, capturing)
	}
}
