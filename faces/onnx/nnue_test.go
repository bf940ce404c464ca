package onnx

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"trench/alphabeta"
	"trench/checkpoints/shipped"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nnue"
)

// nnueTol is how far onnxruntime's logit may be from nnue.Net.Evaluate's.
const nnueTol = 1e-4

// shippedNNUE decodes the NNUE built into the binary.
func shippedNNUE(t testing.TB) *nnue.Net {
	t.Helper()
	n, err := nnue.Decode(shipped.NNUE(), shipped.NNUEName)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// selfPlayPositions returns n positions from games that alpha-beta plays
// against itself at depth 2 with the shipped NNUE, every third ply of
// each; each game opens with four random plies drawn from a fixed seed so
// that the games differ, and the searches at a fixed depth are
// deterministic, so the positions are the same on every run.
func selfPlayPositions(t testing.TB, net *nnue.Net, n int) []trench.Position {
	t.Helper()
	eval, err := nnue.NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	search, err := alphabeta.NewWith(16, eval)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(43, 4))
	var out []trench.Position
	var moves []trench.Move
	for len(out) < n {
		search.Clear()
		p := trench.StartPosition()
		for ply := 0; ply < 400 && !p.Over() && len(out) < n; ply++ {
			if ply%3 == 0 {
				out = append(out, p)
			}
			var m trench.Move
			if ply < 4 {
				moves = p.GenerateMoves(moves[:0])
				m = moves[rng.IntN(len(moves))]
			} else {
				res, err := search.Search(context.Background(), p, alphabeta.Limits{Depth: 2})
				if err != nil {
					t.Fatal(err)
				}
				m = res.Move
			}
			p.Play(m)
		}
	}
	return out
}

// denseInput is an NNUE model's input for n positions of feature set fs
// as docs/onnx.md tells a caller to compute it: for each position one row
// of fs.Inputs a perspective, 1 at the features that features(i, k, dst)
// appends to dst for position i from its k-th perspective (the side to
// move's first, then each player after it in the order of play), 0
// elsewhere.
func denseInput(n int, fs *nnue.FeatureSet, features func(i, k int, dst []int32) []int32) []float32 {
	views := fs.Perspectives
	out := make([]float32, n*views*fs.Inputs)
	feats := make([]int32, 0, fs.MaxActive)
	for i := range n {
		for k := range views {
			row := out[(i*views+k)*fs.Inputs:]
			for _, f := range features(i, k, feats[:0]) {
				row[f] = 1
			}
		}
	}
	return out
}

// nnueInput is the Trench NNUE model's input for positions: the side to
// move's features in the first row, the other player's in the second.
func nnueInput(positions []trench.Position) []float32 {
	return denseInput(len(positions), nnue.Trench, func(i, k int, dst []int32) []int32 {
		p := &positions[i]
		c := p.SideToMove()
		if k == 1 {
			c = c.Other()
		}
		return nnue.Features(p, c, dst)
	})
}

// TestExportNNUEInOnnxruntime runs the shipped NNUE's model, and the
// model of that net given a linear path, in onnxruntime on 300 positions of alpha-beta's self-play, in one batch
// and then one position alone, and checks that its logit is within
// nnueTol of nnue.Net.Evaluate's and its centipoints within nnueTol of
// that logit times nnue.EvalScale (on the logit's scale).
func TestExportNNUEInOnnxruntime(t *testing.T) {
	dir := ortDir(t)
	// The shipped net, and the same with a linear path of random
	// weights (nnue.Net.PSQT).
	linear := *shippedNNUE(t)
	r := rand.New(rand.NewPCG(44, 5))
	linear.PSQT = make([]float32, nnue.Inputs)
	for i := range linear.PSQT {
		linear.PSQT[i] = float32(r.NormFloat64() / 3)
	}
	for _, tc := range []struct {
		name string
		net  *nnue.Net
	}{{"shipped", shippedNNUE(t)}, {"with the linear path", &linear}} {
		t.Run(tc.name, func(t *testing.T) { testNNUEInOnnxruntime(t, dir, tc.net) })
	}
}

