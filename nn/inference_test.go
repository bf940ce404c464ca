package nn

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"trench/engine"
	"trench/engine/trichess"
	gemmpkg "trench/nn/gemm"
)

// TestTrainedSnapshotMatchesGorgonia checks the running statistics a
// trainer gathers reach the fast pass: after training, Inference() and the
// eval-mode graph agree, and the snapshot ignores later steps.
func TestTrainedSnapshotMatchesGorgonia(t *testing.T) {
	for _, name := range []string{"odd", "odd spatial", "odd cells"} {
		t.Run(name, func(t *testing.T) { trainedSnapshotMatchesGorgonia(t, testConfigs(t)[name]) })
	}
}

func trainedSnapshotMatchesGorgonia(t *testing.T, c Config) {
	tr, err := NewTrainer(randomWeights(t, c, 2), DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := tr.Step(fixedBatch(c, 6, uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	inf, err := tr.Inference()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Weights().Get("stem/bn/mean")[0] == randomWeights(t, c, 2).Get("stem/bn/mean")[0] {
		t.Error("training did not move the running mean")
	}
	const n = 4
	x := randomInput(c, n, 11)
	want, got := newOutputs(c, n), newOutputs(c, n)
	if err := tr.EvalForward(x, n, want.policy, want.value, want.score); err != nil {
		t.Fatal(err)
	}
	inf.Forward(x, n, got.policy, got.value, got.score)
	if r := worstRelative(got.policy, want.policy); r > 1e-4 {
		t.Errorf("policy after training: relative difference %.3g", r)
	}
	if r := worstRelative(got.value, want.value); r > 1e-4 {
		t.Errorf("value after training: relative difference %.3g", r)
	}
	if _, err := tr.Step(fixedBatch(c, 6, 99)); err != nil {
		t.Fatal(err)
	}
	again := newOutputs(c, n)
	inf.Forward(x, n, again.policy, again.value, again.score)
	if !sameBits(again.policy, got.policy) {
		t.Error("a training step changed an earlier snapshot")
	}
}

func TestForwardIsConcurrencySafe(t *testing.T) {
	c := mustPreset(t, "tiny")
	inf, err := NewInference(randomWeights(t, c, 4))
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{1, 2, 5, 8}
	want := map[int]outputs{}
	inputs := map[int][]float32{}
	for _, n := range sizes {
		inputs[n] = randomInput(c, n, uint64(n))
		want[n] = newOutputs(c, n)
		inf.Forward(inputs[n], n, want[n].policy, want[n].value, want[n].score)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				n := sizes[(g+k)%len(sizes)]
				o := newOutputs(c, n)
				inf.Forward(inputs[n], n, o.policy, o.value, o.score)
				if !sameBits(o.policy, want[n].policy) || !sameBits(o.value, want[n].value) || !sameBits(o.score, want[n].score) {
					t.Errorf("goroutine %d: batch of %d differs from the serial result", g, n)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestForwardDoesNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts are distorted by coverage and the race detector")
	}
	c := mustPreset(t, "small")
	inf, err := NewInference(randomWeights(t, c, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 32} {
		x := randomInput(c, n, 1)
		o := newOutputs(c, n)
		ws := new(Workspace)
		if a := testing.AllocsPerRun(20, func() { inf.ForwardWith(ws, x, n, o.policy, o.value, o.score) }); a != 0 {
			t.Errorf("ForwardWith batch %d: %v allocations per call", n, a)
		}
		if a := testing.AllocsPerRun(20, func() { inf.Forward(x, n, o.policy, o.value, o.score) }); a != 0 {
			t.Errorf("Forward batch %d: %v allocations per call", n, a)
		}
	}
	// 10,000 calls leave the heap where it was. They use one workspace:
	// Forward's pool may be emptied by a garbage collection and refilled.
	tiny := mustPreset(t, "tiny")
	inf, err = NewInference(randomWeights(t, tiny, 4))
	if err != nil {
		t.Fatal(err)
	}
	x := randomInput(tiny, 2, 1)
	o := newOutputs(tiny, 2)
	ws := new(Workspace)
	inf.ForwardWith(ws, x, 2, o.policy, o.value, o.score)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 10000; i++ {
		inf.ForwardWith(ws, x, 2, o.policy, o.value, o.score)
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<10 {
		t.Errorf("10,000 ForwardWith calls allocated %d bytes", grown)
	}
}

// benchForward measures the fast pass of a preset laid out as Trench's
// nets are: a spatial policy head of 40 planes whose cells are the
// game's 2,560 actions (nn.PresetFor).
func benchForward(b *testing.B, preset string, n int) {
	benchForwardConfig(b, cells(spatial(mustPreset(b, preset), 40), trenchActions), n)
}

// benchForwardConfig measures the forward pass of net c at batch n.
func benchForwardConfig(b *testing.B, c Config, n int) {
	inf, err := NewInference(randomWeights(b, c, 1))
	if err != nil {
		b.Fatal(err)
	}
	x := randomInput(c, n, 1)
	o := newOutputs(c, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		inf.Forward(x, n, o.policy, o.value, o.score)
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N*n)/sec, "pos/s")
	b.ReportMetric(float64(b.N*n)*float64(c.FLOPs())/sec/1e9, "GFLOP/s")
}

func BenchmarkForwardMedium1(b *testing.B)   { benchForward(b, "medium", 1) }
func BenchmarkForwardMedium32(b *testing.B)  { benchForward(b, "medium", 32) }
func BenchmarkForwardMedium256(b *testing.B) { benchForward(b, "medium", 256) }
func BenchmarkForwardSmall32(b *testing.B)   { benchForward(b, "small", 32) }
func BenchmarkForwardTiny32(b *testing.B)    { benchForward(b, "tiny", 32) }
func BenchmarkForwardCompact1(b *testing.B)  { benchForward(b, "compact", 1) }
func BenchmarkForwardCompact8(b *testing.B)  { benchForward(b, "compact", 8) }
func BenchmarkForwardCompact32(b *testing.B) { benchForward(b, "compact", 32) }

// BenchmarkForwardTrichessCompact32 is the forward pass of Trichess's
// quick-preset net at self-play's batch: 2,984 logits gathered from 234
// policy planes of 12×8 squares.
func BenchmarkForwardTrichessCompact32(b *testing.B) {
	c, err := PresetFor("compact", trichess.Game)
	if err != nil {
		b.Fatal(err)
	}
	benchForwardConfig(b, c, 32)
}

// benchTrain measures training steps of batch n with that backend; the
// fast backend splits its products over GOMAXPROCS goroutines (run with
// -cpu 1,2 to compare).
func benchTrain(b *testing.B, preset string, n int, backend Backend) {
	benchTrainConfig(b, mustPreset(b, preset), n, backend)
}

// benchTrainConfig measures training steps of net c at batch n.
func benchTrainConfig(b *testing.B, c Config, n int, backend Backend) {
	w, err := NewWeights(c, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	tc := DefaultTrainConfig()
	tc.Backend, tc.Threads = backend, runtime.GOMAXPROCS(0)
	tr, err := NewTrainer(w, tc)
	if err != nil {
		b.Fatal(err)
	}
	batch := fixedBatch(c, n, 1)
	if _, err := tr.Step(batch); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := tr.Step(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "samples/s")
}

func BenchmarkTrainStepTiny256(b *testing.B)    { benchTrain(b, "tiny", 256, BackendGorgonia) }
func BenchmarkTrainStepCompact256(b *testing.B) { benchTrain(b, "compact", 256, BackendGorgonia) }
func BenchmarkTrainStepSmall256(b *testing.B)   { benchTrain(b, "small", 256, BackendGorgonia) }
func BenchmarkTrainStepMedium256(b *testing.B)  { benchTrain(b, "medium", 256, BackendGorgonia) }

func BenchmarkTrainStepFastTiny256(b *testing.B)    { benchTrain(b, "tiny", 256, BackendFast) }
func BenchmarkTrainStepFastCompact256(b *testing.B) { benchTrain(b, "compact", 256, BackendFast) }
func BenchmarkTrainStepFastSmall256(b *testing.B)   { benchTrain(b, "small", 256, BackendFast) }
func BenchmarkTrainStepFastMedium256(b *testing.B)  { benchTrain(b, "medium", 256, BackendFast) }

// BenchmarkTrainStepFastTrichessCompact128 is the step of Trichess's
// quick preset: the compact net, its 2,984 actions on 234 policy planes
// of 12×8 squares, at batch 128.
func BenchmarkTrainStepFastTrichessCompact128(b *testing.B) {
	c, err := PresetFor("compact", trichess.Game)
	if err != nil {
		b.Fatal(err)
	}
	c.ValueBase = ValueBaseMaterial
	benchTrainConfig(b, c, 128, BackendFast)
}

// TestForwardChunks checks that cutting a batch into chunks of a few
// positions for im2col (convChunk) changes no output beyond rounding.
func TestForwardChunks(t *testing.T) {
	defer func(orig int) { convChunk = orig }(convChunk)
	for name, c := range testConfigs(t) {
		inf, err := NewInference(randomWeights(t, c, 5))
		if err != nil {
			t.Fatal(err)
		}
		const n = 7
		x := randomInput(c, n, 9)
		want := newOutputs(c, n)
		convChunk = 1 << 30
		inf.Forward(x, n, want.policy, want.value, want.score)
		hw := c.Shape.Height * c.Shape.Width
		// Chunks of one position, of two, and of three (the last of one).
		for _, positions := range []int{1, 2, 3} {
			convChunk = positions * c.Channels * 9 * hw
			got := newOutputs(c, n)
			inf.Forward(x, n, got.policy, got.value, got.score)
			// A BLAS may sum in another order for another shape.
			checkClose(t, fmt.Sprintf("%s, chunks of %d positions", name, positions), got, want)
		}
	}
}

// TestGatheredConvMatchesIm2col checks the forward pass whose
// convolutions read their neighbourhoods from padded planes
// (gemm.MulGathered, boards whose width is a multiple of 8) against the
// im2col pass on the same weights, on every kernel path, for batches that
// fill and cut the kernels' panels.
func TestGatheredConvMatchesIm2col(t *testing.T) {
	wide := Config{Shape: engine.Shape{Planes: 5, Height: 3, Width: 16}, Actions: 30, Channels: 6, Blocks: 2,
		Seats: 3, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7, ScoreScale: 10}
	configs := map[string]Config{
		"tiny":            mustPreset(t, "tiny"),
		"tiny material":   material(mustPreset(t, "tiny")),
		"tiny cells":      cells(spatial(mustPreset(t, "tiny"), 40), 1000),
		"compact cells":   cells(spatial(mustPreset(t, "compact"), 40), trenchActions),
		"wide three-seat": wide,
		"wide spatial":    spatial(withActions(wide, 96), 2),
	}
	defer func(orig string) { _ = gemmpkg.SetPath(orig) }(gemmpkg.Path())
	for _, path := range gemmpkg.Paths() {
		if err := gemmpkg.SetPath(path); err != nil {
			t.Fatal(err)
		}
		for name, c := range configs {
			w := randomWeights(t, c, 4)
			gathered, err := NewInference(w)
			if err != nil {
				t.Fatal(err)
			}
			im2col, err := NewInference(w)
			if err != nil {
				t.Fatal(err)
			}
			for i := range im2col.convs {
				if gathered.convs[i].packed == nil {
					t.Fatalf("%s: convolution %d is not packed", name, i)
				}
				im2col.convs[i].packed = nil
			}
			im2col.pout.packed, im2col.gathered = nil, false
			// Batches that grow and shrink the padded planes' layout.
			for _, n := range []int{1, 3, 7, 2, 1} {
				x := randomInput(c, n, uint64(n))
				want, got := newOutputs(c, n), newOutputs(c, n)
				im2col.Forward(x, n, want.policy, want.value, want.score)
				gathered.Forward(x, n, got.policy, got.value, got.score)
				checkClose(t, fmt.Sprintf("%s, %s, batch %d", path, name, n), got, want)
			}
		}
	}
}

// withActions gives c n actions.
func withActions(c Config, n int) Config {
	c.Actions = n
	return c
}
