package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine/trench"
	"trench/nn/nntest"
	"trench/nnue"
	"trench/searchconfig"
	"trench/training/generations"
)

// tinyNNUERun makes an NNUE run directory in dir as trench train
// --preset nnue lays it out: its settings, generation 0's net of 16
// hidden units (accepted by its gate) and generation 1's (rejected),
// and their metrics lines. It returns the run and the accepted net's
// file.
func tinyNNUERun(t *testing.T, dir string) (string, string) {
	t.Helper()
	run := filepath.Join(dir, "nnue-run")
	c, err := generations.Preset(generations.PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generations.Prepare(run, c, nil); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	var accepted string
	for gen, ok := range []bool{true, false} {
		net, err := nnue.New(16, uint64(gen+1))
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("gen-%06d.nnue", gen)
		file := filepath.Join(run, nnue.RunNetsDir, name)
		if err := net.Save(file); err != nil {
			t.Fatal(err)
		}
		if ok {
			accepted = file
		}
		line, err := json.Marshal(generations.Metrics{Generation: gen, Net: name, Gate: &generations.Gate{Accepted: ok}, Rejected: !ok})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, line...), '\n')
	}
	if err := os.WriteFile(filepath.Join(run, nnue.RunMetricsFile), lines, 0o644); err != nil {
		t.Fatal(err)
	}
	return run, accepted
}

