package trichess

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/checkpoints/shipped"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/games/plugin"
	"trench/nnue"
)

// TestClassical checks the classical search through the plug-in's
// contract: each algorithm's move legal, with every player's value, and
// the errors that name a bad input.
func TestClassical(t *testing.T) {
	c := Plugin.Classical
	algos, ok := c.(plugin.ClassicalAlgorithms)
	if !ok || len(algos.Algorithms()) != 3 || algos.Algorithms()[0] != "brs" {
		t.Fatalf("the classical search's algorithms: %v", algos)
	}
	hand, err := c.Evaluation("", "")
	if err != nil {
		t.Fatal(err)
	}
	start := trichess.Game.Start()
	for _, name := range algos.Algorithms() {
		ev, err := algos.WithAlgorithm(hand, name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ev.NewSearcher(12)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Search(context.Background(), start, plugin.ClassicalLimits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		legal := start.LegalActions(nil)
		if !slices.Contains(legal, r.Action) || r.Depth != 2 || len(r.Players) != 3 || len(r.PV) == 0 || r.PV[0] != r.Action {
			t.Errorf("%s: %+v", name, r)
		}
		if r.Players[0] != r.Value || r.Value < -1 || r.Value > 1 {
			t.Errorf("%s: value %v, players %v", name, r.Value, r.Players)
		}
		if len(r.Leads) != 3 || r.Leads[0] != r.Score {
			t.Errorf("%s: score %v, leads %v", name, r.Score, r.Leads)
		}
		if !strings.Contains(ev.String(), name) {
			t.Errorf("%s: described as %q", name, ev)
		}
	}
	// The échec et fat in one: a forced win worth a seigneur's title.
	fat, err := trichess.Game.ParseState("3wR3wK/8/8/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.NewSearcher(12)
	r, err := s.Search(context.Background(), fat, plugin.ClassicalLimits{Nodes: 5000})
	if err != nil || r.Forced != 1 || r.Value != 1 || r.Players[0] != 1 || fat.ActionString(r.Action) != "Wd1Wd4" {
		t.Errorf("échec et fat: %+v, %v", r, err)
	}
	// The two opponents keep the difference the evaluation sees between
	// them (BRS+ searches the mover's lead alone): White has lost a rook
	// and Red a knight, Black nothing.
	lopsided, err := trichess.Game.ParseState("wRwNwBwQwKwBwN1/wPwPwPwPwPwPwPwP/8/8|rR1rBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w Q,KQ,KQ 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Search(context.Background(), lopsided, plugin.ClassicalLimits{Depth: 2}); err != nil || !(r.Players[1] < r.Players[2]) || !(r.Leads[1] < r.Leads[2]) {
		t.Errorf("Red a knight down, Black level: players %v, leads %v, %v", r.Players, r.Leads, err)
	}
	for _, tc := range []struct {
		name, net, want string
	}{
		{"nnue", "trench.nnue", "trench.nnue"},
		{"nnue", "no-such.nnue", "no-such.nnue"},
		{"hand", "x.nnue", `the "hand" evaluation reads no net, got "x.nnue"`},
		{"rules", "", `unknown evaluation "rules" (known: hand, material, nnue)`},
	} {
		if _, err := c.Evaluation(tc.name, tc.net); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Evaluation(%q, %q): %v, want %q", tc.name, tc.net, err, tc.want)
		}
	}
	// The net built in, named as everywhere or by the evaluation alone.
	for _, tc := range [][2]string{{"", "default"}, {"nnue", ""}} {
		if ev, err := c.Evaluation(tc[0], tc[1]); err != nil || !strings.Contains(ev.String(), shipped.TrichessNNUEName) {
			t.Errorf("Evaluation(%q, %q): %v, %v; want the %s", tc[0], tc[1], ev, err, shipped.TrichessNNUEName)
		}
	}
	if _, err := algos.WithAlgorithm(hand, "minimax"); err == nil || !strings.Contains(err.Error(), `unknown search "minimax" (known: brs, paranoid, maxn)`) {
		t.Errorf("unknown algorithm: %v", err)
	}
	if _, err := s.Search(context.Background(), trench.Game.Start(), plugin.ClassicalLimits{Depth: 1}); err == nil || !strings.Contains(err.Error(), "not trench") {
		t.Errorf("a Trench state: %v", err)
	}
	for _, quiesce := range []bool{false, true} {
		v, err := hand.NewValuer(quiesce)
		if err != nil {
			t.Fatal(err)
		}
		if x, err := v.Value(start); err != nil || x != 0 {
			t.Errorf("valuer, quiesce %v: start valued %v, %v", quiesce, x, err)
		}
	}
	if v := c.Value(start); v != 0 {
		t.Errorf("Value(start) = %v", v)
	}
	nps, err := c.NodesPerSecond(context.Background(), time.Millisecond)
	if err != nil || nps <= 0 {
		t.Errorf("NodesPerSecond: %v, %v", nps, err)
	}
	var figures []string
	if err := c.EvaluationSpeeds(context.Background(), time.Millisecond, func(f plugin.BenchFigure) { figures = append(figures, f.Name) }); err != nil || len(figures) != 5 {
		t.Errorf("EvaluationSpeeds: %v, %v", figures, err)
	}
}

// TestClassicalEvaluations searches with each evaluation through the
// plug-in, with each algorithm: the algorithm keeps the evaluation, and
// its description names the net read.
func TestClassicalEvaluations(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tc.nnue")
	net, err := nnue.Trichess.New(32, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := net.Save(file); err != nil {
		t.Fatal(err)
	}
	c := Plugin.Classical
	algos := c.(plugin.ClassicalAlgorithms)
	start := trichess.Game.Start()
	for _, tc := range []struct {
		name, net, doc string
	}{
		{"hand", "", "the hand-written evaluation"},
		{"material", "", "the rules' piece points"},
		{"nnue", file, "nnue " + file + " (32 hidden units)"},
		{"", file, "nnue " + file + " (32 hidden units)"},
	} {
		ev, err := c.Evaluation(tc.name, tc.net)
		if err != nil {
			t.Fatalf("Evaluation(%q, %q): %v", tc.name, tc.net, err)
		}
		for _, a := range algos.Algorithms() {
			ea, err := algos.WithAlgorithm(ev, a)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.doc + ", " + a + " search"; ea.String() != want {
				t.Errorf("%q with %s: described as %q, want %q", tc.name, a, ea, want)
			}
			s, err := ea.NewSearcher(12)
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Search(context.Background(), start, plugin.ClassicalLimits{Depth: 2})
			if err != nil || !slices.Contains(start.LegalActions(nil), r.Action) {
				t.Errorf("%s with %s: %+v, %v", ea, a, r, err)
			}
		}
		for _, quiesce := range []bool{false, true} {
			v, err := ev.NewValuer(quiesce)
			if err != nil {
				t.Fatal(err)
			}
			x, err := v.Value(start)
			if err != nil || x < -1 || x > 1 {
				t.Errorf("%s, quiesce %v: start valued %v, %v", ev, quiesce, x, err)
			}
			// Every seat's value, the mover's the same as Value's, for
			// the tree search's per-player backup.
			vs, err := v.(plugin.SeatValuer).Values(start, nil)
			if err != nil || len(vs) != 3 || math.Abs(float64(vs[start.ToMove()])-x) > 1e-6 {
				t.Errorf("%s, quiesce %v: seats valued %v, %v; the mover %v", ev, quiesce, vs, err, x)
			}
		}
	}
	// A Trench net is refused, the error naming the file and its game.
	trenchFile := filepath.Join(dir, "trench.nnue")
	tn, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := tn.Save(trenchFile); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Evaluation("nnue", trenchFile); !errors.Is(err, nnue.ErrGame) || !strings.Contains(err.Error(), trenchFile) || !strings.Contains(err.Error(), "a trench") {
		t.Errorf("a Trench net: %v, want %v naming %s and its game", err, nnue.ErrGame, trenchFile)
	}
}
