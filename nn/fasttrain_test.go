package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"
)

// newBackendTrainer starts a trainer on a copy of w with that backend.
func newBackendTrainer(t testing.TB, w *Weights, b Backend, threads int) *Trainer {
	t.Helper()
	tc := DefaultTrainConfig()
	tc.Backend, tc.Threads = b, threads
	tr, err := NewTrainer(w.Clone(), tc)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// gradFloor is the absolute difference below which compareTrainers
// accepts any two values, divided by its relative tolerance. gorgonia's
// log-softmax subtracts each row's maximum; the gradients flowing into
// that maximum cancel exactly in the fast pass but leave float32
// rounding (w_i × a few 1e-7 over 2560 actions) on each row's largest
// logit in gorgonia's. With the 1e-4 tolerance this floor lets through
// differences under 1e-6, a hundredth of the smallest gradients the
// tests see.
const gradFloor = 0.01

// compareTrainers reports every weight, running statistic and momentum
// buffer of got that differs from want's by more than tol (relative, see
// worstRelative, with differences under tol·gradFloor accepted).
// Momentum buffers hold the gradients (plus weight decay) summed over the
// steps, so they check the backward pass far more tightly than the
// weights, which one step barely moves.
func compareTrainers(t *testing.T, what string, got, want *Trainer, tol float64) {
	t.Helper()
	gc, err := got.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	wc, err := want.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	worst, worstName := 0.0, ""
	check := func(name string, g, w []float32) {
		r := worstRelativeFloor(g, w, gradFloor)
		if math.IsNaN(r) || r > tol {
			t.Errorf("%s: %s differs by %.3g relative (> %g): got %v…, want %v…", what, name, r, tol, g[:min(3, len(g))], w[:min(3, len(w))])
		}
		if r > worst {
			worst, worstName = r, name
		}
	}
	for i := range wc.Tensors {
		check(wc.Tensors[i].Name, gc.Tensors[i].Data, wc.Tensors[i].Data)
	}
	for i := range wc.Optimizer {
		check(wc.Optimizer[i].Name, gc.Optimizer[i].Data, wc.Optimizer[i].Data)
	}
	t.Logf("%s: worst relative difference %.3g (%s)", what, worst, worstName)
}

// worstRelativeFloor is worstRelative with differences measured against
// at least floor.
func worstRelativeFloor(got, want []float32, floor float64) float64 {
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(float64(v)))
	}
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		worst = max(worst, d/max(math.Abs(float64(want[i])), 0.01*scale, floor))
	}
	return worst
}

func compareLosses(t *testing.T, what string, got, want Losses, tol float64) {
	t.Helper()
	for _, l := range []struct {
		name      string
		got, want float64
	}{{"policy", got.Policy, want.Policy}, {"value", got.Value, want.Value}, {"score", got.Score, want.Score}, {"L2", got.L2, want.L2}, {"total", got.Total, want.Total}} {
		if d := math.Abs(l.got-l.want) / max(math.Abs(l.want), 1e-6); !(d <= tol) {
			t.Errorf("%s: %s loss %.7g, gorgonia %.7g (relative difference %.3g)", what, l.name, l.got, l.want, d)
		}
	}
}

// TestFastStepMatchesGorgonia trains the same weights with both backends
// from batch-norm statistics far from the identity, with random
// per-sample weights, and compares losses, weights, running statistics
// and momentum buffers after one step and after several; on one thread
// also with the im2col rows laid out again in the backward pass
// (keptColumns 0).
func TestFastStepMatchesGorgonia(t *testing.T) {
	cfgs := testConfigs(t)
	names := make([]string, 0, len(cfgs))
	for name := range cfgs {
		names = append(names, name)
	}
	sort.Strings(names)
	all := keptColumns
	defer func() { keptColumns = all }()
	for _, name := range names {
		for _, run := range []struct {
			threads, kept int
		}{{1, all}, {2, all}, {1, 0}} {
			threads := run.threads
			t.Run(fmt.Sprintf("%s/threads=%d/kept=%t", name, threads, run.kept > 0), func(t *testing.T) {
				keptColumns = run.kept
				c := cfgs[name]
				w := randomWeights(t, c, 5)
				ref := newBackendTrainer(t, w, BackendGorgonia, 0)
				fast := newBackendTrainer(t, w, BackendFast, threads)
				const tol = 1e-4
				for step := 0; step < 5; step++ {
					b := fixedBatch(c, 5+step, uint64(20+step))
					if step == 3 {
						b.Weight = nil
					}
					want, err := ref.Step(b)
					if err != nil {
						t.Fatal(err)
					}
					got, err := fast.Step(b)
					if err != nil {
						t.Fatal(err)
					}
					what := fmt.Sprintf("step %d", step)
					compareLosses(t, what, got, want, tol)
					// One step must agree to tol. Later steps start from
					// weights, momentum and running statistics that
					// already differ by rounding, which training
					// amplifies a little; 5 steps get 3×tol.
					switch step {
					case 0:
						compareTrainers(t, what, fast, ref, tol)
					case 4:
						compareTrainers(t, what, fast, ref, 3*tol)
					}
				}
				if fast.Weights().Get("stem/bn/var")[0] == w.Get("stem/bn/var")[0] {
					t.Error("training did not move the running variance")
				}
			})
		}
	}
}