func testNNUEInOnnxruntime(t *testing.T, dir string, net *nnue.Net) {
	model, err := EncodeNNUE(net, NNUESource{File: shipped.NNUEName})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nnue.onnx")
	if err := os.WriteFile(path, model, 0o644); err != nil {
		t.Fatal(err)
	}
	positions := selfPlayPositions(t, net, 300)
	want := make([]float32, len(positions))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range positions {
		want[i] = net.Evaluate(&positions[i])
		lo, hi = min(lo, float64(want[i])), max(hi, float64(want[i]))
	}
	t.Logf("%d positions, logits %.3g to %.3g", len(positions), lo, hi)
	if hi-lo < 1 {
		t.Errorf("the positions' logits span only %.3g to %.3g: not a test of the net", lo, hi)
	}
	input := nnueInput(positions)
	for _, n := range []int{len(positions), 1} {
		got := runORT(t, dir, path, input[:n*2*nnue.Inputs], n, OutputLogit, OutputCentipoints)
		for _, name := range []string{OutputLogit, OutputCentipoints} {
			if len(got[name]) != n {
				t.Fatalf("batch %d: %s has %d values, want %d", n, name, len(got[name]), n)
			}
		}
		var worst, worstCP float64
		for i := range n {
			y := float64(want[i])
			d := math.Abs(float64(got[OutputLogit][i]) - y)
			dcp := math.Abs(float64(got[OutputCentipoints][i])/nnue.EvalScale - y)
			if d > nnueTol || math.IsNaN(d) {
				t.Errorf("batch %d, position %d: logit %v in onnxruntime, %v in nnue.Net.Evaluate", n, i, got[OutputLogit][i], y)
			}
			if dcp > nnueTol || math.IsNaN(dcp) {
				t.Errorf("batch %d, position %d: %v centipoints in onnxruntime, want %v", n, i, got[OutputCentipoints][i], y*nnue.EvalScale)
			}
			worst, worstCP = max(worst, d), max(worstCP, dcp)
		}
		t.Logf("batch %d: largest difference %.3g in the logit, %.3g in centipoints/%d", n, worst, worstCP, nnue.EvalScale)
	}
}

