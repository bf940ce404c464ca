package train

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/nnue"
	"trench/nnue/data"
)

// randomGames plays n random games from the start and labels their
// positions; score gives each position's search score.
func randomGames(t testing.TB, n int, seed uint64, score func(p *trench.Position) int) data.Records {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var records data.Records
	var moves []trench.Move
	for g := 0; g < n; g++ {
		p := trench.StartPosition()
		var positions []trench.Position
		var scores []int
		for !p.Over() {
			positions = append(positions, p)
			scores = append(scores, score(&p))
			moves = p.GenerateMoves(moves)
			p.Play(moves[r.IntN(len(moves))])
		}
		rs, err := data.Label(seed<<32|uint64(g), positions, scores, &p)
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, rs...)
	}
	return records
}

// materialScore is 100 centipoints per point of material difference,
// for the side to move.
func materialScore(p *trench.Position) int {
	me := p.SideToMove()
	return 100 * (p.Material(me) - p.Material(me.Other()))
}

// scoreDifference is 100 centipoints per point of score difference.
func scoreDifference(p *trench.Position) int {
	me := p.SideToMove()
	return 100 * (p.Score(me) - p.Score(me.Other()))
}

func TestGradientMatchesFiniteDifferences(t *testing.T) {
	for _, power := range []float64{2, 2.5, -2} {
		// A negative power is the net with the linear path.
		cfg := DefaultConfig()
		cfg.Mirror = false
		cfg.Power = math.Abs(power)
		cfg.Linear = power < 0
		tr, err := New(cfg, nnue.Trench, 8, 1)
		if err != nil {
			t.Fatal(err)
		}
		// Spread the weights so that the gradient is not tiny.
		r := rand.New(rand.NewPCG(2, 2))
		for i := range tr.params {
			tr.params[i] += float32(0.2 * (2*r.Float64() - 1))
		}
		batch := randomGames(t, 1, 3, materialScore)[:40]
		tr.run(examples{b: batch}, true)
		grad := append([]float32(nil), tr.grad...)
		// Probe the active rows of the first position, the biases, the
		// output weights and bias.
		f := nnue.Features(&batch[0].Position, batch[0].Position.SideToMove(), nil)
		ftBias, _, _, psqt, _ := layout(nnue.Trench, 8, cfg.Linear)
		var probes []int
		for _, x := range f {
			probes = append(probes, int(x)*8+int(x)%8)
			if cfg.Linear {
				probes = append(probes, psqt+int(x))
			}
		}
		for i := ftBias; i < psqt; i++ {
			probes = append(probes, i)
		}
		const eps = 1e-3
		checked := 0
		for _, i := range probes {
			old := tr.params[i]
			tr.params[i] = old + eps
			up := tr.run(examples{b: batch}, false)
			tr.params[i] = old - eps
			down := tr.run(examples{b: batch}, false)
			tr.params[i] = old
			numeric := (up - down) / (2 * eps)
			if d := math.Abs(numeric - float64(grad[i])); d > 1e-4+0.02*math.Abs(numeric) {
				t.Errorf("power %v: parameter %d: gradient %g, finite difference %g", power, i, grad[i], numeric)
			}
			if grad[i] != 0 {
				checked++
			}
		}
		if checked < len(probes)/2 {
			t.Errorf("power %v: only %d of %d probed gradients are non-zero", power, checked, len(probes))
		}
	}
}

func TestFitsMaterial(t *testing.T) {
	records := randomGames(t, 40, 4, materialScore)
	train, val := split(records, 0.2)
	cfg := DefaultConfig()
	cfg.Lambda = 0
	cfg.LearningRate = 3e-3
	tr, err := New(cfg, nnue.Trench, 32, 5)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.ValidationLoss(val)
	for range 15 {
		tr.Epoch(train, 256)
	}
	after := tr.ValidationLoss(val)
	t.Logf("%d training positions: validation loss %.5f -> %.5f after %d steps", len(train), before, after, tr.Steps())
	if after > 0.002 || after > before/10 {
		t.Errorf("validation loss %.5f -> %.5f: want below 0.002 and a tenth of the start", before, after)
	}
}

func TestLossFallsOnRandomGames(t *testing.T) {
	records := randomGames(t, 60, 6, scoreDifference)
	train, val := split(records, 0.2)
	tr, err := New(DefaultConfig(), nnue.Trench, 32, 7)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.ValidationLoss(val)
	first := tr.Epoch(train, 512)
	var last float64
	for range 5 {
		last = tr.Epoch(train, 512)
	}
	after := tr.ValidationLoss(val)
	t.Logf("training loss %.5f -> %.5f, validation %.5f -> %.5f", first, last, before, after)
	if !(last < first*0.8) || !(after < before*0.8) {
		t.Errorf("training loss %.5f -> %.5f, validation %.5f -> %.5f: want both down by a fifth", first, last, before, after)
	}
}

// split holds out the games data.HeldOut picks.
func split(records data.Records, fraction float64) (train, val data.Records) {
	for _, r := range records {
		if data.HeldOut(r.GameID, fraction, 1) {
			val = append(val, r)
		} else {
			train = append(train, r)
		}
	}
	return train, val
}

