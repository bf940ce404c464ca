package trench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
		{"net", netFile, ""},
		{"net", "", "needs a net file"},
		{"net", bad, "bad.nnue"},
		{"net", filepath.Join(dir, "missing.nnue"), "missing.nnue"},
		{"hand", netFile, "reads no net file"},
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
	}
	if got := c.Evaluations(); !slices.Equal(got, []string{"hand", "rules", "net"}) {
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