// TestExportNNUEOnnxChecker has onnx.checker.check_model, with shape
// inference, accept the shipped NNUE's model and read back its metadata.
func TestExportNNUEOnnxChecker(t *testing.T) {
	py := checkerPython(t)
	net := shippedNNUE(t)
	src := NNUESource{File: shipped.NNUEName, SHA256: strings.Repeat("cd", 32)}
	model, err := EncodeNNUE(net, src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nnue.onnx")
	if err := os.WriteFile(path, model, 0o644); err != nil {
		t.Fatal(err)
	}
	got := checkModel(t, py, path)
	if want := metadataLines(NNUEMetadata(net, src)); got != want {
		t.Errorf("metadata read back by onnx:\n%s\nwant:\n%s", got, want)
	}
}

// TestExportNNUEStructure decodes the shipped NNUE's model and checks
// its header, metadata, input and outputs, that every node reads only
// values defined before it, its operators, and that the initializers
// hold the net's weights bit for bit.
func TestExportNNUEStructure(t *testing.T) {
	net := shippedNNUE(t)
	src := NNUESource{File: "net.nnue", SHA256: "00"}
	b, err := EncodeNNUE(net, src)
	if err != nil {
		t.Fatal(err)
	}
	m := parse(t, b)
	if m.int(modelIRVersion) != IRVersion || m.str(modelProducerName) != Producer {
		t.Errorf("IR version %d, producer %q", m.int(modelIRVersion), m.str(modelProducerName))
	}
	if ops := m.subs(t, modelOpsetImport); len(ops) != 1 || ops[0].int(opsetVersion) != Opset {
		t.Errorf("opset imports %v", m[modelOpsetImport])
	}
	var meta [][2]string
	for _, e := range m.subs(t, modelMetadataProps) {
		meta = append(meta, [2]string{e.str(entryKey), e.str(entryValue)})
	}
	if want := NNUEMetadata(net, src); !slices.Equal(meta, want) {
		t.Errorf("metadata %v, want %v", meta, want)
	}

	g := m.subs(t, modelGraph)[0]
	ins, outs := g.subs(t, graphInput), g.subs(t, graphOutput)
	if len(ins) != 1 {
		t.Fatalf("%d inputs", len(ins))
	}
	if name, dims := shapeOf(t, ins[0]); name != InputFeatures || !slices.Equal(dims, []string{BatchDim, "2", strconv.Itoa(nnue.Inputs)}) {
		t.Errorf("input %s %v", name, dims)
	}
	var outNames []string
	for _, o := range outs {
		name, dims := shapeOf(t, o)
		outNames = append(outNames, name)
		if !slices.Equal(dims, []string{BatchDim, "1"}) {
			t.Errorf("output %s %v, want batch × 1", name, dims)
		}
	}
	if !slices.Equal(outNames, []string{OutputLogit, OutputCentipoints}) {
		t.Errorf("outputs %v", outNames)
	}

	defined := map[string]bool{InputFeatures: true}
	inits := map[string][]float32{}
	for _, init := range g.subs(t, graphInitializer) {
		name := init.str(tensorName)
		inits[name], defined[name] = floats(init.f(tensorRawData)), true
	}
	var ops []string
	for _, n := range g.subs(t, graphNode) {
		for _, in := range n.strs(nodeInput) {
			if !defined[in] {
				t.Errorf("node %s reads %s before it is defined", n.str(nodeName), in)
			}
		}
		for _, out := range n.strs(nodeOutput) {
			if defined[out] {
				t.Errorf("node %s defines %s again", n.str(nodeName), out)
			}
			defined[out] = true
		}
		ops = append(ops, n.str(nodeOpType))
	}
	if want := []string{"MatMul", "Add", "Clip", "Mul", "Flatten", "Gemm", "Mul"}; !slices.Equal(ops, want) {
		t.Errorf("operators %v, want %v", ops, want)
	}
	for name, w := range map[string][]float32{"/ft/w": net.FT, "/ft/b": net.FTBias, "/out/w": net.Out, "/out/b": {net.OutBias}} {
		if !slices.Equal(inits[name], w) {
			t.Errorf("initializer %s differs from the net's weights", name)
		}
	}
}

// TestExportNNUERefusesBadNets has EncodeNNUE return an error, not
// panic, for a net it cannot encode.
func TestExportNNUERefusesBadNets(t *testing.T) {
	good := shippedNNUE(t)
	short := *good
	short.FT = short.FT[1:]
	nan := *good
	nan.Out = slices.Clone(nan.Out)
	nan.Out[3] = float32(math.NaN())
	tiny := *good
	tiny.Hidden = 2
	for _, tc := range []struct {
		name string
		net  *nnue.Net
		says string
	}{
		{"nil", nil, "no nnue net"},
		{"FT short", &short, "FT has"},
		{"a weight NaN", &nan, "Out[3]"},
		{"hidden too small", &tiny, "hidden size 2"},
	} {
		if _, err := EncodeNNUE(tc.net, NNUESource{}); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.says)
		}
	}
	if _, err := EncodeNNUE(good, NNUESource{}); err != nil {
		t.Errorf("the shipped net: %v", err)
	}
}

// trichessNNUE is a Trichess net of 64 hidden units with random weights
// from seed and a linear path of random weights, so that its values
// span several units of the logit.
func trichessNNUE(t testing.TB, seed uint64) *nnue.Net {
	t.Helper()
	n, err := nnue.Trichess.New(64, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 6))
	n.PSQT = make([]float32, nnue.TrichessInputs)
	for i := range n.PSQT {
		n.PSQT[i] = float32(r.NormFloat64() / 3)
	}
	return n
}

