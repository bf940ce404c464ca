package minimax

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/neteval"
	"trench/tactics"
)

var (
	netOnce sync.Once
	netEval *neteval.Evaluator
	netErr  error
)

// shippedNet is the evaluator of the net built into the binary.
func shippedNet(t testing.TB) *neteval.Evaluator {
	t.Helper()
	netOnce.Do(func() {
		var n *neteval.Net
		if n, netErr = neteval.LoadNet(trench.Game, shipped.Ref); netErr == nil {
			netEval, netErr = neteval.New(trench.Game, n.Inference)
		}
	})
	if netErr != nil {
		t.Fatal(netErr)
	}
	return netEval
}

func newSearcher(t testing.TB, g engine.Game, eval mcts.Evaluator, opts Options) *Searcher {
	t.Helper()
	s, err := New(g, eval, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func parse(t testing.TB, g engine.Game, text string) engine.State {
	t.Helper()
	s, err := g.ParseState(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name string
		game engine.Game
		opts Options
		want string
	}{
		{"three players", trichess.Game, DefaultOptions, "two-player games; trichess has 3 players"},
		{"material weight", trench.Game, Options{Material: 1.5}, "material weight"},
		{"negative material weight", trench.Game, Options{Material: -0.1}, "material weight"},
		{"small table", trench.Game, Options{TableBits: 5}, "table size"},
		{"huge table", trench.Game, Options{TableBits: 40}, "table size"},
		{"static weight without a static evaluation", trench.Game, Options{StaticWeight: 0.5}, "without a static evaluation"},
		{"static weight", trench.Game, Options{StaticWeight: 2, Static: func(engine.State) float32 { return 0 }}, "static evaluation weight"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.game, tactics.Fallback{}, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestLimitsValidate(t *testing.T) {
	tests := []struct {
		limits Limits
		ok     bool
	}{
		{Limits{Depth: 1}, true},
		{Limits{Depth: MaxDepth}, true},
		{Limits{Time: time.Millisecond}, true},
		{Limits{Nodes: 1}, true},
		{Limits{}, false},
		{Limits{Depth: -1}, false},
		{Limits{Depth: MaxDepth + 1}, false},
		{Limits{Depth: 2, Time: -time.Second}, false},
	}
	for _, tt := range tests {
		if err := tt.limits.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: Validate() = %v, want ok %v", tt.limits, err, tt.ok)
		}
	}
}

// The search finds the forced captures and wins of built positions, with
// the shipped net and with the material evaluation alone, batched or not.
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
		// Black's colonel on d6 can take the soldier on e6, defended by
		// the sergeant on e7, or the undefended soldier on b6.
		{"avoid the recapture", "8/4s3/1p1Cp3/8/8/7g/8/G7 b 0 0 0 1", 3, "d6b6", false},
	}
	evals := []struct {
		name string
		eval mcts.Evaluator
	}{{"net", shippedNet(t)}, {"material", tactics.Fallback{}}}
	for _, ev := range evals {
		for _, batch := range []bool{true, false} {
			for _, tt := range tests {
				name := ev.name + "/" + tt.name
				if !batch {
					name += "/unbatched"
				}
				t.Run(name, func(t *testing.T) {
					opts := DefaultOptions
					opts.Batch = batch
					st := parse(t, trench.Game, tt.fen)
					r, err := newSearcher(t, trench.Game, ev.eval, opts).Search(context.Background(), st, Limits{Depth: tt.depth})
					if err != nil {
						t.Fatal(err)
					}
					if got := st.ActionString(r.Action); got != tt.want {
						t.Errorf("best move %s (score %d), want %s", got, r.Score, tt.want)
					}
					if tt.win && r.Score <= winBound {
						t.Errorf("score %d, want a forced win", r.Score)
					}
				})
			}
		}
	}
}

// A full-depth search of tic-tac-toe, which has no values but its ends,
// finds every position's game-theoretic value and a move that keeps it.
func TestSearchSolvesTicTacToe(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := newSearcher(t, tictactoe.Game{}, mcts.UniformEvaluator{}, DefaultOptions)
	for range 60 {
		st := tictactoe.Game{}.Start()
		for n := rng.IntN(7); n > 0 && !st.Over(); n-- {
			acts := st.LegalActions(nil)
			st.Play(acts[rng.IntN(len(acts))])
		}
		if st.Over() {
			continue
		}
		values, best := tictactoe.Solve(st.(*tictactoe.State))
		r, err := s.Search(context.Background(), st, Limits{Depth: 9})
		if err != nil {
			t.Fatal(err)
		}
		want := values[st.ToMove()]
		got := float32(0)
		switch {
		case r.Score > winBound:
			got = 1
		case r.Score < -winBound:
			got = -1
		}
		if got != want || !slices.Contains(best, r.Action) {
			t.Errorf("%s: score %d, move %d; the game's value is %v, best moves %v", st, r.Score, r.Action, want, best)
		}
	}
}

// reference is a plain minimax to depth with the leaves judged as the
// searcher judges them, with no pruning and no table.
// leaves judges the leaves; its table holds only their values, which
// depend on the position alone.
func reference(leaves *Searcher, st engine.State, depth, ply int) int {
	if st.Over() {
		return terminal(st, st.ToMove(), ply)
	}
	if depth == 0 {
		return leaves.leafScores([]engine.State{st}, nil, ply)[0]
	}
	best := -Win - 1
	for _, a := range st.LegalActions(nil) {
		c := st.Clone()
		c.Play(a)
		v := reference(leaves, c, depth-1, ply+1)
		if c.ToMove() != st.ToMove() {
			v = -v
		}
		best = max(best, v)
	}
	return best
}

// Pruning, the table and batching keep the minimax value.
func TestSearchKeepsTheMinimaxValue(t *testing.T) {
	fens := []string{
		"8/4s3/1p1Cp3/8/8/7g/8/G7 b 0 0 0 1",
		"5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 b 3 2 0 12",
	}
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, fen := range fens {
		st := parse(t, trench.Game, fen)
		want := reference(newSearcher(t, trench.Game, tactics.Fallback{}, DefaultOptions), st, depth, 0)
		for _, batch := range []bool{true, false} {
			opts := DefaultOptions
			opts.Batch = batch
			r, err := newSearcher(t, trench.Game, tactics.Fallback{}, opts).Search(context.Background(), st, Limits{Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			if r.Score != want {
				t.Errorf("%s, batch %v: score %d, minimax value %d", fen, batch, r.Score, want)
			}
		}
	}
}

func TestPVIsLegal(t *testing.T) {
	st := trench.Game.Start()
	r, err := newSearcher(t, trench.Game, shippedNet(t), DefaultOptions).Search(context.Background(), st, Limits{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Depth != 3 || len(r.PV) == 0 || r.PV[0] != r.Action || r.Nodes == 0 || r.NetStates == 0 || r.NetCalls == 0 {
		t.Fatalf("result %+v", r)
	}
	c := st.Clone()
	for i, a := range r.PV {
		if err := engine.PlayChecked(c, a); err != nil {
			t.Fatalf("pv move %d: %v", i, err)
		}
	}
}

// A depth-limited search gives the same answer every time.
func TestDeterministic(t *testing.T) {
	st := parse(t, trench.Game, "5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 b 3 2 0 12")
	var first Result
	for i := range 2 {
		r, err := newSearcher(t, trench.Game, shippedNet(t), DefaultOptions).Search(context.Background(), st, Limits{Depth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = r
		} else if r.Action != first.Action || r.Score != first.Score || r.Nodes != first.Nodes || !slices.Equal(r.PV, first.PV) {
			t.Errorf("two fresh searches differ: %d %d %d %v and %d %d %d %v",
				first.Action, first.Score, first.Nodes, first.PV, r.Action, r.Score, r.Nodes, r.PV)
		}
	}
}

func TestLimits(t *testing.T) {
	st := trench.Game.Start()
	s := newSearcher(t, trench.Game, shippedNet(t), DefaultOptions)
	start := time.Now()
	r, err := s.Search(context.Background(), st, Limits{Time: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The search checks its clock between net calls, each well under
	// 50 ms; the slack is for a loaded machine.
	if el := time.Since(start); el > 400*time.Millisecond || r.Depth < 1 {
		t.Errorf("time-limited search of 100ms: took %v, depth %d", el, r.Depth)
	}
	if err := engine.PlayChecked(st.Clone(), r.Action); err != nil {
		t.Error(err)
	}
	s.Clear()
	r, err = s.Search(context.Background(), st, Limits{Nodes: 500})
	if err != nil || r.Nodes > 700 || r.Depth < 1 {
		t.Errorf("node-limited search of 500: %d nodes, depth %d, err %v", r.Nodes, r.Depth, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, st, Limits{Depth: 4}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v, want context.Canceled", err)
	}
}

// failing is an evaluator that always fails.
type failing struct{}

func (failing) Evaluate([]engine.State, []mcts.Evaluation) error {
	return errors.New("net unavailable")
}

func TestSearchErrors(t *testing.T) {
	over := parse(t, trench.Game, "7g/8/8/8/8/8/8/G7 b 25 0 0 1")
	s := newSearcher(t, trench.Game, failing{}, DefaultOptions)
	if _, err := s.Search(context.Background(), over, Limits{Depth: 2}); !errors.Is(err, ErrGameOver) {
		t.Errorf("finished game: %v, want ErrGameOver", err)
	}
	if _, err := s.Search(context.Background(), trench.Game.Start(), Limits{Depth: 2}); err == nil || !strings.Contains(err.Error(), "net unavailable") {
		t.Errorf("failing evaluator: %v, want its error", err)
	}
	if _, err := s.Search(context.Background(), tictactoe.Game{}.Start(), Limits{Depth: 2}); err == nil || !strings.Contains(err.Error(), "tictactoe") {
		t.Errorf("a position of another game: %v", err)
	}
	if _, err := s.Search(context.Background(), trench.Game.Start(), Limits{}); err == nil {
		t.Error("no limit: no error")
	}
}

// The capture search's aid is what the leaves see: without it, a leaf in
// the middle of an exchange is judged as it stands.
func TestQuiescenceChangesLeaves(t *testing.T) {
	st := parse(t, trench.Game, "7g/8/3pPc2/8/8/8/8/G7 w 0 0 0 1")
	with := newSearcher(t, trench.Game, tactics.Fallback{}, Options{Quiescence: true, Material: 1})
	without := newSearcher(t, trench.Game, tactics.Fallback{}, Options{Material: 1})
	a := with.leafScores([]engine.State{st}, nil, 0)[0]
	b := without.leafScores([]engine.State{st}, nil, 0)[0]
	if a == b {
		t.Errorf("leaf score %d with and without the capture search", a)
	}
	if r := tactics.Resolve(st); r == nil {
		t.Fatalf("no capture pending in %s", st)
	}
}

// With all the weight on the static evaluation, a quiet leaf scores what
// it says, for the leaf's side to move.
func TestStaticEvaluation(t *testing.T) {
	static := func(s engine.State) float32 {
		if s.ToMove() == 0 {
			return 0.25
		}
		return -0.25
	}
	s := newSearcher(t, trench.Game, shippedNet(t), Options{Quiescence: true, Static: static, StaticWeight: 1})
	for _, fen := range []string{trench.StartFEN, strings.Replace(trench.StartFEN, " b ", " w ", 1)} {
		st := parse(t, trench.Game, fen)
		want := valueScore(static(st))
		if got := s.leafScores([]engine.State{st}, nil, 0)[0]; got != want {
			t.Errorf("%s: leaf score %d, want %d", fen, got, want)
		}
	}
}
