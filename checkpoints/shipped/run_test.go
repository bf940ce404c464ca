package shipped_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"trench/training/generations"
)

// TestShippedNNUERunCommand checks that the command README.md gives for
// each built-in NNUE's run makes that run with today's binary: the NNUE
// preset with the command's flags laid over it, as the command lays
// them (generations.Flags), is the configuration saved in the run's
// records.
func TestShippedNNUERunCommand(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ run, prefix string }{
		{"../../docs/runs/r5", "trench train --run runs/r5 --preset nnue"},
		{"../../docs/runs/t9", "trench train --run runs/t9 --game trichess --preset nnue"},
	} {
		var command string
		for _, line := range strings.Split(string(readme), "\n") {
			if strings.HasPrefix(line, tc.prefix) {
				command, _, _ = strings.Cut(line, "#")
				break
			}
		}
		if command == "" {
			t.Errorf("README.md has no line beginning %q", tc.prefix)
			continue
		}
		// The command's flags, read as trench train --preset nnue reads them.
		fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
		fs.String("run", "", "")
		settings := generations.BindFlags(fs)
		if err := fs.Parse(strings.Fields(strings.TrimPrefix(command, "trench train"))); err != nil {
			t.Fatalf("%q: %v", command, err)
		}
		made, _, err := settings.Config()
		if err != nil {
			t.Fatalf("%q: %v", command, err)
		}
		savedRaw, err := os.ReadFile(filepath.Join(tc.run, "nnue.json"))
		if err != nil {
			t.Fatal(err)
		}
		saved, err := generations.DecodeConfig(savedRaw)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(made, saved) {
			t.Errorf("%q makes\n%+v\nthe run saved\n%+v", command, made, saved)
		}
	}
}

// TestTrichessPresetIsShippedRecipe checks that the Trichess NNUE preset
// alone, with no flags, makes the run whose net is built in: its
// configuration is run t9's as saved in its records.
func TestTrichessPresetIsShippedRecipe(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("../../docs/runs/t9", "nnue.json"))
	if err != nil {
		t.Fatal(err)
	}
	saved, err := generations.DecodeConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	preset, err := generations.Preset(generations.PresetName, "trichess")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(preset, saved) {
		t.Errorf("the Trichess preset\n%+v\nrun t9 saved\n%+v", preset, saved)
	}
}
