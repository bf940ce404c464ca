package trench

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/engine/trench"
	"trench/games/plugin"
	"trench/nnue"
)

func TestClassicalEvaluations(t *testing.T) {
	c := Plugin.Classical
	dir := t.TempDir()
	netFile := filepath.Join(dir, "net.nnue")
	net, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := net.Save(netFile); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.nnue")
	if err := os.WriteFile(bad, []byte("not a net"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := trench.Game.Start()
	for _, tc := range []struct {
		name, file string
		wantErr    string
	}{
		{"hand", "", ""},
		{"", "", ""},
		{"", netFile, ""},
		{"rules", "", ""},
		{"nnue", netFile, ""},
		{"nnue", "default", ""},
		{"net", netFile, ""}, // the former name
		{"nnue", "", "needs a net"},
		{"net", "", "needs a net"},
		{"nnue", bad, "bad.nnue"},
		{"nnue", filepath.Join(dir, "missing.nnue"), "missing.nnue"},
		{"hand", netFile, "reads no net"},
		{"nets", "", "unknown evaluation"},
	} {
		ev, err := c.Evaluation(tc.name, tc.file)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Evaluation(%q, %q): error %v, want one containing %q", tc.name, tc.file, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Evaluation(%q, %q): %v", tc.name, tc.file, err)
			continue
		}
		s, err := ev.NewSearcher(12)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Search(context.Background(), start, plugin.ClassicalLimits{Depth: 2})
		if err != nil || !slices.Contains(start.LegalActions(nil), r.Action) {
			t.Errorf("%s: Search = %+v, %v; want a legal action", tc.name, r, err)
		}
		if ev.String() == "" {
			t.Errorf("Evaluation(%q, %q) describes itself as nothing", tc.name, tc.file)
		}
	}
	if ev, err := c.Evaluation("net", "default"); err != nil || !strings.Contains(ev.String(), "embedded NNUE") {
		t.Errorf("the built-in net: %v, %v; want it named", ev, err)
	}
	if got := c.Evaluations(); !slices.Equal(got, []string{"hand", "rules", "nnue"}) {
		t.Errorf("Evaluations() = %v", got)
	}
	if _, err := c.Evaluation("net", bad); !errors.Is(err, nnue.ErrMagic) {
		t.Errorf("a file that is not a net: %v, want nnue.ErrMagic", err)
	}
}

func TestEvaluationSpeeds(t *testing.T) {
	var names []string
	err := Plugin.Classical.EvaluationSpeeds(context.Background(), time.Millisecond, func(f plugin.BenchFigure) {
		if !(f.Value > 0) || f.Unit == "" {
			t.Errorf("figure %+v: want a positive value with a unit", f)
		}
		names = append(names, f.Name)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1+2*len(benchHidden) || !strings.Contains(names[0], "hand evaluation") {
		t.Errorf("figures %q, want the hand evaluation's, then two for each net", names)
	}
}

// TestClassicalResult checks what a search reports besides its move:
// a principal variation of legal actions from the move, its nodes, a
// value in [-1, 1] of the score's sign; and that Clear keeps the
// searcher searching.
func TestClassicalResult(t *testing.T) {
	s, err := Plugin.Classical.NewSearcher(12)
	if err != nil {
		t.Fatal(err)
	}
	start := trench.Game.Start()
	for i := range 2 {
		r, err := s.Search(context.Background(), start, plugin.ClassicalLimits{Depth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.PV) == 0 || r.PV[0] != r.Action || r.Nodes == 0 || r.Depth != 3 {
			t.Errorf("search %d: %+v; want a PV from the action, nodes and depth 3", i, r)
		}
		st := start.Clone()
		for _, a := range r.PV {
			if !slices.Contains(st.LegalActions(nil), a) {
				t.Fatalf("PV %v: %d is not legal in %s", r.PV, a, st)
			}
			st.Play(a)
		}
		if r.Value < -1 || r.Value > 1 || (r.Score > 0) != (r.Value > 0) {
			t.Errorf("score %g gave value %g", r.Score, r.Value)
		}
		s.Clear()
	}
	for _, tc := range []struct {
		cp, forced int
		want       float64
	}{{0, 0, 0}, {400, 0, 0.46211715726000974}, {-400, 0, -0.46211715726000974}, {29000, 1, 1}, {-29000, -1, -1}} {
		if got := scoreValue(tc.cp, tc.forced); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("scoreValue(%d, %d) = %v, want %v", tc.cp, tc.forced, got, tc.want)
		}
	}
}

// TestClassicalMultiPV checks a multi-PV search with the default
// evaluation (the NNUE): with MultiPV 1 the result of a search with
// none, and with 3 three lines of distinct legal actions, best first,
// the first the result's move, scored as the single-line search scores
// the position at the same depth.
func TestClassicalMultiPV(t *testing.T) {
	search := func(multiPV int) plugin.ClassicalResult {
		t.Helper()
		s, err := Plugin.Classical.NewSearcher(12)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Search(context.Background(), trench.Game.Start(), plugin.ClassicalLimits{Depth: 3, MultiPV: multiPV})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	one := search(0)
	if r := search(1); !reflect.DeepEqual(r, one) {
		t.Errorf("MultiPV 1: %+v, want %+v", r, one)
	}
	r := search(3)
	if len(r.Lines) != 3 || r.Lines[0].Action != r.Action || r.Lines[0].Score != one.Score || r.Score != one.Score ||
		!slices.Equal(r.Lines[0].PV, r.PV) {
		t.Fatalf("MultiPV 3: %+v; single line %+v", r, one)
	}
	seen := map[int]bool{}
	for i, l := range r.Lines {
		if seen[l.Action] || l.Depth != 3 || (i > 0 && l.Score > r.Lines[i-1].Score) || l.Value < -1 || l.Value > 1 {
			t.Errorf("line %d: %+v", i, l)
		}
		seen[l.Action] = true
		st := trench.Game.Start()
		for _, a := range l.PV {
			if !slices.Contains(st.LegalActions(nil), a) {
				t.Fatalf("line %d's PV %v: %d is not legal in %s", i, l.PV, a, st)
			}
			st.Play(a)
		}
	}
}
