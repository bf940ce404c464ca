package training

// The training settings (Config) as command-line flags: one flag
// per setting, named by its JSON tag and described by its help tag, each
// defaulting to the preset's value.

import (
	"errors"
	"os"

	"trench/internal/presetflags"

	"github.com/spf13/pflag"
)

// DefaultPreset is the preset of a command line that names none.
const DefaultPreset = "quick"

// Flags are the settings flags declared on one flag set, for the
// commands that train and self-play.
type Flags struct {
	fs *pflag.FlagSet
	// given holds the values the user gave; the others are zero.
	given Config
}

// BindFlags declares a flag for every field of Config on fs.
func BindFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{fs: fs}
	presetflags.Bind(fs, &f.given)
	fs.Lookup("preset").DefValue = DefaultPreset
	return f
}

// Given is the settings the user gave on the command line, the others
// zero.
func (f *Flags) Given() Config { return f.given }

// Config returns the preset's config fitted to the game (Config.FitGame)
// with the settings the user gave laid over it, and the names of their
// flags.
func (f *Flags) Config() (Config, []string, error) {
	preset := f.given.Preset
	if preset == "" {
		preset = DefaultPreset
	}
	cfg, err := Preset(preset)
	if err != nil {
		return cfg, nil, err
	}
	f.lay(&cfg, f.given) // the game, and what fitting it reads
	if err := cfg.FitGame(); err != nil {
		return cfg, nil, err
	}
	changed := f.lay(&cfg, f.given)
	return cfg, changed, cfg.Validate()
}

// Over returns saved with the settings the user gave laid over it, as
// Config resolves them.
func (f *Flags) Over(saved Config) (Config, error) {
	cfg, _, err := f.Config()
	if err != nil {
		return cfg, err
	}
	f.lay(&saved, cfg)
	return saved, saved.Validate()
}

// ForRun returns the config saved in the run directory dir with the
// settings the user gave laid over it; without a saved config (or with no
// dir) it returns Config's.
func (f *Flags) ForRun(dir string) (Config, error) {
	cfg, _, err := f.Config()
	if err != nil || dir == "" {
		return cfg, err
	}
	saved, err := LoadConfig(dir)
	if errors.Is(err, os.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, err
	}
	return f.Over(saved)
}

// lay copies into dst the fields of src whose flags the user set, and
// returns their flags' names.
func (f *Flags) lay(dst *Config, src Config) []string { return presetflags.Lay(f.fs, dst, src) }
