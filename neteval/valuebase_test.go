package neteval

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"trench/checkpoints"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/nn"
	"trench/tactics"
)

// basedNet returns a new tiny net for g with the given value and policy
// bases, one seat per player beyond two.
func basedNet(t testing.TB, g engine.Game, valueBase, policyBase string) *nn.Inference {
	t.Helper()
	c, err := nn.PresetFor("tiny", g)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players() > 2 {
		c.Seats = g.Players()
	}
	c.ValueBase, c.PolicyBase = valueBase, policyBase
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	inf, err := nn.NewInference(w)
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// withAndWithoutBase evaluates positions of a seeded Trench game with a
// tiny net whose final layers are random, as a trained net's are, and
// with the same weights under the config base(c) gives it: the plain
// net's inference and both evaluations.
func withAndWithoutBase(t *testing.T, base func(c *nn.Config)) (states []engine.State, plain *nn.Inference, pout, bout []mcts.Evaluation) {
	t.Helper()
	c, err := nn.PresetFor("tiny", trench.Game)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := nn.NewWeights(c, rand.New(rand.NewPCG(6, 6)))
	if err != nil {
		t.Fatal(err)
	}
	bw := pw.Clone()
	base(&bw.Config)
	plain, err = nn.NewInference(pw)
	if err != nil {
		t.Fatal(err)
	}
	based, err := nn.NewInference(bw)
	if err != nil {
		t.Fatal(err)
	}
	states = playedPositions(trench.Game, 12, 5, 9)
	pev, _ := New(trench.Game, plain)
	bev, _ := New(trench.Game, based)
	pout, bout = make([]mcts.Evaluation, len(states)), make([]mcts.Evaluation, len(states))
	if err := pev.Evaluate(states, pout); err != nil {
		t.Fatal(err)
	}
	if err := bev.Evaluate(states, bout); err != nil {
		t.Fatal(err)
	}
	return states, plain, pout, bout
}

// playedPositions plays a random game of g from its start, seeded, and
// returns up to n of its positions, one every few plies.
func playedPositions(g engine.Game, n, every int, seed uint64) []engine.State {
	rng := rand.New(rand.NewPCG(seed, 1))
	var states []engine.State
	s := g.Start()
	for ply := 0; len(states) < n && !s.Over(); ply++ {
		if ply%every == 0 {
			states = append(states, s.Clone())
		}
		acts := s.LegalActions(nil)
		s.Play(acts[rng.IntN(len(acts))])
	}
	return states
}

// TestMaterialBaseStartsAtMaterial checks that a new net with the
// material value base values every position as its material does: win −
// loss is tanh(lead/MaterialScale) and so is the score term, whatever the
// score utility, for every player.
func TestMaterialBaseStartsAtMaterial(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		inf := basedNet(t, g, nn.ValueBaseMaterial, nn.PolicyBaseNone)
		var states []engine.State
		for seed := range uint64(4) {
			states = append(states, playedPositions(g, 10, 3, seed)...)
		}
		leads := 0
		for _, lambda := range []float64{0, DefaultScoreUtility, 1} {
			ev, err := NewWithScoreUtility(g, inf, lambda)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]mcts.Evaluation, len(states))
			if err := ev.Evaluate(states, out); err != nil {
				t.Fatal(err)
			}
			for i, s := range states {
				for p, lead := range tactics.MaterialLeads(s, nil) {
					if lead != 0 {
						leads++
					}
					want := math.Tanh(float64(lead) / tactics.MaterialScale)
					if got := float64(out[i].Values[p]); math.Abs(got-want) > 1e-5 {
						t.Fatalf("%s, λ %v, %s: player %d's value %v, want %v from its lead %v", g.Name(), lambda, s, p, got, want, lead)
					}
				}
			}
		}
		if leads == 0 {
			t.Errorf("%s: no position with a material lead", g.Name())
		}
	}
}

// TestMaterialBaseAddsToOutputs checks a trained-looking net (random
// final layers) with the material base: its values are those of its own
// outputs with the offsets applied, not the outputs alone.
func TestMaterialBaseAddsToOutputs(t *testing.T) {
	states, pinf, pout, bout := withAndWithoutBase(t, func(c *nn.Config) { c.ValueBase = nn.ValueBaseMaterial })
	c := pinf.Config()
	fs := c.Shape.Size()
	differ := 0
	for i, s := range states {
		in := make([]float32, fs)
		s.EncodeFeatures(in)
		logits, wdl, score := make([]float32, c.Actions), make([]float32, 3), make([]float32, 1)
		pinf.Forward(in, 1, logits, wdl, score)
		tactics.ApplyValueOffsets(s, wdl, score, nil)
		lambda := DefaultScoreUtility
		want := (1-lambda)*float64(wdl[0]-wdl[2]) + lambda*math.Tanh(float64(score[0])/float64(c.ScoreScale/4))
		mover := s.ToMove()
		if got := float64(bout[i].Values[mover]); math.Abs(got-want) > 1e-5 {
			t.Errorf("%s: value %v, want %v", s, got, want)
		}
		if pout[i].Values[mover] != bout[i].Values[mover] {
			differ++
		}
		for j := range pout[i].Policy {
			if pout[i].Policy[j] != bout[i].Policy[j] {
				t.Fatalf("%s: the value base changed prior %d", s, j)
			}
		}
	}
	if differ == 0 {
		t.Error("the material base changed no value")
	}
}

