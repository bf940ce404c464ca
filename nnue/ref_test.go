package nnue

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints/shipped"
)

// TestLoadRef checks the three kinds of reference: the built-in net, a
// file, and a run directory's newest accepted net, and the errors of
// each.
func TestLoadRef(t *testing.T) {
	dir := t.TempDir()
	save := func(path string, seed uint64) *Net {
		n, err := New(16, seed)
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Save(path); err != nil {
			t.Fatal(err)
		}
		return n
	}
	file := filepath.Join(dir, "a.nnue")
	a := save(file, 1)
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(filepath.Join(run, RunNetsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	save(filepath.Join(run, RunNetsDir, "gen-000000.nnue"), 2)
	accepted := save(filepath.Join(run, RunNetsDir, "gen-000001.nnue"), 3)
	save(filepath.Join(run, RunNetsDir, "gen-000002.nnue"), 4)
	metrics := `{"generation":0,"net":"gen-000000.nnue","gate":{"Accepted":false}}
{"generation":1,"net":"gen-000001.nnue","gate":{"Accepted":true}}
{"generation":2,"net":"gen-000002.nnue","gate":{"Accepted":false},"rejected":true}
{"generation":3,"net":"gen-0000`
	if err := os.WriteFile(filepath.Join(run, RunMetricsFile), []byte(metrics), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(dir, "none")
	if err := os.MkdirAll(none, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(none, RunMetricsFile), []byte(`{"net":"gen-000000.nnue","gate":{"Accepted":false}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(none, RunNetsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	rejected := save(filepath.Join(none, RunNetsDir, "gen-000000.nnue"), 5)
	builtin, err := Decode(shipped.NNUE(), shipped.NNUEName)
	if err != nil {
		t.Fatalf("the built-in net: %v", err)
	}
	for _, tc := range []struct {
		ref, source string
		want        *Net
		err         error
		says        string
	}{
		{"", shipped.NNUEName, builtin, nil, ""},
		{shipped.Ref, shipped.NNUEName, builtin, nil, ""},
		{file, file, a, nil, ""},
		{run, filepath.Join(run, RunNetsDir, "gen-000001.nnue"), accepted, nil, ""},
		{empty, "", nil, ErrNoAcceptedNet, "neither a net file nor a run directory"},
		{none, filepath.Join(none, RunNetsDir, "gen-000000.nnue"), rejected, nil, ""},
		{filepath.Join(dir, "missing.nnue"), "", nil, os.ErrNotExist, "missing.nnue"},
	} {
		n, source, err := LoadRef(tc.ref)
		if tc.err != nil {
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("LoadRef(%q) error %v, want %v saying %q", tc.ref, err, tc.err, tc.says)
			}
			continue
		}
		if err != nil || source != tc.source || n.Hidden != tc.want.Hidden || n.OutBias != tc.want.OutBias || n.FT[7] != tc.want.FT[7] {
			t.Errorf("LoadRef(%q) = %v from %q, %v; want the net from %q", tc.ref, n, source, err, tc.source)
		}
	}
	// The built-in net is decoded once and shared; a file is read again
	// each time, so a net saved over it is the one the next call gets.
	first, _, _ := LoadRef(shipped.Ref)
	if second, _, _ := LoadRef(""); first != second {
		t.Error("LoadRef decoded the built-in net twice")
	}
	b := save(file, 5)
	if n, _, err := LoadRef(file); err != nil || n.FT[7] != b.FT[7] || n.FT[7] == a.FT[7] {
		t.Errorf("LoadRef(%q) after the file was saved over = %v, %v; want the new net", file, n, err)
	}
	// The net that plays a run's next generation is its newest accepted
	// one alone.
	for _, tc := range []struct {
		run, want string
		err       error
	}{
		{run, filepath.Join(run, RunNetsDir, "gen-000001.nnue"), nil},
		{none, "", ErrNoAcceptedNet},
		{empty, "", ErrNoAcceptedNet},
	} {
		got, err := NewestAccepted(tc.run)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("NewestAccepted(%q) = %q, %v; want %q, %v", tc.run, got, err, tc.want, tc.err)
		}
	}
}
