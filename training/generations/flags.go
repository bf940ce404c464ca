package generations

// The NNUE loop's settings (Config) as command-line flags, for trench
// train --preset nnue and for anything that must read a command line as
// it does.

import (
	"github.com/spf13/pflag"

	"trench/internal/presetflags"
)

// Flags are the settings flags declared on one flag set.
type Flags struct{ set *presetflags.Set[Config] }

// BindFlags declares a flag for every field of Config on fs, with the
// preset and the game defaulting to this loop's.
func BindFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{presetflags.NewSet[Config](fs, PresetName)}
	fs.Lookup("game").DefValue = trenchName
	return f
}

// Config returns the preset for the game the user chose (Trench if none)
// with the settings the user gave laid over it, validated, and the names
// of the flags the user set.
func (f *Flags) Config() (Config, []string, error) {
	game := trenchName
	if f.set.Changed("game") {
		game = f.set.Given().Game
	}
	cfg, err := Preset(PresetName, game)
	if err != nil {
		return cfg, nil, err
	}
	changed := f.set.Lay(&cfg, f.set.Given())
	return cfg, changed, cfg.Validate()
}