// TestFastStepDetectsChanges makes sure the comparison can fail: a
// gorgonia step on a batch whose score target, value offset or score
// offset differs in one sample must not match the fast step on the
// original batch.
func TestFastStepDetectsChanges(t *testing.T) {
	for _, tc := range []struct {
		what   string
		config string
		change func(b *Batch)
	}{
		{"score target", "odd", func(b *Batch) { b.Score = slices.Clone(b.Score); b.Score[0] += 5 }},
		{"value offset", "odd material", func(b *Batch) { b.ValueOffset = slices.Clone(b.ValueOffset); b.ValueOffset[1] += 1 }},
		{"score offset", "odd material", func(b *Batch) { b.ScoreOffset = slices.Clone(b.ScoreOffset); b.ScoreOffset[2] += 5 }},
		{"policy offset", "odd capture", func(b *Batch) { b.PolicyOffset = slices.Clone(b.PolicyOffset); b.PolicyOffset[3] += 2 }},
		{"policy offset, spatial head", "odd cells capture", func(b *Batch) {
			b.PolicyOffset = slices.Clone(b.PolicyOffset)
			b.PolicyOffset[7] += 2
		}},
	} {
		c := testConfigs(t)[tc.config]
		w := randomWeights(t, c, 5)
		ref := newBackendTrainer(t, w, BackendGorgonia, 0)
		fast := newBackendTrainer(t, w, BackendFast, 1)
		b := fixedBatch(c, 6, 1)
		changed := b
		tc.change(&changed)
		if _, err := ref.Step(changed); err != nil {
			t.Fatal(err)
		}
		if _, err := fast.Step(b); err != nil {
			t.Fatal(err)
		}
		gc, err := fast.Checkpoint()
		if err != nil {
			t.Fatal(err)
		}
		wc, err := ref.Checkpoint()
		if err != nil {
			t.Fatal(err)
		}
		diff := 0.0
		for i := range wc.Optimizer {
			diff = max(diff, worstRelative(gc.Optimizer[i].Data, wc.Optimizer[i].Data))
		}
		if diff < 1e-3 {
			t.Errorf("a different %s changed the momentum buffers by only %.3g relative", tc.what, diff)
		}
	}
}

func TestOverfitsSmallSetFast(t *testing.T) {
	for _, name := range []string{"tiny", "tiny spatial", "tiny cells", "tiny material"} {
		t.Run(name, func(t *testing.T) { overfitSmallSet(t, testConfigs(t)[name], BackendFast) })
	}
}

func TestTrainConfigErrors(t *testing.T) {
	w, err := NewWeights(testConfigs(t)["odd"], rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*TrainConfig)
		want   string
	}{
		{"backend", func(tc *TrainConfig) { tc.Backend = 7 }, "Backend(7)"},
		{"threads", func(tc *TrainConfig) { tc.Threads = -1 }, "-1 training threads"},
	} {
		cfg := DefaultTrainConfig()
		tc.change(&cfg)
		if _, err := NewTrainer(w, cfg); err == nil || !containsAll(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
}

func TestFastStepDoesNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts are distorted by coverage and the race detector")
	}
	for _, name := range []string{"odd", "tiny spatial", "odd cells", "odd material"} {
		for _, threads := range []int{1, 2} {
			c := testConfigs(t)[name]
			tr := newBackendTrainer(t, randomWeights(t, c, 1), BackendFast, threads)
			b := fixedBatch(c, 16, 1)
			if _, err := tr.Step(b); err != nil {
				t.Fatal(err)
			}
			a := testing.AllocsPerRun(10, func() {
				if _, err := tr.Step(b); err != nil {
					t.Fatal(err)
				}
			})
			if a != 0 {
				t.Errorf("%s, %d threads: %v allocations per step", name, threads, a)
			}
		}
	}
}

