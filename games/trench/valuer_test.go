package trench

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/alphabeta"
	"trench/checkpoints/shipped"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/games/plugin"
	"trench/nnue"
	"trench/nnue/train"
)

// TestScoreValueIsTheTrainersScale checks the conversion of a score to
// a value against the NNUE trainer's: a score s of expected result
// p = σ(s/ScoreScale) is the value 2p − 1, whose inverse, 2·ScoreScale·
// atanh(v), is the score again (as generation 0's teacher converts).
func TestScoreValueIsTheTrainersScale(t *testing.T) {
	scale := train.DefaultConfig().ScoreScale
	for _, cp := range []int{-3000, -1200, -400, -1, 0, 1, 37, 400, 1200, 3000} {
		v := scoreValue(cp, 0)
		p := 1 / (1 + math.Exp(-float64(cp)/scale))
		if math.Abs(v-(2*p-1)) > 1e-12 {
			t.Errorf("score %d: value %v, want 2σ(s/%g) − 1 = %v", cp, v, scale, 2*p-1)
		}
		if back := 2 * scale * math.Atanh(v); math.Abs(back-float64(cp)) > 1e-6 {
			t.Errorf("score %d: value %v converts back to %v", cp, v, back)
		}
		if v <= -1 || v >= 1 || (cp > 0) != (v > 0) || (cp < 0) != (v < 0) {
			t.Errorf("score %d: value %v, want one of its sign inside (-1, 1)", cp, v)
		}
	}
}

// valuerPositions are the positions of a few random games.
func valuerPositions(t *testing.T, n int) []trench.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	var out []trench.Position
	p := trench.StartPosition()
	for len(out) < n {
		if p.Over() {
			p = trench.StartPosition()
		}
		out = append(out, p)
		moves := p.GenerateMoves(nil)
		p.Play(moves[rng.IntN(len(moves))])
	}
	return out
}

// TestValuers checks the valuers of the built-in NNUE and of the
// hand-written evaluation: values in [-1, 1]; the NNUE's at the position
// is its own output as a value, tanh(y/2); with quiesce, the quiescence
// search's score, never below the position's own value (standing pat is
// always an option) and equal to it where no capture is possible; a
// finished game's result; and the sign is the side to move's.
func TestValuers(t *testing.T) {
	net, _, err := nnue.LoadRef(shipped.Ref)
	if err != nil {
		t.Fatal(err)
	}
	nnueEval, err := Plugin.Classical.Evaluation("net", shipped.Ref)
	if err != nil {
		t.Fatal(err)
	}
	hand, err := Plugin.Classical.Evaluation("hand", "")
	if err != nil {
		t.Fatal(err)
	}
	positions := valuerPositions(t, 300)
	static, err := nnueEval.NewValuer(false)
	if err != nil {
		t.Fatal(err)
	}
	quiet, err := nnueEval.NewValuer(true)
	if err != nil {
		t.Fatal(err)
	}
	handStatic, err := hand.NewValuer(false)
	if err != nil {
		t.Fatal(err)
	}
	handQuiet, err := hand.NewValuer(true)
	if err != nil {
		t.Fatal(err)
	}
	nnueEv, err := nnue.NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	own, err := nnue.NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := alphabeta.NewWith(12, nnueEv)
	if err != nil {
		t.Fatal(err)
	}
	value := func(v plugin.ClassicalValuer, p trench.Position) float64 {
		t.Helper()
		x, err := v.Value(trench.NewState(p))
		if err != nil {
			t.Fatal(err)
		}
		if !(x >= -1 && x <= 1) {
			t.Fatalf("%s: value %v outside [-1, 1]", p.FEN(), x)
		}
		return x
	}
	capturing := 0
	for _, p := range positions {
		vs, vq := value(static, p), value(quiet, p)
		hs, hq := value(handStatic, p), value(handQuiet, p)
		if p.Over() {
			want := 0.0
			if w, ok := p.Winner(); ok {
				want = map[bool]float64{true: 1, false: -1}[w == p.SideToMove()]
			}
			if vs != want || vq != want || hs != want || hq != want {
				t.Errorf("%s is over: values %v %v %v %v, want its result %v", p.FEN(), vs, vq, hs, hq, want)
			}
			continue
		}
		own.SetRoot(&p)
		if want := math.Tanh(float64(own.Output(0, &p)) / 2); math.Abs(vs-want) > 1e-3 {
			t.Errorf("%s: the NNUE's value %v, its own output's %v", p.FEN(), vs, want)
		}
		if want := scoreValue(alphabeta.Evaluate(&p), 0); hs != want {
			t.Errorf("%s: the hand-written evaluation's value %v, want %v", p.FEN(), hs, want)
		}
		r := ref.Quiesce(p)
		if want := scoreValue(r.Score, r.Forced()); vq != want {
			t.Errorf("%s: the NNUE's quiescence value %v, its search's %v", p.FEN(), vq, want)
		}
		if vq < vs-1e-12 || hq < hs-1e-12 {
			t.Errorf("%s: quiescence values %v (nnue), %v (hand) below the position's own %v, %v", p.FEN(), vq, hq, vs, hs)
		}
		if len(p.GenerateCaptures(nil)) == 0 {
			if vq != vs || hq != hs {
				t.Errorf("%s has no capture: quiescence values %v, %v; the position's own %v, %v", p.FEN(), vq, hq, vs, hs)
			}
		} else {
			capturing++
		}
	}
	if capturing < 20 {
		t.Errorf("only %d positions with captures", capturing)
	}
	// Black, ten points up with a full army against White without its
	// General and Colonels: good for Black whoever moves.
	for _, fen := range []string{
		"4sk2/4psk1/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 10 0 0 1",
		"4sk2/4psk1/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 10 0 0 1",
	} {
		p, err := trench.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		want := 1.0
		if p.SideToMove() == trench.White {
			want = -1
		}
		for name, v := range map[string]float64{"nnue": value(static, p), "qnnue": value(quiet, p)} {
			if v*want < 0.5 {
				t.Errorf("%s: %s value %v, want it beyond 0.5 toward %v", fen, name, v, want)
			}
		}
	}
	if _, err := static.Value(tictactoe.Game{}.Start()); err == nil || !strings.Contains(err.Error(), "tictactoe") {
		t.Errorf("a tic-tac-toe state: error %v, want one naming the game", err)
	}
}