func TestDeterministic(t *testing.T) {
	records := randomGames(t, 5, 8, scoreDifference)
	run := func(threads int) *nnue.Net {
		cfg := DefaultConfig()
		cfg.Threads = threads
		tr, err := New(cfg, nnue.Trench, 16, 9)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			tr.Epoch(records, 100)
		}
		return tr.Net()
	}
	a, b, c := run(1), run(1), run(3)
	for i := range a.FT {
		if a.FT[i] != b.FT[i] {
			t.Fatalf("two runs with one thread differ at weight %d: %v, %v", i, a.FT[i], b.FT[i])
		}
		// Three threads sum the gradient in another order: close, not equal.
		if math.Abs(float64(a.FT[i]-c.FT[i])) > 1e-4 {
			t.Fatalf("one and three threads differ at weight %d: %v, %v", i, a.FT[i], c.FT[i])
		}
	}
}

func TestMirrorAugmentation(t *testing.T) {
	// Training on a position with mirroring sees it both ways: over
	// enough steps both the rows of its features and of the mirrored
	// ones get a gradient.
	p, err := trench.ParseFEN("8/8/8/8/8/8/8/GS4p1 b 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	rec := data.Record{Position: p, Score: 300, Result: data.Win}
	cfg := DefaultConfig()
	tr, err := New(cfg, nnue.Trench, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.Net()
	for range 20 {
		tr.Step(data.Records{rec})
	}
	after := tr.Net()
	moved := func(f int) bool { return after.FT[f*4] != before.FT[f*4] }
	// Black's sergeant on b1 (square 1), mirrored on a2 (square 8).
	s, m := 1*64+1, 1*64+8
	if !moved(s) || !moved(m) {
		t.Errorf("rows of b1 and its mirror a2 moved: %v, %v; want both", moved(s), moved(m))
	}
	// Without mirroring the mirrored row is inactive: only weight decay
	// moves it.
	cfg.Mirror = false
	tr, _ = New(cfg, nnue.Trench, 4, 1)
	for range 20 {
		tr.Step(data.Records{rec})
	}
	want := float64(before.FT[m*4]) * math.Pow(1-cfg.LearningRate*cfg.WeightDecay, 20)
	if got := float64(tr.Net().FT[m*4]); math.Abs(got-want) > 1e-6*math.Abs(want) {
		t.Errorf("without mirroring, the inactive row went from %v to %v, want %v by weight decay alone", before.FT[m*4], got, want)
	}
}

func TestSchedules(t *testing.T) {
	c := DefaultConfig()
	c.DropEvery, c.DropFactor = 10, 0.5
	for _, tc := range []struct {
		step int
		want float64
	}{{0, 1e-3}, {9, 1e-3}, {10, 5e-4}, {25, 2.5e-4}} {
		if got := c.rate(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("step schedule at %d: %g, want %g", tc.step, got, tc.want)
		}
	}
	c.Schedule, c.Steps, c.MinFactor = CosineSchedule, 100, 0.1
	for _, tc := range []struct {
		step int
		want float64
	}{{0, 1e-3}, {50, 5.5e-4}, {100, 1e-4}, {200, 1e-4}} {
		if got := c.rate(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("cosine schedule at %d: %g, want %g", tc.step, got, tc.want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		edit func(c *Config)
		want string
	}{
		{func(c *Config) { c.LearningRate = 0 }, "learning rate"},
		{func(c *Config) { c.Beta2 = 1 }, "Adam betas"},
		{func(c *Config) { c.Epsilon = 0 }, "epsilon"},
		{func(c *Config) { c.WeightDecay = -1 }, "weight decay"},
		{func(c *Config) { c.DropFactor = 0 }, "step schedule"},
		{func(c *Config) { c.Schedule = CosineSchedule }, "cosine schedule: 0 steps"},
		{func(c *Config) { c.Schedule = "linear" }, `schedule "linear"`},
		{func(c *Config) { c.Lambda = 1.5 }, "lambda"},
		{func(c *Config) { c.ScoreScale = 0 }, "score scale"},
		{func(c *Config) { c.Power = math.NaN() }, "loss power"},
		{func(c *Config) { c.Threads = 0 }, "threads"},
	}
	for _, tc := range tests {
		c := DefaultConfig()
		tc.edit(&c)
		if _, err := New(c, nnue.Trench, 8, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New with a bad config: %v, want an error containing %q", err, tc.want)
		}
	}
	if _, err := New(DefaultConfig(), nnue.Trench, 0, 1); err == nil {
		t.Error("New with 0 hidden units accepted")
	}
	w := &nnue.Net{Set: nnue.Trench, Hidden: 2, FT: make([]float32, 10)}
	if _, err := FromNet(DefaultConfig(), w, 1); err == nil || !strings.Contains(err.Error(), "FT has 10 weights") {
		t.Errorf("FromNet of the wrong shape: %v", err)
	}
}

func TestFromNetRoundTrip(t *testing.T) {
	tr, err := New(DefaultConfig(), nnue.Trench, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := tr.Net()
	w.OutBias = 0.25
	again, err := FromNet(DefaultConfig(), w, 2)
	if err != nil {
		t.Fatal(err)
	}
	if again.Hidden() != 8 {
		t.Errorf("Hidden() = %d, want 8", again.Hidden())
	}
	got := again.Net()
	if got.Hidden != 8 || got.OutBias != 0.25 || got.FT[700*8-1] != w.FT[700*8-1] || got.Out[15] != w.Out[15] || got.FTBias[7] != w.FTBias[7] {
		t.Errorf("FromNet(…).Net() = %+v…, want the weights back", got.OutBias)
	}
	w.FT[3] = float32(math.Inf(1))
	if _, err := FromNet(DefaultConfig(), w, 2); err == nil || !strings.Contains(err.Error(), "not a finite number") {
		t.Errorf("FromNet with an infinite weight: %v", err)
	}
}
