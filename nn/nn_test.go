package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"trench/engine"
)

var trenchShape = engine.Shape{Planes: 19, Height: 8, Width: 8}

const trenchActions = 2560

func mustPreset(t testing.TB, name string) Config {
	t.Helper()
	c, err := Preset(name, trenchShape, trenchActions)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testConfigs covers the Trench tiny preset and an odd, non-square,
// three-seat net that catches layout mistakes, each also with a material
// value base (trained on offsets).
func testConfigs(t testing.TB) map[string]Config {
	return map[string]Config{
		"tiny material": material(mustPreset(t, "tiny")),
		"odd material": material(Config{Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 30, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7, ScoreScale: 10}),
		"tiny": mustPreset(t, "tiny"),
		"odd": {Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 30, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7, ScoreScale: 10},
		"tiny spatial": spatial(mustPreset(t, "tiny"), 40),
		"tiny cells":   cells(spatial(mustPreset(t, "tiny"), 40), 1000),
		"odd spatial": {Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 72, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 5, PolicyPlanes: 3, ValueChannels: 2, ValueHidden: 7, ScoreScale: 10},
		"odd capture": capture(Config{Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 30, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7, ScoreScale: 10}),
		"odd cells capture": capture(material(Config{Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 40, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 5, PolicyPlanes: 3, PolicyKernel: 1, PolicyCells: scrambledCells(40, 72), ValueChannels: 2, ValueHidden: 7, ScoreScale: 10})),
		"odd cells": {Shape: engine.Shape{Planes: 5, Height: 4, Width: 6}, Actions: 40, Channels: 6, Blocks: 2,
			Seats: 3, PolicyChannels: 5, PolicyPlanes: 3, PolicyKernel: 1, PolicyCells: scrambledCells(40, 72), ValueChannels: 2, ValueHidden: 7, ScoreScale: 10},
	}
}

// cells keeps the first n actions of c's spatial head, at scrambled cells,
// with a 1×1 output convolution.
func cells(c Config, n int) Config {
	c.PolicyCells, c.PolicyKernel = scrambledCells(n, c.Actions), 1
	c.Actions = n
	return c
}

// scrambledCells gives each of n actions its own cell among outputs, out
// of order (29 is prime to the outputs of the tests).
func scrambledCells(n, outputs int) []int32 {
	cells := make([]int32, n)
	for a := range cells {
		cells[a] = int32((a*29 + 5) % outputs)
	}
	return cells
}

// capture gives c the capture policy base.
func capture(c Config) Config {
	c.PolicyBase = PolicyBaseCapture
	return c
}

// material gives c the material value base.
func material(c Config) Config {
	c.ValueBase = ValueBaseMaterial
	return c
}

// spatial gives c a spatial policy head of that many planes.
func spatial(c Config, planes int) Config {
	c.PolicyPlanes, c.PolicyChannels = planes, c.Channels
	return c
}

// TestSpatialPolicyLayout checks the spatial head's action layout without
// trusting either implementation: with every kernel reduced to its centre
// tap and every bias and batch-norm shift zero, features stay on the one
// square the input marks, so only that square's actions, s·planes + k
// (or those whose PolicyCells lie there), may get non-zero logits — in
// gorgonia and in the fast pass alike.
func TestSpatialPolicyLayout(t *testing.T) {
	for _, name := range []string{"odd spatial", "odd cells"} {
		t.Run(name, func(t *testing.T) { spatialPolicyLayout(t, testConfigs(t)[name]) })
	}
}

func spatialPolicyLayout(t *testing.T, c Config) {
	w := randomWeights(t, c, 3)
	for i, sp := range c.specs() {
		d := w.Tensors[i].Data
		switch sp.kind {
		case kindConv:
			k := sp.shape[2]
			for j := range d {
				if k == 3 && j%9 != 4 {
					d[j] = 0
				}
			}
		case kindBias, kindBNBias, kindBNMean:
			clear(d)
		}
	}
	tr, err := NewTrainer(w, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	inf, err := NewInference(w)
	if err != nil {
		t.Fatal(err)
	}
	hw := c.Shape.Height * c.Shape.Width
	for _, sq := range []int{0, 7, hw - 1} {
		x := make([]float32, c.Shape.Size())
		for p := 0; p < c.Shape.Planes; p++ {
			x[p*hw+sq] = 1 + float32(p)
		}
		for name, logits := range map[string][]float32{"gorgonia": make([]float32, c.Actions), "fast pass": make([]float32, c.Actions)} {
			if name == "gorgonia" {
				if err := tr.EvalForward(x, 1, logits, make([]float32, c.Seats*3), make([]float32, c.Seats)); err != nil {
					t.Fatal(err)
				}
			} else {
				inf.Forward(x, 1, logits, nil, nil)
			}
			nonzero, onSquare := 0, 0
			for a, v := range logits {
				cell := a
				if c.PolicyCells != nil {
					cell = int(c.PolicyCells[a])
				}
				if cell/c.PolicyPlanes == sq {
					onSquare++
				}
				if v == 0 {
					continue
				}
				nonzero++
				if cell/c.PolicyPlanes != sq {
					t.Errorf("%s, input on square %d: action %d (square %d, plane %d) has logit %v", name, sq, a, cell/c.PolicyPlanes, cell%c.PolicyPlanes, v)
				}
			}
			if onSquare > 0 && nonzero == 0 {
				t.Errorf("%s, input on square %d: every logit is zero; the test shows nothing", name, sq)
			}
		}
	}
}

func TestPresetFor(t *testing.T) {
	tests := []struct {
		game   engine.Game
		planes int
		scale  float32
	}{
		{spatialGame{actions: 40 * 64, planes: 40}, 40, 36},
		{spatialGame{actions: 2984, planes: 0}, 0, 36},
		{spatialGame{actions: 100, planes: 40}, 0, 36},
		{scaledGame{spatialGame{actions: 2984}, 3}, 0, 3},
		{cellGame{spatialGame{actions: 100, planes: 3}}, 3, 36},
	}
	for _, tc := range tests {
		c, err := PresetFor("tiny", tc.game)
		if err != nil {
			t.Fatal(err)
		}
		if c.PolicyPlanes != tc.planes || c.ScoreScale != tc.scale {
			t.Errorf("%d actions: PresetFor gave %d policy planes and score scale %v, want %d and %v", tc.game.ActionCount(), c.PolicyPlanes, c.ScoreScale, tc.planes, tc.scale)
		}
		_, cells := tc.game.(engine.ActionCells)
		if cells != (c.PolicyCells != nil) {
			t.Errorf("%d actions: policy cells %v for a game that lays out cells: %v", tc.game.ActionCount(), c.PolicyCells != nil, cells)
		}
		if cells && c.PolicyKernel != 1 {
			t.Errorf("policy kernel %d for a game that lays out cells, want 1", c.PolicyKernel)
		}
		if cells && c.PolicyCells[7] != int32(tc.game.(engine.ActionCells).ActionCell(7)) {
			t.Errorf("policy cell 7 is %d, the game says %d", c.PolicyCells[7], tc.game.(engine.ActionCells).ActionCell(7))
		}
	}
}

// cellGame lays its actions over cells out of order (engine.ActionCells).
type cellGame struct{ spatialGame }

func (g cellGame) ActionCell(a int) int { return (a*29 + 5) % (g.planes * 64) }

func TestPolicyCellsValidate(t *testing.T) {
	base := testConfigs(t)["odd cells"]
	for _, tc := range []struct {
		name  string
		cells []int32
		want  string
	}{
		{"short", base.PolicyCells[:39], "39 policy cells for 40 actions"},
		{"negative", append(append([]int32(nil), base.PolicyCells[:39]...), -1), "policy cell -1 of action 39"},
		{"beyond", append(append([]int32(nil), base.PolicyCells[:39]...), 72), "policy cell 72 of action 39"},
		{"shared", append(append([]int32(nil), base.PolicyCells[:39]...), base.PolicyCells[0]), "of action 39 is out of range [0, 72) or taken"},
	} {
		c := base
		c.PolicyCells = tc.cells
		if err := c.Validate(); err == nil || !containsAll(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	c := base
	c.PolicyPlanes = 0
	if err := c.Validate(); err == nil {
		t.Error("policy cells without policy planes were accepted")
	}
	c = base
	c.PolicyKernel = 2
	if err := c.Validate(); err == nil || !containsAll(err.Error(), "policy kernel 2") {
		t.Errorf("policy kernel 2: error %v", err)
	}
	if err := base.Validate(); err != nil {
		t.Error(err)
	}
}

// scaledGame adds a score scale (engine.ScoreScaler).
type scaledGame struct {
	spatialGame
	scale float32
}

func (g scaledGame) ScoreScale() float32 { return g.scale }

// spatialGame is just enough of an engine.Game for PresetFor.
type spatialGame struct {
	engine.Game
	actions, planes int
}

func (g spatialGame) ActionCount() int           { return g.actions }
func (g spatialGame) FeatureShape() engine.Shape { return trenchShape }
func (g spatialGame) ActionPlanes() int          { return g.planes }

// randomWeights returns weights whose batch-norm parameters and running
// statistics are far from the identity.
func randomWeights(t testing.TB, c Config, seed uint64) *Weights {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	w, err := NewWeights(c, rng)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c.specs() {
		d := w.Tensors[i].Data
		for j := range d {
			switch s.kind {
			case kindBNScale:
				d[j] = float32(0.5 + rng.Float64())
			case kindBNBias, kindBias:
				d[j] = float32(rng.NormFloat64() * 0.3)
			case kindBNMean:
				d[j] = float32(rng.NormFloat64() * 0.5)
			case kindBNVar:
				d[j] = float32(0.3 + 2*rng.Float64())
			}
		}
	}
	return w
}

func randomInput(c Config, n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := make([]float32, n*c.Shape.Size())
	for i := range x {
		if rng.IntN(3) == 0 {
			x[i] = 1
		} else if rng.IntN(4) == 0 {
			x[i] = float32(rng.NormFloat64())
		}
	}
	return x
}

type outputs struct{ policy, value, score []float32 }

func newOutputs(c Config, n int) outputs {
	return outputs{make([]float32, n*c.Actions), make([]float32, n*c.Seats*3), make([]float32, n*c.Seats)}
}

// checkClose reports, as errors labelled with what, each of got's outputs
// whose worst relative difference from want's exceeds 1e-4 or is NaN.
func checkClose(t *testing.T, what string, got, want outputs) {
	t.Helper()
	for _, o := range []struct {
		name      string
		got, want []float32
	}{{"policy", got.policy, want.policy}, {"value", got.value, want.value}, {"score", got.score, want.score}} {
		if r := worstRelative(o.got, o.want); r > 1e-4 || math.IsNaN(r) {
			t.Errorf("%s, %s: relative difference %.3g > 1e-4 (got %v…, want %v…)", what, o.name, r, o.got[:min(3, len(o.got))], o.want[:min(3, len(o.want))])
		}
	}
}

// closeTo reports the worst relative difference, with differences of
// values near zero measured against the output's scale.
func worstRelative(got, want []float32) float64 {
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(float64(v)))
	}
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		den := max(math.Abs(float64(want[i])), 0.01*scale, 1e-6)
		worst = max(worst, d/den)
	}
	return worst
}

func TestFastPassMatchesGorgonia(t *testing.T) {
	for name, c := range testConfigs(t) {
		for _, n := range []int{1, 3, 8} {
			w := randomWeights(t, c, 7)
			tr, err := NewTrainer(w, DefaultTrainConfig())
			if err != nil {
				t.Fatal(err)
			}
			inf, err := NewInference(w)
			if err != nil {
				t.Fatal(err)
			}
			x := randomInput(c, n, uint64(n))
			want, got := newOutputs(c, n), newOutputs(c, n)
			if err := tr.EvalForward(x, n, want.policy, want.value, want.score); err != nil {
				t.Fatal(err)
			}
			inf.Forward(x, n, got.policy, got.value, got.score)
			checkClose(t, fmt.Sprintf("%s n=%d", name, n), got, want)
			// Running statistics must survive evaluation untouched.
			if got := tr.Weights().Get("stem/bn/var"); got[0] != w.Get("stem/bn/var")[0] {
				t.Errorf("%s: evaluation changed running variance: %v -> %v", name, w.Get("stem/bn/var")[0], got[0])
			}
		}
	}
}

// fixedBatch makes n random positions with random targets.
func fixedBatch(c Config, n int, seed uint64) Batch {
	rng := rand.New(rand.NewPCG(seed, 3))
	b := Batch{N: n, Input: randomInput(c, n, seed), Policy: make([]float32, n*c.Actions),
		Value: make([]float32, n*c.Seats*3), Score: make([]float32, n*c.Seats), Weight: make([]float32, n)}
	for i := 0; i < n; i++ {
		// A target spread over three "legal" actions.
		for _, a := range rng.Perm(c.Actions)[:3] {
			b.Policy[i*c.Actions+a] = 1.0 / 3
		}
		for s := 0; s < c.Seats; s++ {
			b.Value[(i*c.Seats+s)*3+rng.IntN(3)] = 1
			b.Score[i*c.Seats+s] = float32(rng.IntN(41) - 20)
		}
		b.Weight[i] = float32(0.5 + rng.Float64())
	}
	if c.ValueBase != ValueBaseNone {
		b.ValueOffset, b.ScoreOffset = make([]float32, n*c.Seats), make([]float32, n*c.Seats)
		for j := range b.ValueOffset {
			b.ValueOffset[j] = float32(rng.NormFloat64() * 1.5)
			b.ScoreOffset[j] = float32(rng.IntN(21) - 10)
		}
	}
	if c.PolicyBase != PolicyBaseNone {
		b.PolicyOffset = make([]float32, n*c.Actions)
		for j := range b.PolicyOffset {
			b.PolicyOffset[j] = float32(rng.NormFloat64() * 2)
		}
	}
	return b
}

// entropy is the weighted mean entropy of b's policy and value targets:
// the least cross-entropy a net can reach on b.
func entropy(c Config, b Batch) float64 {
	h := 0.0
	for i := 0; i < b.N; i++ {
		for _, p := range b.Policy[i*c.Actions : (i+1)*c.Actions] {
			if p > 0 {
				h -= float64(b.Weight[i]) * float64(p) * math.Log(float64(p)) / float64(b.N)
			}
		}
	}
	return h
}

func TestOverfitsSmallSet(t *testing.T) {
	for _, name := range []string{"tiny", "tiny spatial", "tiny cells", "tiny material"} {
		t.Run(name, func(t *testing.T) { overfitSmallSet(t, testConfigs(t)[name], BackendGorgonia) })
	}
}

func overfitSmallSet(t *testing.T, c Config, backend Backend) {
	w, err := NewWeights(c, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	tc := DefaultTrainConfig()
	tc.Rate = ConstantRate(0.03)
	tc.WeightDecay = 0
	tc.Backend = backend
	tr, err := NewTrainer(w, tc)
	if err != nil {
		t.Fatal(err)
	}
	b := fixedBatch(c, 32, 9)
	floor := entropy(c, b)
	var first, last Losses
	for i := 0; i < 150; i++ {
		l, err := tr.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = l
		}
		last = l
	}
	t.Logf("loss %.4f -> %.4f, floor %.4f (policy %.3f -> %.3f, value %.3f -> %.3f, score %.4f -> %.4f)",
		first.Total, last.Total, floor, first.Policy, last.Policy, first.Value, last.Value, first.Score, last.Score)
	if excess := last.Total - floor; excess > 0.1*(first.Total-floor) {
		t.Errorf("loss above the targets' entropy fell from %.4f to %.4f, less than 90%%", first.Total-floor, excess)
	}
	if tr.Steps() != 150 {
		t.Errorf("Steps() = %d after 150 steps", tr.Steps())
	}
}

// TestValueBaseConfig checks that a config names its value base, that an
// unknown one is refused, and that it survives a checkpoint.
func TestValueBaseConfig(t *testing.T) {
	c := testConfigs(t)["odd material"]
	if got, want := c.String(), "C6 B2 (5×4×6 → 30, 3 seats, material value base)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := testConfigs(t)["odd"].String(), "C6 B2 (5×4×6 → 30, 3 seats)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	bad := c
	bad.ValueBase = "score"
	if err := bad.Validate(); err == nil || !containsAll(err.Error(), `value base "score"`) {
		t.Errorf("value base score: %v", err)
	}
	w, err := NewWeights(c, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := w.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	back, err := WeightsFromCheckpoint(ck, engine.Shape{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if back.Config.ValueBase != ValueBaseMaterial {
		t.Errorf("value base %q after a checkpoint, want material", back.Config.ValueBase)
	}
}
