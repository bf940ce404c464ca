package reanalysis

import (
	"io"
	"strings"
	"testing"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/training/relabel"
)

// TestTeacherValidate checks that settings no teacher can use are
// refused with the flag at fault named.
func TestTeacherValidate(t *testing.T) {
	ok := Teacher{Net: shipped.Ref, ClassicalScale: relabel.DefaultClassicalScale, Workers: 1}
	with := func(f func(*Teacher)) Teacher { c := ok; f(&c); return c }
	for _, tc := range []struct {
		name string
		t    Teacher
		want string
	}{
		{"a net", ok, ""},
		{"classical", with(func(c *Teacher) { c.Net, c.ClassicalDepth = "", 2 }), ""},
		{"returns", with(func(c *Teacher) { c.Net, c.Returns, c.Lambda = "", true, 0.5 }), ""},
		{"none", with(func(c *Teacher) { c.Net = "" }), "give exactly one teacher"},
		{"two", with(func(c *Teacher) { c.Returns, c.Lambda = true, 0.5 }), "give exactly one teacher"},
		{"the built-in NNUE through the classical search", with(func(c *Teacher) { c.ClassicalDepth = 2 }), ""},
		{"lambda", with(func(c *Teacher) { c.Net, c.Returns, c.Lambda = "", true, 1.5 }), "--td-lambda must be in [0, 1]"},
		{"returns with sims", with(func(c *Teacher) { c.Net, c.Returns, c.Sims = "", true, 4 }), "cannot go with --policy or --sims"},
		{"negative depth", with(func(c *Teacher) { c.Net, c.ClassicalDepth = "", -1 }), "--classical-depth must not be negative"},
		{"scale", with(func(c *Teacher) { c.ClassicalScale = 0 }), "--classical-scale must be a positive number"},
		{"classical with sims", with(func(c *Teacher) { c.Net, c.ClassicalDepth, c.Sims = "", 2, 4 }), "cannot go with --classical-depth"},
		{"sims", with(func(c *Teacher) { c.Sims = -1 }), "--sims must be in 0.."},
		{"workers", with(func(c *Teacher) { c.Workers = 0 }), "--workers must be in 1..256"},
		{"depth", with(func(c *Teacher) { c.Net, c.ClassicalDepth = "", 999 }), "--classical-depth must be in 1.."},
	} {
		err := tc.t.Validate(trench.Game)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	tri := with(func(c *Teacher) { c.Net, c.ClassicalDepth, c.ClassicalEval = "", 2, "material" })
	if err := tri.Validate(trichess.Game); err != nil {
		t.Errorf("a classical teacher of Trichess: %v", err)
	}
	if _, doc, err := tri.Evaluators(trichess.Game, io.Discard); err != nil || !strings.Contains(doc, "the rules' piece points") || !strings.Contains(doc, "each seat's value as the search gives it") {
		t.Errorf("a classical teacher of Trichess with its material evaluation: %q, %v", doc, err)
	}
	for _, tc := range []struct {
		name string
		t    Teacher
		want string
	}{
		{"no such evaluation", with(func(c *Teacher) { c.Net, c.ClassicalDepth, c.ClassicalEval = "", 2, "nosuch" }), "--classical-eval"},
		{"an evaluation without a net", with(func(c *Teacher) { c.ClassicalDepth, c.ClassicalEval = 2, "material" }), "--classical-eval \"material\" reads no net"},
	} {
		if _, _, err := tc.t.Evaluators(trichess.Game, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// The nnue evaluation reads the game's built-in NNUE unless --net
	// names another, as it does in every other command.
	for _, tc := range []Teacher{
		with(func(c *Teacher) { c.Net, c.ClassicalDepth, c.ClassicalEval = "", 1, "nnue" }),
		with(func(c *Teacher) { c.ClassicalDepth = 1 }),
	} {
		for g, name := range map[engine.Game]string{trench.Game: shipped.NNUEName, trichess.Game: shipped.TrichessNNUEName} {
			if _, doc, err := tc.Evaluators(g, io.Discard); err != nil || !strings.Contains(doc, "nnue "+name) {
				t.Errorf("the %s classical teacher with the built-in NNUE (net %q, eval %q): %q, %v", g.Name(), tc.Net, tc.ClassicalEval, doc, err)
			}
		}
	}
	if err := with(func(c *Teacher) { c.ClassicalEval = "material" }).Validate(trench.Game); err == nil || !strings.Contains(err.Error(), "--classical-eval chooses the classical search's evaluation: give --classical-depth") {
		t.Errorf("--classical-eval without --classical-depth: %v", err)
	}
	missing := with(func(c *Teacher) { c.Net = "x" })
	if err := missing.Validate(trench.Game); err == nil || !strings.Contains(err.Error(), `--net: net "x": no such net file`) {
		t.Errorf("a missing net: %v, want an error naming it", err)
	}
	if _, _, err := missing.Evaluators(trench.Game, io.Discard); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a missing net's evaluators: %v, want an error naming it", err)
	}
}
