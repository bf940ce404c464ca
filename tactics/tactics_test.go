package tactics_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/tactics"
)

func parse(t testing.TB, g engine.Game, text string) engine.State {
	t.Helper()
	s, err := g.ParseState(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// moves is the notation of the actions leading from s to r, found by
// replaying r's capture sequence: Resolve returns only the end, so the
// test finds the line by trying captures breadth-first.
func line(s, r engine.State) []string {
	type node struct {
		s    engine.State
		path []string
	}
	queue := []node{{s, nil}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.s.String() == r.String() {
			return n.path
		}
		if len(n.path) == tactics.Depth {
			continue
		}
		for _, a := range n.s.(engine.Captures).CaptureActions(nil) {
			c := n.s.Clone()
			c.Play(a)
			queue = append(queue, node{c, append(slices.Clip(n.path), n.s.ActionString(a))})
		}
	}
	return nil
}

func TestResolveTrench(t *testing.T) {
	tests := []struct {
		name, fen string
		want      []string // nil: the mover stands pat
	}{
		{"no capture", trench.StartFEN, nil},
		{"a free soldier", "g7/8/8/4Pp2/8/8/8/G7 b 0 0 0 1", []string{"e5f5"}},
		{"a defended soldier, taken by a captain", "g7/8/8/4Kps1/8/8/8/G7 b 0 0 0 1", nil},
		{"a defended soldier, taken by a soldier: an even exchange is not sought", "g7/8/8/4Pps1/8/8/8/G7 b 0 0 0 1", nil},
		{"a captain defended by a soldier, taken by a soldier", "g7/8/8/4Pkp1/8/8/8/G7 b 0 0 0 1", []string{"e5f5", "g5f5"}},
		{"the winning capture", "g7/8/8/4Kps1/8/8/8/G7 b 24 0 0 1", []string{"e5f5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := parse(t, trench.Game, tc.fen)
			before := s.String()
			r := tactics.Resolve(s)
			if s.String() != before {
				t.Fatalf("Resolve changed its argument to %s", s)
			}
			if tc.want == nil {
				if r != nil {
					t.Fatalf("Resolve = %s (by %v), want nil", r, line(s, r))
				}
				return
			}
			if r == nil {
				t.Fatalf("Resolve = nil, want the end of %v", tc.want)
			}
			if got := line(s, r); !slices.Equal(got, tc.want) {
				t.Errorf("capture line %v, want %v (resolved %s)", got, tc.want, r)
			}
		})
	}
}

// randomStates plays n random games of g a random number of plies and
// returns the positions where they stopped, none of them over.
func randomStates(g engine.Game, n int, seed uint64) []engine.State {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []engine.State
	for len(out) < n {
		s := g.Start()
		for ply := 0; ply < 10+rng.IntN(60) && !s.Over(); ply++ {
			acts := s.LegalActions(nil)
			s.Play(acts[rng.IntN(len(acts))])
		}
		if !s.Over() {
			out = append(out, s)
		}
	}
	return out
}

// standing is player p's standing in s as the capture search counts it:
// its material lead, or ±1000 for a finished game.
func standing(s engine.State, p int) float32 {
	if s.Over() {
		return s.Result(nil)[p] * 1000
	}
	return tactics.MaterialLeads(s, nil)[p]
}

// TestResolveInvariants checks on random positions of both games that a
// resolved position follows by captures alone, and that the mover never
// ends a capture sequence worse off than by standing pat.
func TestResolveInvariants(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		resolved := 0
		for i, s := range randomStates(g, 200, 1) {
			r := tactics.Resolve(s)
			if r == nil {
				continue
			}
			resolved++
			me := s.ToMove()
			if got, pat := standing(r, me), standing(s, me); got <= pat {
				t.Errorf("%s #%d %s: the mover's standing %v after its captures is not above %v standing pat", g.Name(), i, s, got, pat)
			}
			if g == trench.Game && line(s, r) == nil {
				t.Errorf("%s #%d %s: resolved %s is not reached by captures", g.Name(), i, s, r)
			}
		}
		if resolved < 20 {
			t.Errorf("%s: only %d of 200 random positions had a capture sequence", g.Name(), resolved)
		}
	}
}

// fixed answers every state with uniform priors and the values ±(legal
// moves)/100, so that a test can tell which position a value came from,
// and counts its calls and the states it was given.
type fixed struct{ calls, states int }

func (f *fixed) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	f.calls++
	f.states += len(states)
	for i := range states {
		o := &out[i]
		o.Policy = o.Policy[:0]
		for range o.Actions {
			o.Policy = append(o.Policy, 1/float32(len(o.Actions)))
		}
		v := float32(len(o.Actions)) / 100
		o.Values = append(o.Values[:0], v, -v)
	}
	return nil
}

