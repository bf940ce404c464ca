package onnx

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nn"
)

// Tolerances of the comparison with onnxruntime: outputs a and b agree
// when |a−b| ≤ relTol·max(|a|, |b|, floor): 1e-4 relative, with an
// absolute floor for values near zero. Logits and scores are sums of
// terms much larger than their results where those cancel, so below 1 they
// must agree to 1e-4 absolute (a logit 1e-4 off changes a probability by
// 0.01%); win/draw/loss probabilities below 0.01 to 1e-6 absolute.
const relTol = 1e-4

// floors are the floors of each output.
var floors = map[string]float64{OutputPolicy: 1, OutputWDL: 0.01, OutputScore: 1}

// testNet is a net the tests export.
type testNet struct {
	name string
	game engine.Game
	w    *nn.Weights
}

// shippedNet decodes a checkpoint built into the binary.
func shippedNet(t testing.TB, name string, g engine.Game, data []byte) testNet {
	t.Helper()
	c, err := checkpoints.Decode(data, name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.WeightsFromCheckpoint(c, g.FeatureShape(), g.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	return testNet{name, g, w}
}

// randomNet is a tiny Trench net with a dense policy head (the head the
// shipped nets lack), material value and capture policy bases, and every
// weight and batch-norm statistic random, so that no layer is an identity.
func randomNet(t testing.TB) testNet {
	t.Helper()
	g := trench.Game
	c, err := nn.Preset("tiny", g.FeatureShape(), g.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	c.ValueBase, c.PolicyBase, c.Seats = nn.ValueBaseMaterial, nn.PolicyBaseCapture, 2
	rng := rand.New(rand.NewPCG(1, 2))
	w, err := nn.NewWeights(c, rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, tensor := range w.Tensors {
		for i := range tensor.Data {
			switch {
			case strings.HasSuffix(tensor.Name, "/bn/var"), strings.HasSuffix(tensor.Name, "/bn/scale"):
				tensor.Data[i] = 0.2 + rng.Float32()
			default:
				tensor.Data[i] = float32(rng.NormFloat64()) * 0.3
			}
		}
	}
	return testNet{"random tiny net with a dense policy head", g, w}
}

// testNets are the nets every comparison covers: both shipped nets (each
// with a material value base; the Trichess one with a capture policy
// base and a 1×1 spatial policy output over action cells) and randomNet.
func testNets(t testing.TB) []testNet {
	return []testNet{
		shippedNet(t, shipped.Name, trench.Game, shipped.Default()),
		shippedNet(t, shipped.TrichessName, trichess.Game, shipped.Trichess()),
		randomNet(t),
	}
}

// positions returns n positions of g from random games, every fifth ply
// of each, with the games' seeds fixed.
func positions(g engine.Game, n int) []engine.State {
	rng := rand.New(rand.NewPCG(7, uint64(len(g.Name()))))
	var out []engine.State
	var acts []int
	for len(out) < n {
		s := g.Start()
		for ply := 0; !s.Over() && len(out) < n; ply++ {
			if ply%5 == 0 {
				out = append(out, s.Clone())
			}
			acts = s.LegalActions(acts)
			s.Play(acts[rng.IntN(len(acts))])
		}
	}
	return out
}

// features encodes states one after another.
func features(states []engine.State) []float32 {
	size := states[0].Game().FeatureShape().Size()
	out := make([]float32, len(states)*size)
	for i, s := range states {
		s.EncodeFeatures(out[i*size : (i+1)*size])
	}
	return out
}

// ortDir returns the directory of the onnxruntime runner, or skips the
// test when node or the onnxruntime-node package is missing.
func ortDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: apt-get install nodejs npm, then npm ci in faces/onnx/testdata/ort, to run the model in onnxruntime")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "ort"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node")); err != nil {
		t.Skip("onnxruntime-node is not installed: run ONNXRUNTIME_NODE_INSTALL=skip npm ci in faces/onnx/testdata/ort")
	}
	return dir
}

// runORT runs model on input (n positions) in onnxruntime and returns
// the outputs named by name.
func runORT(t *testing.T, dir, model string, input []float32, n int, outputs ...string) map[string][]float32 {
	t.Helper()
	tmp := t.TempDir()
	in := filepath.Join(tmp, "input.bin")
	if err := os.WriteFile(in, floatBytes(input), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(dir, "run.js"), model, in, fmt.Sprint(n), tmp)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node run.js %s: %v\n%s", model, err, out)
	}
	res := map[string][]float32{}
	for _, name := range outputs {
		b, err := os.ReadFile(filepath.Join(tmp, strings.ReplaceAll(name, "/", "_")+".bin"))
		if err != nil {
			t.Fatalf("onnxruntime gave no %s: %v\n%s", name, err, out)
		}
		res[name] = make([]float32, len(b)/4)
		for i := range res[name] {
			res[name][i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return res
}

func floatBytes(fs []float32) []byte {
	b := make([]byte, 0, 4*len(fs))
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// difference is the largest disagreement between two runs of one output.
type difference struct {
	abs, rel float64 // largest |a−b| and |a−b|/max(|a|, |b|, floors[output])
	at       int     // the index of the largest relative one
}

func compare(got, want []float32, floor float64) difference {
	var d difference
	for i := range want {
		a, b := float64(got[i]), float64(want[i])
		diff := math.Abs(a - b)
		rel := diff / max(math.Abs(a), math.Abs(b), floor)
		if math.IsNaN(diff) {
			rel = math.Inf(1)
		}
		d.abs = max(d.abs, diff)
		if rel > d.rel || math.IsInf(rel, 1) {
			d.rel, d.at = rel, i
		}
	}
	return d
}

// TestOnnxruntimeMatchesInference runs each exported net in onnxruntime
// on positions from random games, in one batch and then one position
// alone, and compares every output with nn.Inference's.
func TestOnnxruntimeMatchesInference(t *testing.T) {
	dir := ortDir(t)
	for _, net := range testNets(t) {
		t.Run(net.name, func(t *testing.T) {
			model, err := Encode(net.w, Source{Game: net.game.Name()})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "net.onnx")
			if err := os.WriteFile(path, model, 0o644); err != nil {
				t.Fatal(err)
			}
			inf, err := nn.NewInference(net.w)
			if err != nil {
				t.Fatal(err)
			}
			c := net.w.Config
			states := positions(net.game, 300)
			input := features(states)
			for _, n := range []int{len(states), 1} {
				want := map[string][]float32{
					OutputPolicy: make([]float32, n*c.Actions),
					OutputWDL:    make([]float32, n*c.Seats*3),
					OutputScore:  make([]float32, n*c.Seats),
				}
				inf.Forward(input, n, want[OutputPolicy], want[OutputWDL], want[OutputScore])
				got := runORT(t, dir, path, input[:n*c.Shape.Size()], n, OutputPolicy, OutputWDL, OutputScore)
				for _, name := range []string{OutputPolicy, OutputWDL, OutputScore} {
					if len(got[name]) != len(want[name]) {
						t.Fatalf("batch %d: %s has %d values, want %d", n, name, len(got[name]), len(want[name]))
					}
					d := compare(got[name], want[name], floors[name])
					t.Logf("batch %d: %s: largest difference %.3g absolute, %.3g relative", n, name, d.abs, d.rel)
					if d.rel > relTol {
						t.Errorf("batch %d: %s[%d] is %v in onnxruntime, %v in nn.Inference (%.3g relative)",
							n, name, d.at, got[name][d.at], want[name][d.at], d.rel)
					}
				}
			}
		})
	}
}

// checkerPython returns a python3 that imports onnx, or skips.
func checkerPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(py); err == nil && exec.Command(path, "-c", "import onnx").Run() == nil {
			return path
		}
	}
	t.Skip("no python3 with the onnx module (apt-get install python3-onnx) to run onnx.checker")
	return ""
}

// checkScript has onnx.checker check the model argv[1], with shape
// inference, and prints its metadata_props as key=value lines.
const checkScript = `
import sys, onnx
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m, full_check=True)
for p in m.metadata_props:
    print(p.key + "=" + p.value)
`

// checkModel has onnx.checker.check_model accept the model file path
// and returns its metadata as checkScript prints it.
func checkModel(t *testing.T, py, path string) string {
	t.Helper()
	out, err := exec.Command(py, "-c", checkScript, path).CombinedOutput()
	if err != nil {
		t.Fatalf("onnx.checker refuses the model: %v\n%s", err, out)
	}
	return string(out)
}

// metadataLines is meta as checkScript prints it.
func metadataLines(meta [][2]string) string {
	var b strings.Builder
	for _, kv := range meta {
		fmt.Fprintf(&b, "%s=%s\n", kv[0], kv[1])
	}
	return b.String()
}

// TestOnnxChecker has onnx.checker.check_model, with shape inference
// (full_check), accept each exported net and read back its metadata.
func TestOnnxChecker(t *testing.T) {
	py := checkerPython(t)
	for _, net := range testNets(t) {
		t.Run(net.name, func(t *testing.T) {
			src := Source{Game: net.game.Name(), Planes: "the planes", Checkpoint: net.name, Step: 42, SHA256: strings.Repeat("ab", 32)}
			model, err := Encode(net.w, src)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "net.onnx")
			if err := os.WriteFile(path, model, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, want := checkModel(t, py, path), metadataLines(Metadata(net.w.Config, src)); got != want {
				t.Errorf("metadata read back by onnx:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