// TestFastStepHelpersStop checks the helper goroutines of a trainer that
// splits its products end once the trainer is garbage.
func TestFastStepHelpersStop(t *testing.T) {
	c := testConfigs(t)["odd"]
	w := randomWeights(t, c, 1)
	// Earlier tests' trainers may still have helpers that stop at a later
	// collection: count from a settled number.
	before := settledGoroutines()
	func() {
		// The trainers are kept until the helpers are counted: a
		// collection in the loop would stop the earlier ones' helpers.
		var trainers []*Trainer
		for range 10 {
			tr := newBackendTrainer(t, w, BackendFast, 3)
			if _, err := tr.Step(fixedBatch(c, 4, 1)); err != nil {
				t.Fatal(err)
			}
			trainers = append(trainers, tr)
		}
		if n := runtime.NumGoroutine(); n < before+20 {
			t.Fatalf("%d goroutines before, %d with 10 trainers of 3 threads: no helpers started", before, n)
		}
		runtime.KeepAlive(trainers)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before, %d after the trainers became garbage", before, n)
	}
}

// settledGoroutines collects garbage until the number of goroutines has
// stopped falling (for at most 5 s), and returns it.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for same, deadline := 0, time.Now().Add(5*time.Second); same < 5 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if m := runtime.NumGoroutine(); m < n {
			n, same = m, 0
		} else {
			same++
		}
	}
	return n
}

// TestValueBaseStart checks that a new net with a value base starts with
// outputs that carry nothing of their own: win, draw and loss equally
// likely and a zero score, whatever the input, so that its values are
// exactly its offsets'.
func TestValueBaseStart(t *testing.T) {
	for _, name := range []string{"tiny material", "odd material"} {
		_, out := newNetOutputs(t, name)
		for i, v := range out.value {
			if math.Abs(float64(v)-1.0/3) > 1e-7 {
				t.Fatalf("%s: value output %d is %v, want 1/3", name, i, v)
			}
		}
		for i, v := range out.score {
			if v != 0 {
				t.Fatalf("%s: score output %d is %v, want 0", name, i, v)
			}
		}
	}
}

