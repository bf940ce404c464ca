package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
)

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

	// A checkpoint file and a run directory holding it export the same
	// net as the built-in one, with the same checksum.
	file := filepath.Join(dir, "net.tnet")
	os.WriteFile(file, shipped.Default(), 0o644)
	run := filepath.Join(dir, "run")
	ckpt := filepath.Join(run, checkpoints.Subdir, checkpoints.FileName(95000))
	os.MkdirAll(filepath.Dir(ckpt), 0o755)
	os.WriteFile(ckpt, shipped.Default(), 0o644)
	for _, tc := range []struct {
		args       []string
		sum, step  string
		game, from string
	}{
		{nil, sum(shipped.Default()), "95000", "trench", shipped.Name},
		{[]string{"--game", "trichess"}, sum(shipped.Trichess()), "20000", "trichess", shipped.TrichessName},
		{[]string{"--net", file}, sum(shipped.Default()), "95000", "trench", file},
		{[]string{"--net", run}, sum(shipped.Default()), "95000", "trench", ckpt},
	} {
		out := filepath.Join(dir, "out.onnx")
		code, stdout, stderr := runCLI(append([]string{"export", "--out", out}, tc.args...)...)
		if code != 0 || !strings.HasPrefix(stdout, "wrote "+out) {
			t.Fatalf("export %v: code %d, stdout %q, stderr %q", tc.args, code, stdout, stderr)
		}
		model, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// metadata_props are plain strings in the protobuf.
		for _, s := range []string{"checkpoint_sha256", tc.sum, "checkpoint_step", tc.step, "/output/policy", tc.game, tc.from} {
			if !bytes.Contains(model, []byte(s)) {
				t.Errorf("export %v: the model lacks %q", tc.args, s)
			}
		}
		os.Remove(out)
	}

	// Bad input leaves an existing output as it was.
	corrupt := filepath.Join(dir, "corrupt.tnet")
	os.WriteFile(corrupt, shipped.Default()[:len(shipped.Default())/2], 0o644)
	old := filepath.Join(dir, "old.onnx")
	os.WriteFile(old, []byte("old"), 0o644)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export"}, 2, "--out is required"},
		{[]string{"export", "--out", old, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"export", "--out", old, "--game", "chess"}, 2, `unknown game "chess"`},
		{[]string{"export", "--out", old, "--net", filepath.Join(dir, "nope.tnet")}, 2, "no such checkpoint file or run directory"},
		{[]string{"export", "--out", old, "--net", corrupt}, 2, corrupt},
		{[]string{"export", "--out", old, "--net", file, "--game", "trichess"}, 2, "features"},
		{[]string{"export", "--out", old, "--game", "tictactoe"}, 2, "no net is built in"},
		{[]string{"export", "--out", filepath.Join(notDir, "x.onnx")}, 1, "writing"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want code %d and %q", tc.args[1:], code, stdout, stderr, tc.code, tc.want)
		}
		if b, _ := os.ReadFile(old); string(b) != "old" {
			t.Fatalf("%v: the existing output now holds %d bytes", tc.args[1:], len(b))
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := "corrupt.tnet file net.tnet old.onnx run"; strings.Join(names, " ") != want {
		t.Errorf("the directory holds %v, want %s: a failed export left a file behind", names, want)
	}
}
