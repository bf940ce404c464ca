package generations

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints/shipped"
	"trench/engine/trench"
	"trench/neteval"
	"trench/nn"
	"trench/nn/nntest"
	"trench/nnue/data"
	"trench/tactics"
)

// tinyConvNet returns a tiny conv net of random weights for Trench, with
// valueBase as its value base.
func tinyConvNet(t testing.TB, valueBase string) *nn.Weights {
	t.Helper()
	c := nntest.Tiny(t, trench.Game)
	c.ValueBase = valueBase
	return nntest.Weights(t, c, 5, 6)
}

// saveConvNet saves w as a checkpoint of step step in dir and returns
// its path.
func saveConvNet(t testing.TB, w *nn.Weights, dir string, step uint64) string {
	t.Helper()
	path := filepath.Join(dir, "teacher.tnet")
	ck := nntest.Checkpoint(t, w, path)
	ck.Step = step
	if err := ck.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// gamePositions returns the positions of a game of random moves, not
// over.
func gamePositions(n int) []trench.Position {
	rng := rand.New(rand.NewPCG(1, 1))
	p := trench.StartPosition()
	var out []trench.Position
	var moves []trench.Move
	for len(out) < n {
		if p.Over() {
			p = trench.StartPosition()
		}
		out = append(out, p)
		moves = p.GenerateMoves(moves[:0])
		p.Play(moves[rng.IntN(len(moves))])
	}
	return out
}

func TestValueScore(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want int
	}{
		{0, 0},
		{math.Tanh(0.5), 400},     // logit 1: 400 centipoints
		{-math.Tanh(1.25), -1000}, // logit −2.5
		{1, data.MaxScore},
		{-1, -data.MaxScore},
		{1.5, data.MaxScore},
		{math.NaN(), 0},
	} {
		if got := valueScore(tc.v, 400); got != tc.want {
			t.Errorf("valueScore(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestTeacherLabels checks the teacher's scores against the net's
// outputs converted by hand: σ(score/400) = win + draw/2 of the side to
// move, after the material offsets for a net with a material base.
func TestTeacherLabels(t *testing.T) {
	positions := gamePositions(300) // more than a batch
	for _, base := range []string{nn.ValueBaseNone, nn.ValueBaseMaterial} {
		w := tinyConvNet(t, base)
		inf, err := nn.NewInference(w)
		if err != nil {
			t.Fatal(err)
		}
		tch, err := newTeacher("tiny", &neteval.Net{Inference: inf, Source: "tiny"}, 400)
		if err != nil {
			t.Fatal(err)
		}
		scores := make([]int, len(positions))
		if err := tch.relabel(positions, scores); err != nil {
			t.Fatal(err)
		}
		shape := trench.FeatureShape
		x := make([]float32, shape.Size())
		wdl, score := make([]float32, 3), make([]float32, 1)
		differ := false
		for i := range positions {
			s := trench.NewState(positions[i])
			s.EncodeFeatures(x)
			inf.Forward(x, 1, nil, wdl, score)
			if base == nn.ValueBaseMaterial {
				tactics.ApplyValueOffsets(s, wdl, score, nil)
			}
			p := float64(wdl[0]) + float64(wdl[1])/2
			want := 400 * math.Log(p/(1-p))
			if math.Abs(float64(scores[i])-want) > 1.5 {
				t.Errorf("%s base, position %d (%s): score %d, want %.1f", base, i, positions[i].FEN(), scores[i], want)
			}
			differ = differ || scores[i] != scores[0]
		}
		if !differ {
			t.Errorf("%s base: every position scored %d", base, scores[0])
		}
	}
	tch, err := newTeacher("tiny", &neteval.Net{Inference: nntest.Inference(t, nntest.Tiny(t, trench.Game), 5, 6)}, 400)
	if err != nil {
		t.Fatal(err)
	}
	if err := tch.relabel(positions[:2], make([]int, 1)); err == nil {
		t.Error("relabel took 2 positions and 1 score")
	}
}

// TestRunWithTeacher runs two generations with a tiny conv net as the
// teacher: generation 0's positions carry its scores, generation 1's the
// search's, and the metrics and settings name it.
func TestRunWithTeacher(t *testing.T) {
	dir := t.TempDir()
	cfg := tiny(t)
	w := tinyConvNet(t, nn.ValueBaseMaterial)
	cfg.Teacher = saveConvNet(t, w, t.TempDir(), 42)
	cfg, err := Prepare(dir, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Run(context.Background(), dir, cfg, Options{Progress: &out, Warnings: &out}); err != nil {
		t.Fatal(err)
	}
	lines, _, err := ReadMetrics(dir)
	if err != nil || len(lines) != 2 {
		t.Fatalf("%d lines, %v; output:\n%s", len(lines), err, out.String())
	}
	if want := cfg.Teacher + " (step 42)"; lines[0].Teacher != want || lines[1].Teacher != "" {
		t.Errorf("teachers %q and %q, want %q and none", lines[0].Teacher, lines[1].Teacher, want)
	}
	saved, err := Prepare(dir, tiny(t), nil)
	if err != nil || saved.Teacher != cfg.Teacher {
		t.Errorf("saved teacher %q, %v; want %q", saved.Teacher, err, cfg.Teacher)
	}
	tch, err := LoadTeacher(cfg.Teacher, 400)
	if err != nil {
		t.Fatal(err)
	}
	names, err := data.ShardNames(filepath.Join(dir, dataDir))
	if err != nil {
		t.Fatal(err)
	}
	var gen [2]int
	taught1 := 0
	for _, name := range names {
		recs, err := data.ReadShard(filepath.Join(dir, dataDir, name))
		if err != nil {
			t.Fatal(err)
		}
		g := 0
		if strings.HasPrefix(name, "shard-g000001-") {
			g = 1
		}
		positions := make([]trench.Position, len(recs))
		for i := range recs {
			positions[i] = recs[i].Position
		}
		labels := make([]int, len(recs))
		if err := tch.relabel(positions, labels); err != nil {
			t.Fatal(err)
		}
		for i, r := range recs {
			// Generation 1's scores are the search's with the net of
			// generation 0 (no longer whole points as the rules').
			if g == 0 && int(r.Score) != labels[i] {
				t.Errorf("%s, record %d: score %d, teacher's %d", name, i, r.Score, labels[i])
			}
			if g == 1 && int(r.Score) == labels[i] {
				taught1++
			}
			gen[g]++
		}
	}
	if gen[0] < cfg.Positions || gen[1] < cfg.Positions {
		t.Errorf("%v positions by generation", gen)
	}
	if taught1 > gen[1]/10 {
		t.Errorf("%d of generation 1's %d scores are the teacher's", taught1, gen[1])
	}
}

func TestTeacherErrors(t *testing.T) {
	cfg := tiny(t)
	cfg.Teacher = filepath.Join(t.TempDir(), "missing.tnet")
	dir := t.TempDir()
	if _, err := Prepare(dir, cfg, nil); err == nil || !strings.Contains(err.Error(), "--teacher") || !strings.Contains(err.Error(), "missing.tnet") {
		t.Errorf("a missing teacher: %v", err)
	}
	if holdsNNUE(dir) {
		t.Error("Prepare saved a run with a missing teacher")
	}
	// A net for another board does not teach.
	c := nntest.Tiny(t, trench.Game)
	c.Actions++
	w := nntest.Weights(t, c, 1, 1)
	cfg.Teacher = saveConvNet(t, w, t.TempDir(), 1)
	if _, err := Prepare(t.TempDir(), cfg, nil); err == nil || !strings.Contains(err.Error(), "--teacher") {
		t.Errorf("a net of another game: %v", err)
	}
}

// BenchmarkTeacher measures labelling with the built-in net, a game's
// worth of positions (128) a call: positions/s is the figure.
func BenchmarkTeacher(b *testing.B) {
	tch, err := LoadTeacher(shipped.Ref, 400)
	if err != nil {
		b.Fatal(err)
	}
	b.Log(tch.Name)
	positions := gamePositions(128)
	scores := make([]int, len(positions))
	n := 0
	for b.Loop() {
		if err := tch.relabel(positions, scores); err != nil {
			b.Fatal(err)
		}
		n += len(positions)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
}
