package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
	"trench/engine/trench"
	"trench/nn/nntest"
	"trench/searchconfig"
)

// nnueRun lays out a run directory of the NNUE's loop whose newest
// accepted net is the built-in one, and returns it with that net's file.
func nnueRun(t *testing.T) (run, file string) {
	t.Helper()
	run = t.TempDir()
	if err := os.MkdirAll(filepath.Join(run, checkpoints.NNUENetsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(run, checkpoints.NNUENetsDir, "gen-000000.nnue")
	if err := os.WriteFile(file, shipped.NNUE(), 0o644); err != nil {
		t.Fatal(err)
	}
	line := `{"net":"gen-000000.nnue","gate":{"Accepted":true}}` + "\n"
	if err := os.WriteFile(filepath.Join(run, checkpoints.NNUEMetricsFile), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return run, file
}

// TestResolve checks that a net is taken by what it holds: an NNUE, file
// or run, makes the bot alpha-beta with it, a conv net the tree search,
// and a kind or evaluation that cannot use the net given is refused with
// the setting and what it holds named.
func TestResolve(t *testing.T) {
	run, file := nnueRun(t)
	convRun := t.TempDir()
	nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), convRun, 10)
	convFile, err := checkpoints.Latest(convRun)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		set     map[string]string
		kind    string
		nnue    string
		net     string
		wantErr string
	}{
		{"defaults", nil, searchconfig.AlphaBeta, shipped.Ref, shipped.Ref, ""},
		{"net default", map[string]string{"net": "default"}, searchconfig.AlphaBeta, shipped.Ref, shipped.Ref, ""},
		{"nnue run as net", map[string]string{"net": run}, searchconfig.AlphaBeta, run, shipped.Ref, ""},
		{"nnue file as net", map[string]string{"net": file}, searchconfig.AlphaBeta, file, shipped.Ref, ""},
		{"nnue run as nnue", map[string]string{"nnue": run}, searchconfig.AlphaBeta, run, shipped.Ref, ""},
		{"conv run as net", map[string]string{"net": convRun}, searchconfig.MCTS, shipped.Ref, convRun, ""},
		{"conv file as net", map[string]string{"net": convFile}, searchconfig.MCTS, shipped.Ref, convFile, ""},
		{"conv run with kind mcts", map[string]string{"net": convRun, "kind": "mcts"}, searchconfig.MCTS, shipped.Ref, convRun, ""},
		{"nnue run with kind mcts", map[string]string{"net": run, "kind": "mcts"}, "", "", "", "which the mcts kind cannot search with"},
		{"conv run with kind alphabeta", map[string]string{"net": convRun, "kind": "alphabeta"}, "", "", "", "which the alphabeta kind cannot search with"},
		{"conv run as nnue", map[string]string{"nnue": convRun}, "", "", "", "is a conv-net run directory, not an efficiently updatable net"},
		{"nnue with eval hand", map[string]string{"net": run, "eval": "hand"}, "", "", "", "which eval hand does not read"},
		{"nnue run as leaf values", map[string]string{"nnue": run, "kind": "mcts", "value": "qnnue"}, searchconfig.MCTS, run, shipped.Ref, ""},
		{"nnue with kind mcts, value net", map[string]string{"nnue": run, "kind": "mcts"}, "", "", "", "not by value net"},
		{"nnue with value hand", map[string]string{"nnue": file, "kind": "mcts", "value": "hand"}, "", "", "", "not by value hand"},
		{"nnue as nnue with eval hand", map[string]string{"nnue": run, "eval": "hand"}, "", "", "", "not by eval hand"},
		{"default nnue with eval hand", map[string]string{"nnue": "default", "eval": "hand"}, "", "", "", "not by eval hand"},
		{"two nnues", map[string]string{"net": run, "nnue": file}, "", "", "", "name two NNUEs"},
		{"missing", map[string]string{"net": "/no/such/run"}, "", "", "", `net "/no/such/run": no such net file or run directory`},
	} {
		c := searchconfig.Play()
		for k, v := range tc.set {
			if err := c.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		got, err := Resolve(c, func(k string) bool { _, ok := tc.set[k]; return ok })
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.Kind != tc.kind || got.NNUERef() != tc.nnue || got.Net != tc.net {
			t.Errorf("%s: kind %s, nnue %q, net %q, %v; want %s, %q, %q", tc.name, got.Kind, got.NNUERef(), got.Net, err, tc.kind, tc.nnue, tc.net)
		}
	}
}

// TestMakerNamesNet checks that a Maker's bots play with the net given
// and say which: the NNUE of a run read once, and the tree search's
// conv net.
func TestMakerNamesNet(t *testing.T) {
	run, file := nnueRun(t)
	c := searchconfig.Play()
	if err := c.Set("net", run); err != nil {
		t.Fatal(err)
	}
	c, err := Resolve(c, func(k string) bool { return k == "net" })
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMaker(trench.Game, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.New(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*AlphaBeta); !ok || !strings.Contains(m.String(), file) || m.String() != b.String() || m.Net() != nil {
		t.Errorf("maker %q, bot %T %q; want alpha-beta naming %s", m, b, b, file)
	}
	convRun := t.TempDir()
	nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), convRun, 10)
	c = searchconfig.Play()
	if err := c.Set("net", convRun); err != nil {
		t.Fatal(err)
	}
	if c, err = Resolve(c, func(k string) bool { return k == "net" }); err != nil {
		t.Fatal(err)
	}
	if m, err = NewMaker(trench.Game, c, nil); err != nil {
		t.Fatal(err)
	}
	if b, err = m.New(7, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*Tree); !ok || m.Net() == nil || !strings.Contains(m.String(), "ckpt-000010") {
		t.Errorf("maker %q, bot %T; want the tree search naming the run's checkpoint", m, b)
	}
}
