package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/datasets"
	"trench/engine/trench"
)

// A user's path through reanalysis: self-play data from one run, its
// values replaced by another net's, then a net trained on the copy with
// those values as targets; a second reanalysis resumes and copies nothing.
func TestReanalyseCommand(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	code, _, errOut := runCLI("selfplay", "--checkpoint", tinyNetFile(t), "--out", filepath.Join(src, "datasets"), "--games", "4", "--workers", "1", "--preset", "tiny")
	if code != 0 {
		t.Fatalf("selfplay: %s", errOut)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	code, out, errOut := runCLI("reanalyse", "--from", src, "--net", tinyNetFile(t), "--run", dst)
	if code != 0 || !strings.Contains(out, "relabelled") || !strings.Contains(out, " 0 shards already there") {
		t.Fatalf("reanalyse: code %d, %q, %s", code, out, errOut)
	}
	names, err := datasets.ShardNames(filepath.Join(src, "datasets"))
	if err != nil || len(names) == 0 {
		t.Fatalf("source shards %v, %v", names, err)
	}
	copied, err := datasets.ShardNames(filepath.Join(dst, "datasets"))
	if err != nil || !reflect.DeepEqual(copied, names) {
		t.Fatalf("copied %v, %v; want %v", copied, err, names)
	}
	changed := 0
	for _, name := range names {
		before, err := datasets.ReadShard(filepath.Join(src, "datasets", name), trench.Game)
		if err != nil {
			t.Fatal(err)
		}
		after, err := datasets.ReadShard(filepath.Join(dst, "datasets", name), trench.Game)
		if err != nil || len(after) != len(before) {
			t.Fatalf("%s: %d positions, %v; want %d", name, len(after), err, len(before))
		}
		for i := range before {
			if !reflect.DeepEqual(before[i].SearchValue, after[i].SearchValue) {
				changed++
			}
			if before[i].State != after[i].State || !reflect.DeepEqual(before[i].Probs, after[i].Probs) {
				t.Fatalf("%s position %d: more than its search value changed", name, i)
			}
		}
	}
	if changed == 0 {
		t.Errorf("no search value changed")
	}

	// With a search, on two workers: other values again, same positions.
	searched := filepath.Join(t.TempDir(), "searched")
	code, out, errOut = runCLI("reanalyse", "--from", src, "--net", tinyNetFile(t), "--run", searched, "--sims", "4", "--workers", "2")
	if code != 0 || !strings.Contains(errOut, "4-simulation search") {
		t.Fatalf("reanalyse --sims 4: code %d, %q, %s", code, out, errOut)
	}
	for _, name := range names {
		net, _ := datasets.ReadShard(filepath.Join(dst, "datasets", name), trench.Game)
		search, err := datasets.ReadShard(filepath.Join(searched, "datasets", name), trench.Game)
		if err != nil || len(search) != len(net) {
			t.Fatalf("%s searched: %d positions, %v", name, len(search), err)
		}
		same := 0
		for i := range net {
			if reflect.DeepEqual(net[i].SearchValue, search[i].SearchValue) {
				same++
			}
		}
		if same == len(net) {
			t.Errorf("%s: the search's values are the net's", name)
		}
	}

	// The classical search as the teacher, of values and policies.
	taught := filepath.Join(t.TempDir(), "taught")
	code, out, errOut = runCLI("reanalyse", "--from", src, "--classical-depth", "2", "--policy", "--run", taught, "--workers", "2")
	if code != 0 || !strings.Contains(errOut, "alphabeta at depth 2 (value scale 4 points) (its values and policies)") {
		t.Fatalf("reanalyse --classical-depth 2: code %d, %q, %s", code, out, errOut)
	}
	for _, name := range names {
		got, err := datasets.ReadShard(filepath.Join(taught, "datasets", name), trench.Game)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range got {
			if !s.FullSearch || len(s.Probs) != 1 || s.Probs[0] != 1 || s.SearchValue[0] != -s.SearchValue[1] {
				t.Fatalf("%s position %d: target %v %v full %v values %v; want alphabeta's move alone and opposite values", name, i, s.Actions, s.Probs, s.FullSearch, s.SearchValue)
			}
		}
	}

	// The classical search with the built-in NNUE, the bot people play,
	// named as every command names it: no net given.
	nnueTaught := filepath.Join(t.TempDir(), "nnue-taught")
	code, out, errOut = runCLI("reanalyse", "--from", src, "--classical-depth", "1", "--classical-eval", "nnue", "--run", nnueTaught)
	if code != 0 || !strings.Contains(errOut, "alphabeta with nnue "+shipped.NNUEName) {
		t.Fatalf("reanalyse --classical-eval nnue: code %d, %q, %s", code, out, errOut)
	}
	for _, name := range names {
		if _, err := datasets.ReadShard(filepath.Join(nnueTaught, "datasets", name), trench.Game); err != nil {
			t.Fatal(err)
		}
	}

	// The games' own λ-returns over the net's values (λ 0: each position
	// takes the next one's value, the last its game's result).
	returns := filepath.Join(t.TempDir(), "returns")
	code, out, errOut = runCLI("reanalyse", "--from", dst, "--td-lambda", "0", "--run", returns)
	if code != 0 || !strings.Contains(errOut, "their games' λ-returns (λ 0)") {
		t.Fatalf("reanalyse --td-lambda 0: code %d, %q, %s", code, out, errOut)
	}
	for _, name := range names {
		net, _ := datasets.ReadShard(filepath.Join(dst, "datasets", name), trench.Game)
		got, err := datasets.ReadShard(filepath.Join(returns, "datasets", name), trench.Game)
		if err != nil || len(got) != len(net) {
			t.Fatalf("%s returns: %d positions, %v", name, len(got), err)
		}
		for i := range got {
			want := net[i].Result
			if i+1 < len(net) && net[i+1].GameID == net[i].GameID {
				want = net[i+1].SearchValue
			}
			if !reflect.DeepEqual(got[i].SearchValue, want) {
				t.Fatalf("%s position %d: return %v, want %v", name, i, got[i].SearchValue, want)
			}
		}
	}

	code, out, errOut = runCLI("reanalyse", "--from", src, "--net", tinyNetFile(t), "--run", dst)
	if code != 0 || !strings.HasPrefix(out, "0 positions in 0 shards") {
		t.Errorf("second reanalyse: code %d, %q, %s; want nothing copied", code, out, errOut)
	}
	code, _, errOut = runCLI("train", "--run", dst, "--preset", "tiny", "--no-selfplay", "--search-value", "1", "--steps", "4", "--min-positions", "10")
	if code != 0 {
		t.Fatalf("training on the copy: %s", errOut)
	}
	if latest, _ := checkpoints.Latest(dst); filepath.Base(latest) != checkpoints.FileName(4) {
		t.Errorf("latest checkpoint %s, want step 4", latest)
	}
}

// Bad flags and inputs are errors that say what is wrong.
func TestReanalyseErrors(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "datasets"), 0o755)
	nnueRun := t.TempDir()
	os.MkdirAll(filepath.Join(nnueRun, "nets"), 0o755)
	nnueFile := filepath.Join(t.TempDir(), "net.nnue")
	if err := os.WriteFile(nnueFile, shipped.NNUE(), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--from", src, "--net", tinyNetFile(t)}, 2, "--from and --run are required"},
		{[]string{"--from", src, "--run", t.TempDir()}, 2, "exactly one teacher"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--classical-depth", "2", "--run", t.TempDir()}, 2, "exactly one teacher"},
		{[]string{"--from", src, "--td-lambda", "0.5", "--net", tinyNetFile(t), "--run", t.TempDir()}, 2, "exactly one teacher"},
		{[]string{"--from", src, "--td-lambda", "1.1", "--run", t.TempDir()}, 2, "--td-lambda must be in [0, 1]"},
		{[]string{"--from", src, "--td-lambda", "NaN", "--run", t.TempDir()}, 2, "--td-lambda must be in [0, 1]"},
		{[]string{"--from", src, "--td-lambda", "0.5", "--policy", "--run", t.TempDir()}, 2, "cannot go with --policy"},
		{[]string{"--from", src, "--td-lambda", "0.5", "--run", t.TempDir()}, 1, "has no shards"},
		{[]string{"--from", src, "--classical-depth", "-2", "--run", t.TempDir()}, 2, "--classical-depth must not be negative"},
		{[]string{"--from", src, "--classical-depth", "65", "--run", t.TempDir()}, 2, "--classical-depth must be in 1..64"},
		{[]string{"--from", src, "--classical-depth", "2", "--classical-scale", "0", "--run", t.TempDir()}, 2, "--classical-scale must be a positive"},
		{[]string{"--from", src, "--classical-depth", "2", "--classical-scale", "NaN", "--run", t.TempDir()}, 2, "--classical-scale must be a positive"},
		{[]string{"--from", src, "--classical-depth", "2", "--sims", "8", "--run", t.TempDir()}, 2, "cannot go with --classical-depth"},
		{[]string{"--from", src, "--classical-depth", "2", "--game", "trichess", "--classical-eval", "nosuch", "--run", t.TempDir()}, 1, "--classical-eval"},
		{[]string{"--from", src, "--classical-depth", "2", "--run", t.TempDir()}, 1, "has no shards"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", t.TempDir(), "--positions", "-3"}, 2, "--positions must not be negative"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", t.TempDir(), "--game", "chess"}, 2, "chess"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", t.TempDir(), "--sims", "-1"}, 2, "--sims must be in"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", t.TempDir(), "--workers", "0"}, 2, "--workers must be in"},
		{[]string{"--from", src, "--net", filepath.Join(src, "none.tnet"), "--run", t.TempDir()}, 2, `none.tnet": no such net file or run directory`},
		{[]string{"--from", nnueRun, "--run", t.TempDir()}, 1, "is not a run directory"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--soft-nodes", "900", "--run", t.TempDir()}, 2, "--soft-nodes and --hard-nodes search an NNUE run's positions again"},
		{[]string{"--from", src, "--net", nnueFile, "--run", t.TempDir()}, 2, "is an NNUE, which teaches through the classical search: give --classical-depth"},
		{[]string{"--from", src, "--net", nnueFile, "--classical-depth", "2", "--run", t.TempDir()}, 1, "has no shards"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", t.TempDir()}, 1, "has no shards"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", src}, 1, "both the source and the destination"},
		{[]string{"--from", src, "--net", tinyNetFile(t), "--run", t.TempDir(), "extra"}, 2, "unexpected argument"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(append([]string{"reanalyse"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, %q; want code %d and %q", c.args, code, errOut, c.code, c.want)
		}
		if strings.Contains(errOut, "searching the positions") {
			t.Errorf("%v: refused, yet said it was searching: %q", c.args, errOut)
		}
	}
}

// An NNUE run's positions are searched again into a branch of the run,
// which trench train then goes on with; the conv net's flags, a second
// branch into the same directory and the run itself as the branch are
// refused before anything is said to be searched.
func TestReanalyseNNUERun(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "--run", run, "--preset", "nnue", "--generations", "1"}, tinyNNUE...)
	if code, _, errOut := runCLI(args...); code != 0 {
		t.Fatalf("train: code %d: %s", code, errOut)
	}
	branch := filepath.Join(t.TempDir(), "branch")
	code, out, errOut := runCLI("reanalyse", "--from", run, "--run", branch, "--soft-nodes", "400", "--hard-nodes", "1600", "--workers", "2")
	if code != 0 || !strings.Contains(out, "at 400-1600 nodes a position") || !strings.Contains(out, "trench train --run "+branch+" plays and trains its generation 1") {
		t.Fatalf("reanalyse: code %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("train", "--run", branch, "--generations", "2"); code != 0 {
		t.Fatalf("train on the branch: code %d: %s", code, errOut)
	}
	if lines := checkNNUERun(t, branch, false); len(lines) != 2 || lines[1].Generation != 1 {
		t.Errorf("the branch's metrics: %+v", lines)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--from", run, "--run", t.TempDir(), "--sims", "8"}, 2, "--sims does not apply to an NNUE run's positions"},
		{[]string{"--from", run, "--run", t.TempDir(), "--classical-depth", "2"}, 2, "--classical-depth does not apply"},
		{[]string{"--from", run, "--run", t.TempDir(), "--game", "trichess"}, 2, "--game does not apply"},
		{[]string{"--from", run, "--run", t.TempDir(), "--workers", "0"}, 2, "--workers must be in 1..256"},
		{[]string{"--from", run, "--run", run}, 2, "both the source and the branch"},
		{[]string{"--from", run, "--run", branch}, 1, "already holds a run"},
		{[]string{"--from", run, "--run", t.TempDir(), "--net", filepath.Join(run, "none.nnue")}, 1, "--net"},
		{[]string{"--from", run, "--run", t.TempDir(), "--soft-nodes", "500", "--hard-nodes", "100"}, 1, "hard nodes 100"},
	} {
		code, _, errOut := runCLI(append([]string{"reanalyse"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, %q; want code %d and %q", c.args, code, errOut, c.code, c.want)
		}
		if strings.Contains(errOut, "searching the positions") {
			t.Errorf("%v: refused, yet said it was searching: %q", c.args, errOut)
		}
	}
}
