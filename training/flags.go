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
type Flags struct{ set *presetflags.Set[Config] }

// BindFlags declares a flag for every field of Config on fs.
func BindFlags(fs *pflag.FlagSet) *Flags {
	return &Flags{presetflags.NewSet[Config](fs, DefaultPreset)}
}

// Given is the settings the user gave on the command line, the others
// zero.
func (f *Flags) Given() Config { return f.set.Given() }

// Config returns the preset's config fitted to the game (Config.FitGame)
// with the settings the user gave laid over it, and the names of their
// flags.
func (f *Flags) Config() (Config, []string, error) {
	given := f.set.Given()
	preset := given.Preset
	if preset == "" {
		preset = DefaultPreset
	}
	cfg, err := Preset(preset)
	if err != nil {
		return cfg, nil, err
	}
	f.set.Lay(&cfg, given) // the game, and what fitting it reads
	if err := cfg.FitGame(); err != nil {
		return cfg, nil, err
	}
	changed := f.set.Lay(&cfg, given)
	return cfg, changed, cfg.Validate()
}

// Over returns saved with the settings the user gave laid over it, as
// Config resolves them.
func (f *Flags) Over(saved Config) (Config, error) {
	cfg, _, err := f.Config()
	if err != nil {
		return cfg, err
	}
	f.set.Lay(&saved, cfg)
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
