package generations

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestFlagsConfig(t *testing.T) {
	trench, err := Preset(PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	trichess, err := Preset(PresetName, "trichess")
	if err != nil {
		t.Fatal(err)
	}
	wider := trench
	wider.Hidden = 256
	trichessLonger := trichess
	trichessLonger.Steps = 9000
	for _, tc := range []struct {
		args    string
		want    Config
		changed []string
		err     string // a part of the error, if one is wanted
	}{
		{"", trench, nil, ""},
		{"--preset nnue --game trench", trench, []string{"preset", "game"}, ""},
		{"--hidden 256", wider, []string{"hidden"}, ""},
		{"--game trichess --steps 9000", trichessLonger, []string{"game", "steps"}, ""},
		{"--game go", Config{}, nil, "go"},
		{"--preset quick", Config{}, nil, "quick"},
		{"--hidden 3", Config{}, nil, "hidden"},
	} {
		fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
		f := BindFlags(fs)
		if err := fs.Parse(strings.Fields(tc.args)); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		got, changed, err := f.Config()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one naming %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%q: config\n%+v\nwant\n%+v", tc.args, got, tc.want)
		}
		if strings.Join(changed, ",") != strings.Join(tc.changed, ",") {
			t.Errorf("%q: changed %v, want %v", tc.args, changed, tc.changed)
		}
	}
}
