package main

import (
	"encoding/json"
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
	want := []string{"SGEMM peak", "fast pass, batch 1,", "fast pass, batch 8,", "fast pass, batch 32,", "fast pass, batch 128,", "fast pass, batch 256,",
		"gorgonia graph inference", "training, batch 256 (gorgonia)", "training, batch 256 (fast)", "search, uniform evaluator", "search with the net,", "search with the net: time outside the net",
		"capture search at a leaf", "search with the net and tactical aids",
		"one-tree search with the net, 1 thread", "one-tree search with the net, 2 threads", "self-play", "alphabeta"}
	if len(r.Lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(r.Lines), len(want), r.Lines)
	}
	for i, l := range r.Lines {
		if !strings.HasPrefix(l.Name, want[i]) || !(l.Value > 0) || l.Unit == "" {
			t.Errorf("line %d: %+v, want %q with a positive value", i, l, want[i])
		}
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
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
