package nnue

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"trench/engine/trench"
)

// randomPositions plays games of random moves from the start and
// returns every position reached, n at least.
func randomPositions(n int, seed uint64) []trench.Position {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []trench.Position
	var moves []trench.Move
	for len(out) < n {
		p := trench.StartPosition()
		for {
			out = append(out, p)
			moves = p.GenerateMoves(moves)
			if len(moves) == 0 {
				break
			}
			p.Play(moves[r.IntN(len(moves))])
		}
	}
	return out
}

// withPSQT gives net a linear path of random weights drawn from seed,
// each about a third of a logit, and returns it.
func withPSQT(net *Net, seed uint64) *Net {
	r := rand.New(rand.NewPCG(seed, 99))
	net.PSQT = make([]float32, net.set().Inputs)
	for i := range net.PSQT {
		net.PSQT[i] = float32(r.NormFloat64() / 3)
	}
	return net
}

func mustEvaluator(t testing.TB, net *Net) *Evaluator {
	t.Helper()
	e, err := NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestNewEvaluatorRefuses(t *testing.T) {
	net, _ := New(16, 1)
	net.FTBias = net.FTBias[:15]
	if _, err := NewEvaluator(net); err == nil {
		t.Error("NewEvaluator took a net with 15 biases for 16 hidden units")
	}
	net, _ = New(16, 1)
	net.Out[31] = float32(math.Inf(1))
	if _, err := NewEvaluator(net); err == nil {
		t.Error("NewEvaluator took a net with an infinite weight")
	}
}

func TestStartIsSymmetric(t *testing.T) {
	p := trench.StartPosition()
	black := Features(&p, trench.Black, nil)
	white := Features(&p, trench.White, nil)
	if !slices.Equal(black, white) {
		t.Fatalf("the start position's features differ by perspective:\nblack %v\nwhite %v", black, white)
	}
	if len(black) != 35 {
		t.Errorf("the start position has %d features, want 35", len(black))
	}
}

func TestFeatures(t *testing.T) {
	p, err := trench.ParseFEN("5kcg/4p1sc/3Ppp1k/2ppP1ps/SP1s4/KS1P4/CK1P4/GC1S4 b 3 2 0 12")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []trench.Color{trench.Black, trench.White} {
		f := Features(&p, c, nil)
		if !slices.IsSorted(f) {
			t.Errorf("%v: features not in ascending order: %v", c, f)
		}
		n := len(f)
		if own, opp := f[n-3], f[n-2]; own != int32(640+p.Score(c)) || opp != int32(665+p.Score(c.Other())) {
			t.Errorf("%v: score features %d %d", c, own, opp)
		}
		if q := f[n-1]; q != 690 {
			t.Errorf("%v: quiet feature %d, want 690", c, q)
		}
		for _, x := range f[:n-3] {
			rel, k, s := x/320, trench.Kind(x%320/64), int(x%64)
			if c == trench.White {
				s = 63 - s
			}
			pc, pk, ok := p.PieceAt(trench.Square(s))
			if !ok || pk != k || (pc == c) != (rel == 0) {
				t.Errorf("%v: feature %d names a piece that is not on the board", c, x)
			}
		}
	}
}

func TestWhiteView(t *testing.T) {
	for _, pc := range []trench.Color{trench.Black, trench.White} {
		for k := trench.Soldier; k <= trench.General; k++ {
			for s := range 64 {
				b, w := pieceFeature(trench.Black, pc, k, s), pieceFeature(trench.White, pc, k, s)
				if got := whiteView(b); got != w {
					t.Fatalf("whiteView(%d) = %d, want %d (%v %v on %d)", b, got, w, pc, k, s)
				}
			}
		}
	}
}

func TestValueTable(t *testing.T) {
	const slots = 8
	v := make(valueTable, slots)
	type step struct {
		put   bool
		key   uint64
		value int
		found bool // for a get: whether value is found
	}
	for i, st := range []step{
		{key: 5},                                    // empty
		{put: true, key: 5, value: -1234},           // slot 5
		{key: 5, value: -1234, found: true},         // found
		{key: 1<<32 | 5},                            // same slot, other top bits
		{key: 1<<20 | 5, value: -1234, found: true}, // bits between the slot's and the top 32 are not kept
		{put: true, key: 1<<40 | 13, value: 77},     // replaces slot 5
		{key: 5},                                    // gone
		{key: 1<<40 | 13, value: 77, found: true},   // found
		{put: true, key: 6, value: 0},               // top bits 0 and value 0: stored as empty
		{key: 6},                                    // a miss, never a wrong value
		{put: true, key: 0xffffffff_00000007, value: 1 << 30},
		{key: 0xffffffff_00000007, value: 1 << 30, found: true},
		{put: true, key: 3, value: -(1 << 31)},
		{key: 3, value: -(1 << 31), found: true},
	} {
		if st.put {
			v.put(st.key, st.value)
			continue
		}
		got, ok := v.get(st.key)
		if ok != st.found || (ok && got != st.value) {
			t.Errorf("step %d: get(%#x) = %d, %v, want %d, %v", i, st.key, got, ok, st.value, st.found)
		}
	}
}

func TestEvaluateRemembers(t *testing.T) {
	net, err := New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := mustEvaluator(t, net)
	p := trench.StartPosition()
	e.SetRoot(&p)
	want := Centipoints(e.Output(0, &p))
	if got := e.Evaluate(0, &p); got != want {
		t.Fatalf("Evaluate %d, Centipoints of the output %d", got, want)
	}
	// A value planted for the key is answered without the net.
	e.values.put(p.SearchKey(), want+1)
	if got := e.Evaluate(0, &p); got != want+1 {
		t.Errorf("Evaluate %d after planting %d: the remembered value is not used", got, want+1)
	}
}

func TestFeatureClamps(t *testing.T) {
	for _, tc := range []struct {
		quiet, want int32
	}{{0, 690}, {4, 690}, {5, 691}, {49, 699}, {60, 699}} {
		if got := quietFeature(int(tc.quiet)); got != tc.want {
			t.Errorf("quietFeature(%d) = %d, want %d", tc.quiet, got, tc.want)
		}
	}
	if own, opp := scoreFeatures(30, 24); own != 664 || opp != 689 {
		t.Errorf("scoreFeatures(30, 24) = %d, %d, want 664, 689", own, opp)
	}
}

// outputTolerance bounds the difference of an evaluator's output from
// the same sum over its accumulators in float64.
const outputTolerance = 1e-4

// quantizationBound bounds the difference of an evaluator's output from
// the float32 net's (Net.Evaluate): each accumulator is off by at most
// half a quantum for the bias and for each of at most MaxActive rows,
// and clamp(x, 0, 1)² changes at most twice as fast as x.
func quantizationBound(net *Net, q *quantized) float64 {
	var out float64
	for _, w := range net.Out {
		out += math.Abs(float64(w))
	}
	return out*float64(net.set().MaxActive+1)/float64(q.scale) + outputTolerance
}

// checkPath compares e's accumulators at ply with a fresh sum of the
// quantized rows of each perspective's features, exactly, and the
// output for perspective mover with the same sum over those
// accumulators in float64; it returns the output.
func checkPath(t *testing.T, e *path, ply, mover int, feats func(c int) []int32) float32 {
	t.Helper()
	got := e.value(ply, mover)
	h := e.net.Hidden
	for c := range e.persp {
		fs := feats(c)
		acc := e.at(ply, c)
		for j := range h {
			want := int64(e.q.bias[j])
			for _, f := range fs {
				want += int64(e.q.ft[int(f)*h+j])
			}
			if int64(acc[j]) != want {
				t.Fatalf("%s: ply %d, perspective %d's accumulator[%d] = %d, fresh %d", e.k.name, ply, c, j, acc[j], want)
			}
		}
	}
	want := float64(e.net.OutBias) + float64(e.net.linear(feats(mover)))
	for i := range e.persp {
		c := (mover + i) % e.persp
		for j, a := range e.at(ply, c) {
			v := min(max(float64(a)/float64(e.q.scale), 0), 1)
			want += v * v * float64(e.net.Out[i*h+j])
		}
	}
	if math.Abs(float64(got)-want) > outputTolerance*max(1, math.Abs(want)) {
		t.Fatalf("%s: ply %d: output %v, its accumulators' %v", e.k.name, ply, got, want)
	}
	return got
}

// checkEvaluator compares e's accumulators at ply and its output with a
// fresh computation of p (checkPath), and the output with the float32
// net's within quantizationBound.
func checkEvaluator(t *testing.T, e *Evaluator, ply int, p *trench.Position) {
	t.Helper()
	got := checkPath(t, &e.path, ply, int(p.SideToMove()), func(c int) []int32 { return Features(p, trench.Color(c), nil) })
	if y := e.Output(ply, p); y != got {
		t.Fatalf("%s: ply %d: Output %v, the mover's value %v", e.k.name, ply, y, got)
	}
	if want := e.net.Evaluate(p); math.Abs(float64(got-want)) > quantizationBound(e.net, e.q) {
		t.Fatalf("%s: ply %d: output %v, reference %v", e.k.name, ply, got, want)
	}
	// Evaluate answers from the values it remembers where it can: a
	// position reached again, by another path, must get its own value.
	if v, want := e.Evaluate(ply, p), Centipoints(got); v != want {
		t.Fatalf("%s: ply %d: Evaluate %d, Centipoints of the output %d", e.k.name, ply, v, want)
	}
}

// allKernels are the paths of this CPU, fastest first, the generic one
// last.
func allKernels() []*kernels {
	return append(slices.Clone(available), generic)
}

func TestIncrementalAlongGames(t *testing.T) {
	for _, h := range []int{16, 40, 128, -40} {
		// A negative size is the net of that size with the linear path.
		net, err := New(max(h, -h), uint64(h))
		if err != nil {
			t.Fatal(err)
		}
		if h < 0 {
			withPSQT(net, 1)
		}
		for _, k := range allKernels() {
			e := mustEvaluator(t, net)
			e.k = k
			r := rand.New(rand.NewPCG(uint64(max(h, -h)), 2))
			var moves []trench.Move
			positions := 0
			for game := 0; game < 20; game++ {
				p := trench.StartPosition()
				e.SetRoot(&p)
				for ply := 0; ; ply++ {
					// Evaluate only some positions, so that the lazy
					// updates span several plies.
					if r.IntN(3) == 0 || ply == 0 {
						checkEvaluator(t, e, ply, &p)
						positions++
					}
					moves = p.GenerateMoves(moves)
					if len(moves) == 0 {
						break
					}
					m := moves[r.IntN(len(moves))]
					child := p
					child.Play(m)
					e.Push(ply, &p, &child, m)
					p = child
				}
			}
			if positions < 1000 {
				t.Errorf("%s: only %d positions checked", k.name, positions)
			}
		}
	}
}

// walk searches a random tree below p, the position at ply: a few
// children of each node, each evaluated or not, so that the stack is
// reused as a search reuses it.
func walk(t *testing.T, e *Evaluator, r *rand.Rand, p *trench.Position, ply, depth int, checked *int) {
	if r.IntN(2) == 0 {
		checkEvaluator(t, e, ply, p)
		*checked++
	}
	if depth == 0 {
		return
	}
	moves := p.GenerateMoves(nil)
	for i := 0; i < 3 && len(moves) > 0; i++ {
		m := moves[r.IntN(len(moves))]
		child := *p
		child.Play(m)
		e.Push(ply, p, &child, m)
		walk(t, e, r, &child, ply+1, depth-1, checked)
	}
}

func TestIncrementalAlongSearchPaths(t *testing.T) {
	plain, err := New(64, 3)
	if err != nil {
		t.Fatal(err)
	}
	linear, err := New(64, 3)
	if err != nil {
		t.Fatal(err)
	}
	withPSQT(linear, 2)
	roots := randomPositions(200, 4)
	for i, k := range append(allKernels(), best) {
		// The last pass is the best path's with the linear path.
		net := plain
		if i == len(allKernels()) {
			net = linear
		}
		e := mustEvaluator(t, net)
		e.k = k
		r := rand.New(rand.NewPCG(5, 6))
		checked := 0
		for i := 0; i < len(roots); i += 10 {
			e.SetRoot(&roots[i])
			walk(t, e, r, &roots[i], 0, 5, &checked)
		}
		if checked < 1000 {
			t.Errorf("%s: only %d positions checked", k.name, checked)
		}
	}
}

func TestCentipoints(t *testing.T) {
	for _, tc := range []struct {
		y    float32
		want int
	}{
		{0, 0}, {1, 400}, {-0.5, -200}, {0.00126, 1}, {1e6, MaxEval}, {-1e6, -MaxEval},
		{float32(math.Inf(1)), MaxEval}, {float32(math.NaN()), 0},
	} {
		if got := Centipoints(tc.y); got != tc.want {
			t.Errorf("Centipoints(%v) = %d, want %d", tc.y, got, tc.want)
		}
	}
}

func TestCheckWeights(t *testing.T) {
	tiny := func(h int) *Net {
		return &Net{Set: Trench, Hidden: h, FT: make([]float32, Trench.Inputs*h), FTBias: make([]float32, h), Out: make([]float32, Trench.Perspectives*h)}
	}
	inf := tiny(2)
	inf.Out[3] = float32(math.Inf(-1))
	short := tiny(2)
	short.FTBias = short.FTBias[:1]
	linear := tiny(2)
	linear.PSQT = make([]float32, 5)
	tests := []struct {
		name string
		net  *Net
		want string // "" for a net CheckWeights takes
	}{
		{"tiny", tiny(2), ""},
		{"no hidden units", tiny(0), "hidden size 0"},
		{"short biases", short, "FTBias has 1 weights, want 2"},
		{"short linear path", linear, "PSQT has 5 weights"},
		{"infinite", inf, "Out[3] is -Inf, not a finite number"},
	}
	for _, tc := range tests {
		err := tc.net.CheckWeights()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: CheckWeights() = %v, want %q", tc.name, err, tc.want)
		}
	}
	// The evaluators' check also wants the hidden size in range.
	if err := tiny(2).check(); err == nil || !strings.Contains(err.Error(), "hidden size 2 is not in") {
		t.Errorf("check() of 2 hidden units = %v", err)
	}
	if err := tiny(MinHidden).check(); err != nil {
		t.Errorf("check() of %d hidden units = %v", MinHidden, err)
	}
}
