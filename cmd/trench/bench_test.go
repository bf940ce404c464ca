package main

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"trench/bench"
)

// TestBenchJSON runs a short trench bench with the tiny net and checks that
// every figure is there and measured.
func TestBenchJSON(t *testing.T) {
	code, out, errOut := runCLI("bench", "--net", "tiny", "--duration", "20ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r bench.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if r.Game != "trench" || r.Net != "tiny" || r.MFLOP <= 0 || r.BLAS == "" {
		t.Errorf("report header %+v", r)
	}
	// The build's BLAS, gonum, and the project's kernel beside OpenBLAS.
	peaks := []string{"SGEMM peak, one core (1024", "SGEMM peak, one core, gonum"}
	if !strings.HasPrefix(r.BLAS, "trench-") {
		peaks = slices.Insert(peaks, 1, "SGEMM peak, one core, trench-")
	}
	want := append(peaks, "fast pass, batch 1,", "fast pass, batch 8,", "fast pass, batch 32,", "fast pass, batch 128,", "fast pass, batch 256,",
		"gorgonia graph inference", "training, batch 256 (gorgonia)", "training, batch 256 (fast)", "search, uniform evaluator", "search with the net,", "search with the net: time outside the net",
		"capture search at a leaf", "search with the net and tactical aids",
		"one-tree search with the net, 1 thread", "one-tree search with the net, 2 threads", "self-play", "alphabeta",
		"alphabeta search, hand evaluation", "alphabeta search, nnue net H=128", "nnue update and evaluation, H=128",
		"alphabeta search, nnue net H=256", "nnue update and evaluation, H=256",
		"tree leaf, the built-in NNUE's value at the leaf", "tree leaf, the built-in NNUE's value after quiescence")
	if runtime.GOMAXPROCS(0) > 1 {
		want = slices.Insert(want, slices.Index(want, "search, uniform evaluator"), "training, batch 256 (fast, every core)")
	}
	if len(r.Lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(r.Lines), len(want), r.Lines)
	}
	for i, l := range r.Lines {
		if !strings.HasPrefix(l.Name, want[i]) || !(l.Value > 0) || l.Unit == "" {
			t.Errorf("line %d: %+v, want %q with a positive value", i, l, want[i])
		}
	}
}

// TestBenchPeersJSON compares the tiny net with onnxruntime, when node
// and onnxruntime-node are installed, and checks the report's rows.
func TestBenchPeersJSON(t *testing.T) {
	var missing *bench.MissingError
	if _, _, err := bench.FindPeers(context.Background(), []string{bench.PeerONNXRuntime}); errors.As(err, &missing) {
		t.Skipf("%v", err)
	}
	code, out, errOut := runCLI("bench", "--peers=onnxruntime", "--net", "tiny", "--duration", "5ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r bench.PeerReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	var names []string
	for _, l := range r.Lines {
		names = append(names, l.Name)
	}
	if want := []string{"forward pass, batch 1", "forward pass, batch 32", "forward pass, batch 256"}; r.Net != "tiny" || !slices.Equal(names, want) {
		t.Errorf("net %q, rows %q; want tiny and %q", r.Net, names, want)
	}
}

func TestBenchErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--net", "huge"}, "--net"},
		{[]string{"bench", "--game", "go"}, "--game"},
		{[]string{"bench", "--duration", "0s"}, "--duration"},
		{[]string{"bench", "--checkpoint", "/nonexistent.tnet"}, "nonexistent.tnet"},
		{[]string{"bench", "--net", "tiny", "--checkpoint", "x.tnet"}, "not both"},
		{[]string{"bench", "--peers=onnx"}, `unknown peer "onnx"`},
		{[]string{"bench", "--peers", "--net", "huge"}, "--net"},
		{[]string{"bench", "--peers", "--net", "tiny", "--checkpoint", "x.tnet"}, "not both"},
		{[]string{"bench", "--peers", "--checkpoint", "/nonexistent.tnet"}, "nonexistent.tnet"},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestGemmEnv checks that TRENCH_GEMM forces a kernel path and that a path
// this CPU lacks stops every command with an error naming the variable.
func TestGemmEnv(t *testing.T) {
	for _, tc := range []struct {
		value string
		code  int
		want  string
	}{
		{"generic", 0, "perft 2 192"},
		{"sse9", 2, `TRENCH_GEMM="sse9": no gemm kernel "sse9"`},
	} {
		t.Run(tc.value, func(t *testing.T) {
			cmd := trenchProcess("perft", "--depth", "2")
			cmd.Env = append(cmd.Env, "TRENCH_GEMM="+tc.value)
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(string(out), tc.want) {
				t.Fatalf("exit %d, output %q; want exit %d and %q", code, out, tc.code, tc.want)
			}
		})
	}
}