// TestExportCommand exports each kind of net --net takes and checks
// the model's metadata: the built-in nets of either kind, an NNUE file
// and run directory, a conv-net checkpoint file and run directory.
func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	nnueFile := filepath.Join(dir, "net.nnue")
	if err := os.WriteFile(nnueFile, shipped.NNUE(), 0o644); err != nil {
		t.Fatal(err)
	}
	nnueRun, nnueAccepted := tinyNNUERun(t, dir)
	convFile := filepath.Join(dir, "net.tnet")
	if err := os.WriteFile(convFile, shipped.Default(), 0o644); err != nil {
		t.Fatal(err)
	}
	convRun := filepath.Join(dir, "conv-run")
	nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), convRun, 10)
	convCkpt := nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), convRun, 20)
	// A conv-net run has metrics lines too, as an NNUE run has.
	if err := os.WriteFile(filepath.Join(convRun, "metrics.jsonl"), []byte(`{"step":10}`+"\n"+`{"step":20}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	const nnueOut, convOut = "/output/logit", "/output/policy"
	for _, tc := range []struct {
		name   string
		args   []string
		output string // an output only that kind of model has
		sum    string
		from   string
		more   []string // more strings of the metadata
	}{
		{"built-in", nil, nnueOut, sum(shipped.NNUE()), shipped.NNUEName, []string{"hidden", "128"}},
		{"built-in NNUE", []string{"--kind", searchconfig.AlphaBeta}, nnueOut, sum(shipped.NNUE()), shipped.NNUEName, nil},
		{"built-in conv net", []string{"--kind", searchconfig.MCTS}, convOut, sum(shipped.Default()), shipped.Name, []string{"checkpoint_step", "95000"}},
		{"built-in Trichess NNUE", []string{"--game", "trichess"}, nnueOut, sum(shipped.TrichessNNUE()), shipped.TrichessNNUEName, []string{"hidden", "128", "trichess"}},
		{"built-in Trichess conv net", []string{"--game", "trichess", "--kind", searchconfig.MCTS}, convOut, sum(shipped.Trichess()), shipped.TrichessName, []string{"checkpoint_step", "20000", "trichess"}},
		{"NNUE file", []string{"--net", nnueFile}, nnueOut, sum(shipped.NNUE()), nnueFile, nil},
		{"NNUE run", []string{"--net", nnueRun}, nnueOut, sum(read(nnueAccepted)), nnueAccepted, []string{"hidden", "16"}},
		{"NNUE run, kind named", []string{"--net", nnueRun, "--kind", searchconfig.AlphaBeta}, nnueOut, sum(read(nnueAccepted)), nnueAccepted, nil},
		{"conv-net file", []string{"--net", convFile}, convOut, sum(shipped.Default()), convFile, []string{"checkpoint_step", "95000"}},
		{"conv-net run", []string{"--net", convRun}, convOut, sum(read(convCkpt)), convCkpt, []string{"checkpoint_step", "20"}},
		{"conv-net run, kind named", []string{"--net", convRun, "--kind", searchconfig.MCTS}, convOut, sum(read(convCkpt)), convCkpt, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.onnx")
			code, stdout, stderr := runCLI(append([]string{"export", "--out", out}, tc.args...)...)
			if code != 0 || !strings.HasPrefix(stdout, "wrote "+out) || !strings.Contains(stdout, tc.from) {
				t.Fatalf("code %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			model := read(out)
			// metadata_props and value names are plain strings in the
			// protobuf.
			other := map[string]string{nnueOut: convOut, convOut: nnueOut}[tc.output]
			if bytes.Contains(model, []byte(other)) {
				t.Errorf("the model has %s: the wrong kind", other)
			}
			for _, s := range append([]string{"checkpoint_sha256", tc.sum, tc.output, tc.from}, tc.more...) {
				if !bytes.Contains(model, []byte(s)) {
					t.Errorf("the model lacks %q", s)
				}
			}
		})
	}
}

// TestExportCommandRefuses gives export what it cannot export: each
// exits with one line naming what it got, and leaves an existing output
// as it was.
func TestExportCommandRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	corrupt := write("corrupt.tnet", shipped.Default()[:len(shipped.Default())/2])
	corruptNNUE := write("corrupt.nnue", shipped.NNUE()[:1000])
	text := write("notes.txt", []byte("not a net\n"))
	empty := write("empty", nil)
	nnueFile := write("net.nnue", shipped.NNUE())
	triNet, err := nnue.Trichess.New(64, 3)
	if err != nil {
		t.Fatal(err)
	}
	triImage, err := triNet.Encode()
	if err != nil {
		t.Fatal(err)
	}
	trichessFile := write("trichess.nnue", triImage)
	convFile := write("net.tnet", shipped.Default())
	old := write("old.onnx", []byte("old"))
	plainDir := filepath.Join(dir, "plain")
	if err := os.Mkdir(plainDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh-run") // an NNUE run in generation 0
	c, err := generations.Preset(generations.PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generations.Prepare(fresh, c, nil); err != nil {
		t.Fatal(err)
	}
	rejected := filepath.Join(dir, "rejected-run") // its one net rejected
	if _, err := generations.Prepare(rejected, c, nil); err != nil {
		t.Fatal(err)
	}
	rejectedNet := filepath.Join(rejected, nnue.RunNetsDir, "gen-000000.nnue")
	if err := os.WriteFile(rejectedNet, shipped.NNUE(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rejected, nnue.RunMetricsFile), []byte(`{"generation":0,"net":"gen-000000.nnue","gate":{"Accepted":false},"rejected":true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{}, 2, []string{"--out is required"}},
		{[]string{"--out", old, "extra"}, 2, []string{`unexpected argument "extra"`}},
		{[]string{"--out", old, "--game", "chess"}, 2, []string{`unknown game "chess"`}},
		{[]string{"--out", old, "--kind", "minimax"}, 2, []string{`--kind "minimax"`, "alphabeta or mcts"}},
		{[]string{"--out", old, "--net", filepath.Join(dir, "nope.tnet")}, 2, []string{"nope.tnet", "no such net file or run directory", "--net takes"}},
		{[]string{"--out", old, "--net", text}, 2, []string{text, "neither", "--net takes"}},
		{[]string{"--out", old, "--net", empty}, 2, []string{empty, "too short", "--net takes"}},
		{[]string{"--out", old, "--net", plainDir}, 2, []string{plainDir, "no run directory", "--net takes"}},
		{[]string{"--out", old, "--net", fresh}, 2, []string{fresh, "no net accepted yet"}},
		{[]string{"--out", old, "--net", corrupt}, 2, []string{corrupt}},
		{[]string{"--out", old, "--net", corruptNNUE}, 2, []string{corruptNNUE, "bad nnue net size"}},
		{[]string{"--out", old, "--net", convFile, "--game", "trichess"}, 2, []string{"features"}},
		{[]string{"--out", old, "--net", nnueFile, "--game", "trichess"}, 2, []string{nnueFile, "a trench (feature set 1) net, want a trichess"}},
		{[]string{"--out", old, "--net", trichessFile}, 2, []string{trichessFile, "a trichess (feature set 2) net, want a trench"}},
		{[]string{"--out", old, "--net", nnueFile, "--kind", "mcts"}, 2, []string{nnueFile, "the alphabeta kind's net, not the mcts kind's"}},
		{[]string{"--out", old, "--net", convFile, "--kind", "alphabeta"}, 2, []string{convFile, "the mcts kind's net, not the alphabeta kind's"}},
		{[]string{"--out", old, "--game", "tictactoe", "--kind", "alphabeta"}, 2, []string{"tictactoe has no NNUE", "--kind mcts"}},
		{[]string{"--out", old, "--game", "tictactoe"}, 2, []string{"no net is built in"}},
		{[]string{"--out", filepath.Join(empty, "x.onnx")}, 1, []string{"writing"}},
	} {
		code, stdout, stderr := runCLI(append([]string{"export"}, tc.args...)...)
		if code != tc.code || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want code %d and one line", tc.args, code, stdout, stderr, tc.code)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", tc.args, stderr, w)
			}
		}
		if b, _ := os.ReadFile(old); string(b) != "old" {
			t.Fatalf("%v: the existing output now holds %d bytes", tc.args, len(b))
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := "corrupt.nnue corrupt.tnet empty fresh-run net.nnue net.tnet notes.txt old.onnx plain rejected-run trichess.nnue"; strings.Join(names, " ") != want {
		t.Errorf("the directory holds %v, want %s: a failed export left a file behind", names, want)
	}
	// A Trichess NNUE exports for --game trichess.
	out := filepath.Join(t.TempDir(), "trichess.onnx")
	if code, stdout, stderr := runCLI("export", "--game", "trichess", "--out", out, "--net", trichessFile); code != 0 || !strings.Contains(stdout, "trichess NNUE, 64 hidden units") {
		t.Errorf("export of a Trichess NNUE: code %d, %q %q", code, stdout, stderr)
	} else if _, err := os.Stat(out); err != nil {
		t.Errorf("export of a Trichess NNUE wrote no model: %v", err)
	}
	// A run whose gates have accepted no net yet exports its newest net.
	out = filepath.Join(t.TempDir(), "rejected.onnx")
	if code, stdout, stderr := runCLI("export", "--out", out, "--net", rejected); code != 0 || !strings.Contains(stdout, rejectedNet) {
		t.Errorf("export of a run with no net accepted: code %d, %q %q; want its newest net, %s", code, stdout, stderr, rejectedNet)
	}
}

