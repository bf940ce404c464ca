package shipped_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/training/generations"
)

// TestShippedNNUERunCommand checks that the command README.md gives for
// the built-in NNUE's run makes that run with today's binary: the NNUE
// preset with the command's flags (each named as the run's saved
// setting is) is the configuration saved in the run's records.
func TestShippedNNUERunCommand(t *testing.T) {
	const (
		run    = "../../docs/runs/r3"
		prefix = "trench train --run runs/r3 --preset nnue"
	)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var command string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, prefix) {
			command, _, _ = strings.Cut(line, "#")
			break
		}
	}
	if command == "" {
		t.Fatalf("README.md has no line beginning %q", prefix)
	}
	flags := strings.Fields(strings.TrimPrefix(command, prefix))
	if len(flags)%2 != 0 {
		t.Fatalf("%q: want flags as --name value pairs", command)
	}
	preset, err := generations.Preset(generations.PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(preset)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &settings); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(flags); i += 2 {
		name, ok := strings.CutPrefix(flags[i], "--")
		if _, known := settings[name]; !ok || !known {
			t.Fatalf("%q: %s is not a setting of the preset", command, flags[i])
		}
		value := json.RawMessage(flags[i+1])
		if !json.Valid(value) {
			value, _ = json.Marshal(flags[i+1])
		}
		settings[name] = value
	}
	if raw, err = json.Marshal(settings); err != nil {
		t.Fatal(err)
	}
	made, err := generations.DecodeConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	savedRaw, err := os.ReadFile(filepath.Join(run, "nnue.json"))
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