// TestNetBeforeValueBasesUnchanged checks that a net saved before value
// bases existed (the one shipped until 2026-11-24, kept in testdata)
// loads and evaluates as it did before them: the mover's value and first
// prior on positions of a seeded random game.
func TestNetBeforeValueBasesUnchanged(t *testing.T) {
	c, err := checkpoints.Load(filepath.Join("testdata", "net-before-value-bases.tnet"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.WeightsFromCheckpoint(c, trench.Game.FeatureShape(), trench.Game.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	if w.Config.ValueBase != nn.ValueBaseNone {
		t.Fatalf("the net loads with value base %q", w.Config.ValueBase)
	}
	inf, err := nn.NewInference(w)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := New(trench.Game, inf)
	if err != nil {
		t.Fatal(err)
	}
	// Measured before value bases existed.
	want := []struct {
		state        string
		value, prior float64
	}{
		{"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1", -0.05153747, 0.17541842},
		{"5kcg/4pskc/2s1ppsk/1PK1p1ps/S1PP1p2/1SPP4/CKSP4/GCK1S3 w 0 0 5 3", -0.008564572, 0.00587208},
		{"5kcg/4pskc/s3pp1k/1PK1ps1s/S1PP1pp1/S1PP2S1/CKSP4/GCK5 b 0 0 10 6", 0.04577583, 0.02044842},
		{"5kcg/s2p1skc/4pp1k/1PKPps1s/S1P2pp1/S1P1P3/CKSP2S1/GCK5 w 0 0 15 8", 0.08107908, 0.016229203},
		{"5k1g/s2p1scc/4ppk1/1PKPpsks/S1P2pS1/1SP1P3/CKSP4/GCK5 b 1 0 3 11", 0.09664154, 0.0018592079},
		{"7g/s2pkscc/4ppk1/1PKPpsk1/S1P2pSs/1SP1P3/CKSP4/GC2K3 w 1 0 8 13", -0.025658533, 0.085770994},
		{"4g3/s2pkscc/4ppk1/1PKPps1k/S1P4K/1SP1PpS1/CKSP4/GC6 b 3 0 3 16", 0.5637922, 0.008966255},
		{"2K1gk2/s2p1s1c/4ppkc/1P1Pps1k/S1P1S3/1SP1PpS1/CK1P4/GC5K w 3 0 8 18", -0.24344243, 0.6467435},
		{"2K1g1k1/1s1p1s1c/4ppkc/1P1Pp2k/2P1Ss2/SSP1PpS1/C1KP4/GC5K b 3 0 13 21", 0.6433498, 0.015355768},
		{"4g3/1s1p1skc/2K1ppkc/1PP1p3/2P1Ss2/SSP1PpS1/C1K4k/GC1P3K w 3 0 18 23", -0.56328017, 0.4522403},
		{"1g6/1s1p1skc/2Kp1pkc/1PP1S2k/2P2s2/SSP1PS2/C1K5/GC1P3K b 5 0 1 26", 0.8665175, 0.0018793556},
		{"1g6/1s1p1skc/2Kp1pkc/1PP1S3/2Ps4/SSP1PS2/CK5k/GC1P3K w 5 0 6 28", -0.80966, 0.03330189},
	}
	states := playedPositions(trench.Game, len(want), 5, 18)
	if len(states) != len(want) {
		t.Fatalf("%d positions, want %d", len(states), len(want))
	}
	out := make([]mcts.Evaluation, len(states))
	if err := ev.Evaluate(states, out); err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		s := states[i]
		if s.String() != w.state {
			t.Fatalf("position %d is %s, want %s", i, s, w.state)
		}
		// A BLAS may sum in another order on another machine.
		if v := float64(out[i].Values[s.ToMove()]); math.Abs(v-w.value) > 1e-5 {
			t.Errorf("%s: value %v, before %v", s, v, w.value)
		}
		if p := float64(out[i].Policy[0]); math.Abs(p-w.prior) > 1e-5*max(1, p) {
			t.Errorf("%s: first prior %v, before %v", s, p, w.prior)
		}
	}
}

// BenchmarkEvaluateBase evaluates 32 positions of a game with a tiny net
// without a value base and with the material one, whose offsets cost a
// material count per position.
func BenchmarkEvaluateBase(b *testing.B) {
	states := playedPositions(trench.Game, 32, 1, 3)
	out := make([]mcts.Evaluation, len(states))
	for _, base := range []string{nn.ValueBaseNone, nn.ValueBaseMaterial} {
		c, _ := nn.PresetFor("tiny", trench.Game)
		c.ValueBase = base
		w, _ := nn.NewWeights(c, rand.New(rand.NewPCG(1, 2)))
		inf, _ := nn.NewInference(w)
		ev, _ := New(trench.Game, inf)
		name := "base=" + base
		if base == nn.ValueBaseNone {
			name = "base=none"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				ev.Evaluate(states, out)
			}
		})
	}
}