func evaluate(t *testing.T, ev mcts.Evaluator, states ...engine.State) []mcts.Evaluation {
	t.Helper()
	out := make([]mcts.Evaluation, len(states))
	for i, s := range states {
		out[i].Actions = s.LegalActions(nil)
	}
	if err := ev.Evaluate(states, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEvaluatorValuesComeFromTheResolvedPosition(t *testing.T) {
	quiet := parse(t, trench.Game, trench.StartFEN)
	free := parse(t, trench.Game, "g7/8/8/4Pp2/8/8/8/G7 b 0 0 0 1")
	winning := parse(t, trench.Game, "g7/8/8/4Kps1/8/8/8/G7 b 24 0 0 1")
	inner := &fixed{}
	ev := tactics.Settings{Quiescence: true}.Wrap(inner)
	out := evaluate(t, ev, quiet, free, winning)
	if inner.calls != 1 {
		t.Errorf("inner evaluator called %d times, want one batch", inner.calls)
	}
	// The quiet start keeps its own value; the free soldier's leaf takes
	// the value of the position after e5f5; the winning capture's the
	// game's result.
	after := free.Clone()
	a, err := after.ParseAction("e5f5")
	if err != nil {
		t.Fatal(err)
	}
	after.Play(a)
	want := [][]float32{
		{float32(len(out[0].Actions)) / 100, -float32(len(out[0].Actions)) / 100},
		{float32(len(after.LegalActions(nil))) / 100, -float32(len(after.LegalActions(nil))) / 100},
		{1, -1},
	}
	for i := range out {
		if !slices.Equal(out[i].Values, want[i]) {
			t.Errorf("state %d: values %v, want %v", i, out[i].Values, want[i])
		}
		if len(out[i].Policy) != len(out[i].Actions) {
			t.Errorf("state %d: %d priors for %d actions", i, len(out[i].Policy), len(out[i].Actions))
		}
	}
}

// With ShiftValues the inner evaluator sees the leaves alone, and a leaf
// whose captures resolve elsewhere keeps its own value moved by the
// change in material values; a capture that ends the game still gives
// the result.
func TestEvaluatorShiftsValues(t *testing.T) {
	quiet := parse(t, trench.Game, trench.StartFEN)
	free := parse(t, trench.Game, "g7/8/8/4Pp2/8/8/8/G7 b 0 0 0 1")
	winning := parse(t, trench.Game, "g7/8/8/4Kps1/8/8/8/G7 b 24 0 0 1")
	inner := &fixed{}
	ev := tactics.Settings{Quiescence: true, ShiftValues: true}.Wrap(inner)
	out := evaluate(t, ev, quiet, free, winning)
	if inner.calls != 1 || inner.states != 3 {
		t.Errorf("inner evaluator called %d times with %d states, want once with the 3 leaves", inner.calls, inner.states)
	}
	after := free.Clone()
	a, err := after.ParseAction("e5f5")
	if err != nil {
		t.Fatal(err)
	}
	after.Play(a)
	was, is := tactics.MaterialValues(free, nil), tactics.MaterialValues(after, nil)
	v := float32(len(out[1].Actions)) / 100
	want := [][]float32{
		{float32(len(out[0].Actions)) / 100, -float32(len(out[0].Actions)) / 100},
		{v + is[0] - was[0], -v + is[1] - was[1]},
		{1, -1},
	}
	if is[0] <= was[0] {
		t.Fatalf("e5f5 does not raise Black's material value: %v to %v", was, is)
	}
	for i := range out {
		if !slices.Equal(out[i].Values, want[i]) {
			t.Errorf("state %d: values %v, want %v", i, out[i].Values, want[i])
		}
	}
}

// materialEval values each position by its material alone and gives
// uniform priors.
type materialEval struct{}

func (materialEval) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	for i, s := range states {
		o := &out[i]
		o.Policy = o.Policy[:0]
		for range o.Actions {
			o.Policy = append(o.Policy, 1/float32(len(o.Actions)))
		}
		o.Values = tactics.MaterialValues(s, o.Values)
	}
	return nil
}

// For an evaluator that values material alone, shifting a leaf's values
// by the material its captures change is evaluating the resolved
// position: both ways give the same values, in both games.
func TestShiftValuesMatchMaterialEvaluator(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		states := randomStates(g, 200, 11)
		net := evaluate(t, tactics.Settings{Quiescence: true, Material: 0.5}.Wrap(materialEval{}), states...)
		shift := evaluate(t, tactics.Settings{Quiescence: true, ShiftValues: true, Material: 0.5}.Wrap(materialEval{}), states...)
		moved := 0
		for i, s := range states {
			if r := tactics.Resolve(s); r != nil && !r.Over() {
				moved++
			}
			for p := range net[i].Values {
				if d := math.Abs(float64(net[i].Values[p] - shift[i].Values[p])); d > 1e-5 {
					t.Fatalf("%s, state %d, player %d: %v evaluating the resolved position, %v shifted", g.Name(), i, p, net[i].Values, shift[i].Values)
				}
			}
		}
		if moved < 20 {
			t.Errorf("%s: only %d of %d positions resolve elsewhere", g.Name(), moved, len(states))
		}
	}
}