// TestExportedNNUERunsInOnnxruntime exports an NNUE run's net with the
// command and runs the model in onnxruntime (faces/onnx's runner) on the
// start position: its logit must be the Go evaluation's within 1e-4. It
// skips without node or onnxruntime-node, as faces/onnx's tests do.
func TestExportedNNUERunsInOnnxruntime(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: apt-get install nodejs npm, then npm ci in faces/onnx/testdata/ort, to run the model in onnxruntime")
	}
	ort, err := filepath.Abs(filepath.Join("..", "..", "faces", "onnx", "testdata", "ort"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ort, "node_modules", "onnxruntime-node")); err != nil {
		t.Skip("onnxruntime-node is not installed: run ONNXRUNTIME_NODE_INSTALL=skip npm ci in faces/onnx/testdata/ort")
	}
	dir := t.TempDir()
	run, file := tinyNNUERun(t, dir)
	model := filepath.Join(dir, "x.onnx")
	if code, stdout, stderr := runCLI("export", "--net", run, "--out", model); code != 0 {
		t.Fatalf("export: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	net, err := nnue.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	p := trench.StartPosition()
	p.Play(p.GenerateMoves(nil)[3])
	// The input as docs/onnx.md describes it: the side to move's
	// features, then the other player's, each a row of nnue.Inputs.
	input := make([]byte, 4*2*nnue.Inputs)
	us := p.SideToMove()
	for k, c := range []trench.Color{us, us.Other()} {
		for _, f := range nnue.Features(&p, c, nil) {
			binary.LittleEndian.PutUint32(input[4*(k*nnue.Inputs+int(f)):], math.Float32bits(1))
		}
	}
	in := filepath.Join(dir, "input.bin")
	if err := os.WriteFile(in, input, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(ort, "run.js"), model, in, "1", dir)
	cmd.Dir = ort
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node run.js: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "_output_logit.bin"))
	if err != nil || len(b) != 4 {
		t.Fatalf("onnxruntime's logit: %d bytes, %v", len(b), err)
	}
	got, want := math.Float32frombits(binary.LittleEndian.Uint32(b)), net.Evaluate(&p)
	if math.Abs(float64(got-want)) > 1e-4 {
		t.Errorf("onnxruntime's logit %v, nnue.Net.Evaluate's %v", got, want)
	}
}

// FuzzExportKind gives export's sniffing of --net files arbitrary
// contents: it tells an NNUE from a conv-net checkpoint or refuses the
// file, and exporting what it accepts fails or succeeds, never panics.
func FuzzExportKind(f *testing.F) {
	f.Add(shipped.NNUE()[:64])
	f.Add([]byte(checkpoints.Magic + "junk"))
	f.Add([]byte(nnue.Magic))
	f.Add([]byte("TRNCH"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "net")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		kind, err := exportKind(trench.Game, file, "")
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), file) {
				t.Errorf("error %q does not name the file", err)
			}
			return
		case kind == searchconfig.AlphaBeta && bytes.HasPrefix(data, []byte(nnue.Magic)):
			_, _, err = exportNNUE(trench.Game, file)
		case kind == searchconfig.MCTS && bytes.HasPrefix(data, []byte(checkpoints.Magic)):
			_, _, err = exportNet(trench.Game, file, io.Discard)
		default:
			t.Fatalf("kind %q for a file starting %q", kind, data[:min(len(data), 8)])
		}
		if err != nil && !strings.Contains(err.Error(), file) {
			t.Errorf("error %q does not name the file", err)
		}
	})
}
