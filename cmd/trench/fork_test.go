package main

import (
	"path/filepath"
	"strings"
	"testing"

	"trench/training/generations"
)

// TestForkCommand branches a two-generation NNUE run at generation 1
// with another λ, trains the branch on, and checks what trench fork
// refuses, each with exit status 2 and the input named.
func TestForkCommand(t *testing.T) {
	src := filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "--run", src, "--preset", "nnue", "--generations", "2"}, tinyNNUE...)
	if code, _, errOut := runCLI(args...); code != 0 {
		t.Fatalf("train: code %d: %s", code, errOut)
	}
	dst := filepath.Join(t.TempDir(), "branch")
	code, out, errOut := runCLI("fork", "--from", src, "--generation", "1", "--run", dst, "--set", "lambda=0.1", "--set", "generations=3")
	if code != 0 || !strings.Contains(out, "is a branch of "+src+" at generation 1") || !strings.Contains(out, "with generations 3, lambda 0.1") {
		t.Fatalf("fork: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("train", "--run", dst); code != 0 {
		t.Fatalf("train the branch: code %d: %s", code, errOut)
	}
	lines := checkNNUERun(t, dst, false)
	want, _, err := generations.ReadMetrics(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || lines[0].SHA256 != want[0].SHA256 || lines[1].SHA256 == want[1].SHA256 {
		t.Errorf("the branch's generations %+v, the run's %+v", lines, want)
	}
	if cfg, err := generations.LoadConfig(dst); err != nil || cfg.Lambda != 0.1 {
		t.Errorf("the branch's config: λ %v, %v", cfg.Lambda, err)
	}
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"no generation", []string{"--from", src, "--run", "x"}, "--generation"},
		{"not a run", []string{"--from", t.TempDir(), "--generation", "0", "--run", filepath.Join(t.TempDir(), "b")}, "is not a run of trench train --preset nnue"},
		{"the run itself", []string{"--from", src, "--generation", "0", "--run", src}, "a branch needs a directory of its own"},
		{"a bad --set", []string{"--from", src, "--generation", "0", "--run", filepath.Join(t.TempDir(), "b"), "--set", "lambda"}, `--set "lambda": want KEY=VALUE`},
		{"a --set twice", []string{"--from", src, "--generation", "0", "--run", filepath.Join(t.TempDir(), "b"), "--set", "lr=1", "--set", "lr=2"}, "--set lr given twice"},
		{"an unknown setting", []string{"--from", src, "--generation", "0", "--run", filepath.Join(t.TempDir(), "b"), "--set", "speed=9"}, "--set speed: not a setting"},
		{"an unplayed generation", []string{"--from", src, "--generation", "5", "--run", filepath.Join(t.TempDir(), "b")}, "not 5"},
		{"into a run", []string{"--from", src, "--generation", "0", "--run", dst}, "already holds a run"},
	} {
		code, _, errOut := runCLI(append([]string{"fork"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.says) {
			t.Errorf("%s: code %d, stderr %q, want 2 and %q", tc.name, code, errOut, tc.says)
		}
	}
}