// randomTrichessPositions returns n positions of Trichess games of
// random moves from a fixed seed, every second ply of each.
func randomTrichessPositions(n int) []trichess.Position {
	rng := rand.New(rand.NewPCG(47, 8))
	var out []trichess.Position
	var moves []trichess.Move
	for len(out) < n {
		p := trichess.StartPosition()
		for ply := 0; ply < 300 && len(out) < n; ply++ {
			moves = p.GenerateMoves(moves[:0])
			if len(moves) == 0 {
				break
			}
			if ply%2 == 0 {
				out = append(out, p)
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// trichessInput is the Trichess NNUE model's input for positions: the
// side to move's features, then the next seat's, then the one after.
func trichessInput(positions []trichess.Position) []float32 {
	return denseInput(len(positions), nnue.Trichess, func(i, k int, dst []int32) []int32 {
		p := &positions[i]
		return nnue.TrichessFeatures(p, trichess.Color((int(p.SideToMove())+k)%3), dst)
	})
}

// TestExportTrichessNNUEInOnnxruntime runs a Trichess NNUE's model in
// onnxruntime on 200 positions of random games and checks its logit
// against the mover's value of nnue.Net.TrichessValues to nnueTol, and
// its declared input shape.
func TestExportTrichessNNUEInOnnxruntime(t *testing.T) {
	net := trichessNNUE(t, 9)
	model, err := EncodeNNUE(net, NNUESource{File: "tri.nnue", SHA256: "00"})
	if err != nil {
		t.Fatal(err)
	}
	g := parse(t, model).subs(t, modelGraph)[0]
	if name, dims := shapeOf(t, g.subs(t, graphInput)[0]); name != InputFeatures || !slices.Equal(dims, []string{BatchDim, "3", strconv.Itoa(nnue.TrichessInputs)}) {
		t.Errorf("input %s %v, want batch × 3 × %d", name, dims, nnue.TrichessInputs)
	}
	meta := map[string]string{}
	for _, kv := range NNUEMetadata(net, NNUESource{}) {
		meta[kv[0]] = kv[1]
	}
	if meta["game"] != "trichess" || meta["feature_shape"] != "3x"+strconv.Itoa(nnue.TrichessInputs) || !strings.Contains(meta["net"], "×3→1") {
		t.Errorf("metadata %v", meta)
	}
	dir := ortDir(t)
	path := filepath.Join(t.TempDir(), "tri.onnx")
	if err := os.WriteFile(path, model, 0o644); err != nil {
		t.Fatal(err)
	}
	positions := randomTrichessPositions(200)
	want := make([]float32, len(positions))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range positions {
		want[i] = net.TrichessValues(&positions[i])[positions[i].SideToMove()]
		lo, hi = min(lo, float64(want[i])), max(hi, float64(want[i]))
	}
	if hi-lo < 1 {
		t.Fatalf("the positions' logits span only %.3g to %.3g: not a test of the net", lo, hi)
	}
	input := trichessInput(positions)
	for _, n := range []int{len(positions), 1} {
		got := runORT(t, dir, path, input[:n*3*nnue.TrichessInputs], n, OutputLogit, OutputCentipoints)
		if len(got[OutputLogit]) != n || len(got[OutputCentipoints]) != n {
			t.Fatalf("batch %d: %d logits and %d centipoints", n, len(got[OutputLogit]), len(got[OutputCentipoints]))
		}
		for i := range n {
			y := float64(want[i])
			if d := math.Abs(float64(got[OutputLogit][i]) - y); d > nnueTol || math.IsNaN(d) {
				t.Errorf("batch %d, position %d: logit %v in onnxruntime, %v in nnue.Net.TrichessValues", n, i, got[OutputLogit][i], y)
			}
			if d := math.Abs(float64(got[OutputCentipoints][i])/nnue.EvalScale - y); d > nnueTol || math.IsNaN(d) {
				t.Errorf("batch %d, position %d: %v centipoints in onnxruntime, want %v", n, i, got[OutputCentipoints][i], y*nnue.EvalScale)
			}
		}
	}
}
