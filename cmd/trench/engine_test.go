package main

import (
	"strings"
	"testing"
)

// TestEngineCommand speaks the protocol with the trench binary in a child
// process, its net and board those the command wires in (package protocol
// tests the protocol itself).
func TestEngineCommand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		script string
		want   []string
	}{
		{"trench", []string{"engine", "--kind", "mcts", "--net", tinyNetFile(t), "--sims", "20"},
			"trench\nposition startpos moves d4d5\ngo\nshow\nquit\n",
			[]string{"id net " + tinyNetFile(t), "trenchok\n", "info sims 20 visits 21 ", "\nbestmove ",
				"position 4skcg/4pskc/4ppsk/3Pppps/SPP5/KSPP4/CKSP4/GCKS4 w 0 0 1 1\n", "  h8                g\n"}},
		{"trichess", []string{"engine", "--game", "trichess", "--level", "2"},
			"trench\nposition startpos moves We2We4\ngo\nshow\n",
			[]string{"info string bot alphabeta with nnue embedded Trichess NNUE (128 hidden units), brs search", "id net alphabeta with", "info depth ", " values ", "\nbestmove R", "wK"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := trenchProcess(tc.args...)
			cmd.Stdin = strings.NewReader(tc.script)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("trench %s: %v\n%s", strings.Join(tc.args, " "), err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(string(out), "error") {
				t.Errorf("errors in the output:\n%s", out)
			}
		})
	}
}

func TestEngineFlags(t *testing.T) {
	if code, _, errOut := runCLIInput("", "engine", "--kind", "mcts", "--net", "/no/such.tnet"); code != 2 || !strings.Contains(errOut, "such.tnet") {
		t.Errorf("missing net: %d %q", code, errOut)
	}
	if code, _, errOut := runCLIInput("", "engine", "--time", "-1s"); code != 2 || !strings.Contains(errOut, "--time must be in 0..1h, got -1s") {
		t.Errorf("negative time: %d %q", code, errOut)
	}
	if code, _, errOut := runCLIInput("", "engine", "extra"); code != 2 || !strings.Contains(errOut, `unexpected argument "extra"`) {
		t.Errorf("an argument: %d %q", code, errOut)
	}
}

// TestEngineAlphaBeta speaks the protocol with the bot of the alphabeta
// kind: by nodes, by level (nodes), and by a --time default.
func TestEngineAlphaBeta(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		script string
		want   []string
	}{
		{[]string{"engine", "--kind", "alphabeta", "--eval", "hand"},
			"trench\nposition startpos\ngo nodes 2000\nshow\ngo level 1\nshow\n",
			[]string{"id net alphabeta with the hand-written evaluation", "id levels 8 (1=1000, ", "info depth ", " nodes ", "bestmove ", "info depth ", "bestmove "}},
		{[]string{"engine", "--kind", "alphabeta", "--time", "100ms"},
			"trench\nposition startpos\ngo\nshow\n",
			[]string{"id net alphabeta with nnue embedded NNUE", "info depth ", "bestmove "}},
	} {
		code, out, errOut := runCLIInput(tc.script, tc.args...)
		if code != 0 || strings.Contains(out, "error") {
			t.Fatalf("trench %v: code %d: %s\n%s", tc.args, code, errOut, out)
		}
		rest := out
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Fatalf("trench %v: output lacks %q (in order):\n%s", tc.args, w, out)
			}
			rest = rest[i+len(w):]
		}
	}
}