func TestEvaluatorBlendsMaterialAndCapturePriors(t *testing.T) {
	s := parse(t, trench.Game, "g7/8/8/4Pp2/8/8/8/G7 b 3 0 0 1")
	ev := tactics.Settings{Material: 0.5, CapturePrior: 0.5}.Wrap(&fixed{})
	out := evaluate(t, ev, s)[0]
	// Both sides have a General and a Soldier on the board: the material
	// lead is 0, so the blend halves the inner values.
	n := float32(len(out.Actions)) / 100
	if want := []float32{0.5 * n, -0.5 * n}; !slices.Equal(out.Values, want) {
		t.Errorf("values %v, want %v", out.Values, want)
	}
	var sum float32
	capture, best := -1, 0
	for j, p := range out.Policy {
		sum += p
		if s.ActionString(out.Actions[j]) == "e5f5" {
			capture = j
		}
		if p > out.Policy[best] {
			best = j
		}
	}
	if math.Abs(float64(sum-1)) > 1e-5 {
		t.Errorf("priors sum to %v", sum)
	}
	if capture < 0 || best != capture {
		t.Errorf("the capture e5f5 (index %d) should have the largest prior, the largest is %s", capture, s.ActionString(out.Actions[best]))
	}
}

func TestGamesWithoutMaterialPassThrough(t *testing.T) {
	s := tictactoe.Game{}.Start()
	plain := evaluate(t, &fixed{}, s)[0]
	aided := evaluate(t, tactics.Play.Wrap(&fixed{}), s)[0]
	if !slices.Equal(plain.Policy, aided.Policy) || !slices.Equal(plain.Values, aided.Values) {
		t.Errorf("tic-tac-toe changed by the aids: %v %v, want %v %v", aided.Policy, aided.Values, plain.Policy, plain.Values)
	}
	if tactics.Resolve(s) != nil {
		t.Error("Resolve of a game without captures should be nil")
	}
}

func TestSettings(t *testing.T) {
	tests := []struct {
		s       tactics.Settings
		str     string
		invalid bool
	}{
		{tactics.Settings{}, "no tactical aids", false},
		{tactics.Play, "quiescence, material 0.5, capture priors 0.5", false},
		{tactics.Settings{Quiescence: true, ShiftValues: true}, "quiescence (values shifted by material)", false},
		{tactics.Settings{Material: 1.5}, "", true},
		{tactics.Settings{CapturePrior: -0.1}, "", true},
		{tactics.Settings{Material: math.NaN()}, "", true},
		{tactics.Settings{ShiftValues: true}, "", true},
	}
	for _, tc := range tests {
		err := tc.s.Validate()
		if (err != nil) != tc.invalid {
			t.Errorf("%+v: Validate = %v", tc.s, err)
		}
		if !tc.invalid && tc.s.String() != tc.str {
			t.Errorf("%+v: String = %q, want %q", tc.s, tc.s.String(), tc.str)
		}
	}
	inner := &fixed{}
	if (tactics.Settings{}).Wrap(inner) != mcts.Evaluator(inner) {
		t.Error("Wrap with every aid off should return the inner evaluator")
	}
}

