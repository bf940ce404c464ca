package training

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func parse(t *testing.T, args ...string) *Flags {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f := BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestBindDeclaresEverySetting(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	BindFlags(fs)
	for _, name := range []string{"preset", "game", "net", "workers", "lr", "full-fraction", "quiescence", "seed", "eval-baselines"} {
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("no --%s", name)
			continue
		}
		if name != "preset" && !strings.HasSuffix(f.Usage, " (default: the preset's)") {
			t.Errorf("--%s's help %q does not name the preset's default", name, f.Usage)
		}
	}
	if d := fs.Lookup("preset").DefValue; d != DefaultPreset {
		t.Errorf("--preset's default shows as %q, want %q", d, DefaultPreset)
	}
}

func TestConfig(t *testing.T) {
	quick, err := Preset("quick")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    []string
		check   func(Config) bool
		changed []string
		err     string
	}{
		{nil, func(c Config) bool {
			return c.Preset == "quick" && c.Steps == quick.Steps && c.Net == quick.Net
		}, nil, ""},
		{[]string{"--preset", "tiny", "--steps", "7", "--lr", "0.5", "--quiescence"},
			func(c Config) bool {
				return c.Preset == "tiny" && c.Steps == 7 && c.LearningRate == 0.5 && c.Quiescence && c.Net == "tiny"
			},
			[]string{"preset", "quiescence", "lr", "steps"}, ""},
		{[]string{"--game", "tictactoe", "--preset", "tiny"}, func(c Config) bool { return c.Game == "tictactoe" }, []string{"preset", "game"}, ""},
		{nil, func(c Config) bool { return c.ValueBase == "material" }, nil, ""},
		{[]string{"--game", "tictactoe"}, func(c Config) bool { return c.ValueBase == "none" }, []string{"game"}, ""},
		{[]string{"--value-base", "none"}, func(c Config) bool { return c.ValueBase == "none" }, []string{"value-base"}, ""},
		{[]string{"--game", "tictactoe", "--value-base", "material"}, nil, nil, "the pieces of tictactoe have no values"},
		{[]string{"--game", "trichess"}, func(c Config) bool {
			return c.ClassicalDepth == 2 && c.ClassicalEval == "hand" && c.Steps == 4000 && c.FullSims == 16
		}, []string{"game"}, ""},
		{[]string{"--game", "trichess", "--steps", "5000", "--classical-eval", "material"}, func(c Config) bool {
			return c.ClassicalDepth == 2 && c.ClassicalEval == "material" && c.Steps == 5000
		}, []string{"game", "classical-eval", "steps"}, ""},
		{[]string{"--preset", "long", "--game", "trichess"}, func(c Config) bool {
			return c.ClassicalDepth == 2 && c.RelabelSteps == 0 && c.Steps == 120000 && c.CheapSims == 4
		}, []string{"preset", "game"}, ""},
		{[]string{"--preset", "long"}, func(c Config) bool {
			return c.ClassicalDepth == 3 && c.ClassicalEval == "nnue" && c.RelabelSteps == 9000 && c.LastStep() == 129000
		}, []string{"preset"}, ""},
		{[]string{"--preset", "huge"}, nil, nil, `unknown preset "huge"`},
		{[]string{"--workers", "0"}, nil, nil, "workers"},
	} {
		cfg, changed, err := parse(t, tc.args...).Config()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || !tc.check(cfg) || !slices.Equal(changed, tc.changed) {
			t.Errorf("%v: Config() = %+v, %v, %v; want changed %v", tc.args, cfg, changed, err, tc.changed)
		}
	}
}

func TestForRun(t *testing.T) {
	dir := t.TempDir()
	saved, err := Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	saved.Steps, saved.Seed = 99, 5
	data, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir   string
		args  []string
		check func(Config) bool
	}{
		{dir, nil, func(c Config) bool { return c.Preset == "tiny" && c.Steps == 99 && c.Seed == 5 }},
		{dir, []string{"--workers", "1", "--seed", "6"}, func(c Config) bool { return c.Workers == 1 && c.Seed == 6 && c.Steps == 99 }},
		{t.TempDir(), []string{"--workers", "1"}, func(c Config) bool { return c.Preset == "quick" && c.Workers == 1 }},
		{"", nil, func(c Config) bool { return c.Preset == "quick" }},
	} {
		cfg, err := parse(t, tc.args...).ForRun(tc.dir)
		if err != nil || !tc.check(cfg) {
			t.Errorf("ForRun(%s) with %v = %+v, %v", tc.dir, tc.args, cfg, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"workers":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parse(t).ForRun(dir); err == nil || !strings.Contains(err.Error(), "config.json") {
		t.Errorf("ForRun of a damaged config.json: %v, want an error naming it", err)
	}
}

func TestGivenAndOver(t *testing.T) {
	f := parse(t, "--game", "trichess", "--workers", "3")
	if g := f.Given(); g.Game != "trichess" || g.Workers != 3 || g.Net != "" {
		t.Errorf("Given() = %+v, want only game and workers", g)
	}
	saved, err := Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	saved.Steps = 42
	cfg, err := parse(t, "--workers", "3").Over(saved)
	if err != nil || cfg.Workers != 3 || cfg.Steps != 42 || cfg.Preset != "tiny" {
		t.Errorf("Over = %+v, %v; want tiny with 3 workers and 42 steps", cfg, err)
	}
	if _, err := parse(t, "--workers", "-1").Over(saved); err == nil {
		t.Error("Over with --workers -1: no error")
	}
}
