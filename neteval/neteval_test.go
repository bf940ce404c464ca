package neteval

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/mcts"
	"trench/nn"
	"trench/nn/nntest"
)

func tinyNet(t *testing.T, g engine.Game) *nn.Inference {
	return nntest.Inference(t, nntest.Tiny(t, g), 1, 2)
}

func TestEvaluate(t *testing.T) {
	inf := tinyNet(t, trench.Game)
	ev, err := New(trench.Game, inf)
	if err != nil {
		t.Fatal(err)
	}
	// A few positions along a game, both colours to move.
	var states []engine.State
	s := trench.Game.Start()
	for i := 0; i < 6; i++ {
		states = append(states, s.Clone())
		s.Play(s.LegalActions(nil)[i])
	}
	out := make([]mcts.Evaluation, len(states))
	out[0].Actions = states[0].LegalActions(nil)
	if err := ev.Evaluate(states, out); err != nil {
		t.Fatal(err)
	}
	fs := trench.Game.FeatureShape().Size()
	for i, st := range states {
		acts := st.LegalActions(nil)
		if len(out[i].Policy) != len(acts) {
			t.Fatalf("state %d: %d priors for %d legal actions", i, len(out[i].Policy), len(acts))
		}
		// The priors are the softmax of the net's logits over the legal
		// actions, computed here directly.
		in := make([]float32, fs)
		st.EncodeFeatures(in)
		logits := make([]float32, trench.ActionCount)
		wdl, score := make([]float32, 3), make([]float32, 1)
		inf.Forward(in, 1, logits, wdl, score)
		var z float64
		for _, a := range acts {
			z += math.Exp(float64(logits[a]))
		}
		for j, a := range acts {
			want := math.Exp(float64(logits[a])) / z
			if math.Abs(float64(out[i].Policy[j])-want) > 1e-5 {
				t.Fatalf("state %d action %d: prior %v, want %v", i, a, out[i].Policy[j], want)
			}
		}
		// The mover's value blends win minus loss with the predicted
		// score, by DefaultScoreUtility.
		mover := st.ToMove()
		lambda := DefaultScoreUtility
		want := (1-lambda)*float64(wdl[0]-wdl[2]) + lambda*math.Tanh(float64(score[0])/float64(inf.Config().ScoreScale/4))
		if v := out[i].Values; len(v) != 2 || math.Abs(float64(v[mover])-want) > 1e-6 || v[1-mover] != -v[mover] {
			t.Errorf("state %d: values %v for wdl %v and score %v with player %d to move, want %v", i, v, wdl, score, mover, want)
		}
	}
}

// TestScoreUtility checks the blend's ends: λ = 0 is win minus loss
// alone, λ = 1 the score term alone, and λ outside [0, 1] is refused.
func TestScoreUtility(t *testing.T) {
	inf := tinyNet(t, trench.Game)
	s := trench.Game.Start()
	in := make([]float32, trench.Game.FeatureShape().Size())
	s.EncodeFeatures(in)
	logits, wdl, score := make([]float32, trench.ActionCount), make([]float32, 3), make([]float32, 1)
	inf.Forward(in, 1, logits, wdl, score)
	scale := float64(inf.Config().ScoreScale / 4)
	for _, tc := range []struct {
		lambda float64
		want   float64
	}{
		{0, float64(wdl[0] - wdl[2])},
		{1, math.Tanh(float64(score[0]) / scale)},
		{0.5, 0.5*float64(wdl[0]-wdl[2]) + 0.5*math.Tanh(float64(score[0])/scale)},
	} {
		ev, err := NewWithScoreUtility(trench.Game, inf, tc.lambda)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]mcts.Evaluation, 1)
		if err := ev.Evaluate([]engine.State{s}, out); err != nil {
			t.Fatal(err)
		}
		if got := float64(out[0].Values[s.ToMove()]); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("λ %v: value %v, want %v", tc.lambda, got, tc.want)
		}
	}
	for _, bad := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := NewWithScoreUtility(trench.Game, inf, bad); err == nil {
			t.Errorf("λ %v accepted", bad)
		}
	}
}

func TestNewRejectsAnotherGamesNet(t *testing.T) {
	if _, err := New(tictactoe.Game{}, tinyNet(t, trench.Game)); err == nil {
		t.Error("a Trench net was accepted for tic-tac-toe")
	}
}

func BenchmarkEvaluateTinyBatch32(b *testing.B) {
	c, _ := nn.Preset("tiny", trench.Game.FeatureShape(), trench.ActionCount)
	w, _ := nn.NewWeights(c, rand.New(rand.NewPCG(1, 2)))
	inf, _ := nn.NewInference(w)
	ev, _ := New(trench.Game, inf)
	states := make([]engine.State, 32)
	out := make([]mcts.Evaluation, 32)
	for i := range states {
		states[i] = trench.Game.Start()
	}
	for b.Loop() {
		ev.Evaluate(states, out)
	}
}

// TestNetTime checks that the forward pass's time is counted, and only it:
// it grows with every call and stays within the calls' total time.
func TestNetTime(t *testing.T) {
	// Without a cache, which would answer the repeated states itself.
	ev, err := NewWithScoreUtility(trench.Game, tinyNet(t, trench.Game), DefaultScoreUtility)
	if err != nil {
		t.Fatal(err)
	}
	if ev.NetTime() != 0 {
		t.Fatalf("NetTime before any call: %v", ev.NetTime())
	}
	states := []engine.State{trench.Game.Start(), trench.Game.Start()}
	out := make([]mcts.Evaluation, len(states))
	var total time.Duration
	last := time.Duration(0)
	for i := 0; i < 3; i++ {
		start := time.Now()
		if err := ev.Evaluate(states, out); err != nil {
			t.Fatal(err)
		}
		total += time.Since(start)
		if got := ev.NetTime(); got <= last || got > total {
			t.Fatalf("call %d: NetTime %v, want more than %v and at most the calls' %v", i, got, last, total)
		}
		last = ev.NetTime()
	}
	if err := ev.Evaluate(nil, nil); err != nil || ev.NetTime() != last {
		t.Errorf("an empty batch: %v, NetTime %v, want %v", err, ev.NetTime(), last)
	}
}