// TestConcurrentEvaluate runs one Evaluator from several goroutines (under
// -race in CI).
func TestConcurrentEvaluate(t *testing.T) {
	ev := tactics.Play.Wrap(mcts.UniformEvaluator{})
	states := randomStates(trench.Game, 32, 3)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]mcts.Evaluation, 8)
			batch := states[w*8 : w*8+8]
			for i, s := range batch {
				out[i].Actions = s.LegalActions(nil)
			}
			for range 5 {
				if err := ev.Evaluate(batch, out); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func benchmarkResolve(b *testing.B, g engine.Game) {
	states := randomStates(g, 256, 5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tactics.Resolve(states[i%len(states)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkResolveTrench measures one leaf's capture search in Trench.
func BenchmarkResolveTrench(b *testing.B) { benchmarkResolve(b, trench.Game) }

// BenchmarkResolveTrichess measures one leaf's capture search in Trichess.
func BenchmarkResolveTrichess(b *testing.B) { benchmarkResolve(b, trichess.Game) }

// MaterialLeads and MaterialValues write into the caller's slice,
// whatever it held, and allocate nothing when it has room; a game
// without material gets none.
func TestMaterialLeadsInto(t *testing.T) {
	tests := []struct {
		game    engine.Game
		players int // 0: no material
	}{
		{trench.Game, 2},
		{trichess.Game, 3},
		{tictactoe.Game{}, 0},
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range tests {
		for range 30 {
			s := tc.game.Start()
			for ply := rng.IntN(40); ply > 0 && !s.Over(); ply-- {
				acts := s.LegalActions(nil)
				s.Play(acts[rng.IntN(len(acts))])
			}
			var want []float32
			if m, ok := s.(engine.Material); ok {
				mat := m.Materials(nil)
				for p, own := range mat {
					var others float32
					for o, x := range mat {
						if o != p {
							others += x
						}
					}
					want = append(want, own-others/float32(len(mat)-1))
				}
			}
			if len(want) != tc.players {
				t.Fatalf("%s: %d materials, want %d", tc.game.Name(), len(want), tc.players)
			}
			dst := []float32{9, 9, 9, 9}
			got := tactics.MaterialLeads(s, dst)
			if !slices.Equal(got, want) {
				t.Fatalf("%s %s: leads %v, want %v", tc.game.Name(), s, got, want)
			}
			if len(got) > 0 && &got[0] != &dst[0] {
				t.Errorf("%s: leads not written into the caller's slice", tc.game.Name())
			}
			values := tactics.MaterialValues(s, dst)
			for p, v := range values {
				if w := math.Tanh(float64(want[p]) / tactics.MaterialScale); math.Abs(float64(v)-w) > 1e-6 {
					t.Fatalf("%s %s: player %d's value %v, want %v", tc.game.Name(), s, p, v, w)
				}
			}
			if len(values) != len(want) {
				t.Errorf("%s: %d values, want %d", tc.game.Name(), len(values), len(want))
			}
			if n := testing.AllocsPerRun(20, func() {
				dst = tactics.MaterialLeads(s, dst)
				dst = tactics.MaterialValues(s, dst)
			}); n != 0 {
				t.Errorf("%s: %v allocations with room in dst, want none", tc.game.Name(), n)
			}
		}
	}
}

// TestCapturePriorsDoNotAllocate checks that capture priors, computed at
// every leaf of a search with the aids, allocate nothing once their
// destination has room.
func TestCapturePriorsDoNotAllocate(t *testing.T) {
	s := trench.Game.Start()
	for _, a := range []int{0, 1, 2} {
		s.Play(s.LegalActions(nil)[a])
	}
	acts := s.LegalActions(nil)
	dst := tactics.CapturePriors(s, acts, nil)
	if allocs := testing.AllocsPerRun(100, func() { dst = tactics.CapturePriors(s, acts, dst) }); allocs != 0 {
		t.Errorf("%v allocations a call", allocs)
	}
}