// newNetOutputs returns a new net of the test config name and its
// outputs for 5 random inputs.
func newNetOutputs(t *testing.T, name string) (*Weights, outputs) {
	t.Helper()
	c := testConfigs(t)[name]
	w, err := NewWeights(c, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	inf, err := NewInference(w)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	out := newOutputs(c, n)
	inf.Forward(randomInput(c, n, 4), n, out.policy, out.value, out.score)
	return w, out
}

// TestPolicyBaseStart checks that a new net with a policy base starts with
// all-zero policy outputs, whatever the input, so that its priors are
// exactly its offsets', while its trunk starts random as any net's.
func TestPolicyBaseStart(t *testing.T) {
	for _, name := range []string{"odd capture", "odd cells capture"} {
		w, out := newNetOutputs(t, name)
		for i, v := range out.policy {
			if v != 0 {
				t.Fatalf("%s: policy output %d is %v, want 0", name, i, v)
			}
		}
		if slices.Max(w.Get("stem/conv")) == 0 {
			t.Errorf("%s: the stem starts at zero", name)
		}
	}
}

// TestBatchOffsetsChecked checks that a batch's offsets must match the
// net's value and policy bases.
func TestBatchOffsetsChecked(t *testing.T) {
	plain, based := testConfigs(t)["odd"], testConfigs(t)["odd material"]
	for _, tc := range []struct {
		what string
		c    Config
		b    func() Batch
		want string
	}{
		{"offsets for a net without a base", plain, func() Batch {
			b := fixedBatch(plain, 4, 1)
			b.ValueOffset, b.ScoreOffset = make([]float32, 12), make([]float32, 12)
			return b
		}, "no value base"},
		{"no offsets for a material net", based, func() Batch {
			b := fixedBatch(based, 4, 1)
			b.ValueOffset, b.ScoreOffset = nil, nil
			return b
		}, "needs 4×3 each"},
		{"short score offsets", based, func() Batch {
			b := fixedBatch(based, 4, 1)
			b.ScoreOffset = b.ScoreOffset[:11]
			return b
		}, "12 value and 11 score offsets"},
		{"policy offsets for a net without a base", plain, func() Batch {
			b := fixedBatch(plain, 4, 1)
			b.PolicyOffset = make([]float32, 4*plain.Actions)
			return b
		}, "no policy base"},
		{"no policy offsets for a capture net", capture(plain), func() Batch {
			b := fixedBatch(plain, 4, 1)
			b.PolicyOffset = nil
			return b
		}, `0 policy offsets; the net's policy base "capture" needs 4×30`},
		{"short policy offsets", capture(plain), func() Batch {
			b := fixedBatch(capture(plain), 4, 1)
			b.PolicyOffset = b.PolicyOffset[:119]
			return b
		}, "119 policy offsets"},
	} {
		for _, backend := range []Backend{BackendFast, BackendGorgonia} {
			tr := newBackendTrainer(t, randomWeights(t, tc.c, 1), backend, 1)
			if _, err := tr.Step(tc.b()); err == nil || !containsAll(err.Error(), tc.want) {
				t.Errorf("%s, %v: error %v, want one saying %q", tc.what, backend, err, tc.want)
			}
		}
	}
}

// SetThreads changes how many goroutines later steps split their products
// over, capped by the trainer's Threads, without changing what the steps
// compute.
func TestSetThreads(t *testing.T) {
	c := testConfigs(t)["tiny spatial"]
	w := randomWeights(t, c, 7)
	one := newBackendTrainer(t, w, BackendFast, 1)
	switching := newBackendTrainer(t, w, BackendFast, 3)
	for step, tc := range []struct{ set, parts int }{
		{0, 1}, {3, 3}, {2, 2}, {10, 3}, {1, 1}, {-4, 1}, {3, 3},
	} {
		b := fixedBatch(c, 64, uint64(40+step))
		if _, err := one.Step(b); err != nil {
			t.Fatal(err)
		}
		switching.SetThreads(tc.set)
		if _, err := switching.Step(b); err != nil {
			t.Fatal(err)
		}
		if got := switching.fast.mm.parts; got != tc.parts {
			t.Errorf("step %d, SetThreads(%d) on 3 threads: products split in %d parts, want %d", step, tc.set, got, tc.parts)
		}
	}
	compareTrainers(t, "switching threads", switching, one, 1e-6)

	single := newBackendTrainer(t, w, BackendFast, 0)
	single.SetThreads(4)
	if _, err := single.Step(fixedBatch(c, 4, 1)); err != nil {
		t.Fatal(err)
	}
	if got := single.fast.mm.parts; got != 1 {
		t.Errorf("SetThreads(4) on a trainer made for one thread: %d parts, want 1", got)
	}
}

// TestExpShifted checks the softmax's exponential against math.Exp over
// its whole range, at the edges, and for NaN.
func TestExpShifted(t *testing.T) {
	const m = 1.5
	z := make([]float32, 2_000_001)
	for i := range z {
		z[i] = m + float32(-87.3*float64(i)/float64(len(z)-1))
	}
	x := slices.Clone(z)
	expShifted(z, m)
	worst := 0.0
	for i, got := range z {
		want := math.Exp(float64(x[i] - m))
		if r := math.Abs(float64(got)-want) / want; r > worst {
			worst = r
		}
	}
	// Two units in the last place of a float32 are 2.4e-7 relative.
	if worst > 2.4e-7 {
		t.Errorf("expShifted differs from math.Exp by %.3g relative, want ≤ 2.4e-7", worst)
	}
	nan := float32(math.NaN())
	edges := []float32{0, float32(math.Copysign(0, -1)), -88, float32(math.Inf(-1)), nan}
	expShifted(edges, 0)
	if want := []float32{1, 1, 0, 0}; !slices.Equal(edges[:4], want) || edges[4] == edges[4] {
		t.Errorf("expShifted of 0, −0, −88, −∞, NaN: got %v, want %v and NaN", edges, want)
	}
}

// TestReluMask checks the branch-free mask against the branch it
// replaced, including NaN activations, which keep their gradient.
func TestReluMask(t *testing.T) {
	nan := float32(math.NaN())
	a := []float32{0, 1, 0.5, 0, 3e-39, nan, 2}
	d := []float32{1, -2, 3, -4, 5, 6, float32(math.Inf(-1))}
	want := []float32{0, -2, 3, 0, 5, 6, float32(math.Inf(-1))}
	reluMask(d, a)
	if !slices.Equal(d, want) {
		t.Errorf("reluMask: got %v, want %v", d, want)
	}
}
