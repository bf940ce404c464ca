package presetflags

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

type settings struct {
	Preset string  `json:"preset" help:"named configuration"`
	Steps  int     `json:"steps" help:"training steps"`
	Rate   float64 `json:"rate" help:"learning rate"`
	Nodes  uint64  `json:"nodes" help:"nodes a move"`
	Fresh  bool    `json:"fresh" help:"start afresh"`
}

func TestBindAndLay(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    settings
		changed []string
	}{
		{nil, settings{Preset: "p", Steps: 10, Rate: 0.5, Nodes: 7}, nil},
		{[]string{"--steps", "3"}, settings{Preset: "p", Steps: 3, Rate: 0.5, Nodes: 7}, []string{"steps"}},
		{[]string{"--rate=0", "--fresh", "--nodes", "9"}, settings{Preset: "p", Steps: 10, Nodes: 9, Fresh: true}, []string{"rate", "nodes", "fresh"}},
		{[]string{"--preset", "q", "--steps", "0"}, settings{Preset: "q", Rate: 0.5, Nodes: 7}, []string{"preset", "steps"}},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		set := NewSet[settings](fs, "p")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		cfg := settings{Preset: "p", Steps: 10, Rate: 0.5, Nodes: 7}
		changed := set.Lay(&cfg, set.Given())
		if cfg != tc.want || !slices.Equal(changed, tc.changed) {
			t.Errorf("%v: got %+v changing %v, want %+v changing %v", tc.args, cfg, changed, tc.want, tc.changed)
		}
		for _, name := range []string{"preset", "steps", "rate", "nodes", "fresh"} {
			if set.Changed(name) != slices.Contains(tc.changed, name) {
				t.Errorf("%v: Changed(%q) = %v", tc.args, name, set.Changed(name))
			}
		}
	}
}

func TestHelpSaysThePresetsDefault(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	NewSet[settings](fs, "p")
	if d := fs.Lookup("preset").DefValue; d != "p" {
		t.Errorf("--preset's default shows %q, want p", d)
	}
	if h := fs.Lookup("preset").Usage; strings.Contains(h, "preset's") {
		t.Errorf("--preset's help %q speaks of the preset's default", h)
	}
	if h := fs.Lookup("steps").Usage; !strings.HasSuffix(h, "(default: the preset's)") {
		t.Errorf("--steps' help %q does not say its default is the preset's", h)
	}
}

func TestBindRefusesUnknownTypes(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a []int field was bound without a panic")
		}
	}()
	type listed struct {
		Preset string `json:"preset"`
		List   []int  `json:"list"`
	}
	NewSet[listed](pflag.NewFlagSet("t", pflag.ContinueOnError), "p")
}

func TestResume(t *testing.T) {
	mutable := func(flag string) bool { return flag == "steps" }
	saved := settings{Preset: "p", Steps: 10, Rate: 0.5}
	for _, tc := range []struct {
		given   settings
		changed []string
		want    settings
		updated bool
		flag    string
	}{
		{settings{Preset: "p", Steps: 20, Rate: 0.5}, []string{"steps"}, settings{Preset: "p", Steps: 20, Rate: 0.5}, true, ""},
		{settings{Preset: "p", Steps: 10, Rate: 0.5}, []string{"steps", "rate"}, saved, false, ""},
		{settings{Preset: "p", Steps: 10, Rate: 0.9}, []string{"steps"}, saved, false, ""},
		{settings{Preset: "p", Steps: 10, Rate: 0.9}, []string{"rate"}, saved, false, "rate"},
	} {
		got := saved
		updated, err := Resume(&got, tc.given, tc.changed, mutable)
		var conflict *Conflict
		switch {
		case tc.flag != "":
			if !errors.As(err, &conflict) || conflict.Flag != tc.flag || conflict.Given != tc.given.Rate || conflict.Saved != saved.Rate {
				t.Errorf("%+v changing %v: %v, want a conflict of --%s", tc.given, tc.changed, err, tc.flag)
			}
		case err != nil || got != tc.want || updated != tc.updated:
			t.Errorf("%+v changing %v: %+v, updated %v, %v; want %+v, %v", tc.given, tc.changed, got, updated, err, tc.want, tc.updated)
		}
	}
}
