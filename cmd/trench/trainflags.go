package main

// The training settings (training.Config) as command-line flags: one flag
// per setting, named by its JSON tag and described by its help tag, each
// defaulting to the preset's value.

import (
	"errors"
	"os"
	"reflect"

	"github.com/spf13/pflag"

	"trench/training"
)

// defaultPreset is the preset of a command line that names none.
const defaultPreset = "quick"

// trainFlags are the settings flags declared on one flag set.
type trainFlags struct {
	fs *pflag.FlagSet
	// given holds the values the user gave; the others are zero.
	given training.Config
}

// bindTrainFlags declares a flag for every field of training.Config on fs.
func bindTrainFlags(fs *pflag.FlagSet) *trainFlags {
	f := &trainFlags{fs: fs}
	v := reflect.ValueOf(&f.given).Elem()
	for i := 0; i < v.NumField(); i++ {
		field := v.Type().Field(i)
		name, help := field.Tag.Get("json"), field.Tag.Get("help")
		if name != "preset" {
			help += " (default: the preset's)"
		}
		switch p := v.Field(i).Addr().Interface().(type) {
		case *string:
			fs.StringVar(p, name, "", help)
		case *int:
			fs.IntVar(p, name, 0, help)
		case *float64:
			fs.Float64Var(p, name, 0, help)
		case *uint64:
			fs.Uint64Var(p, name, 0, help)
		case *bool:
			fs.BoolVar(p, name, false, help)
		}
	}
	fs.Lookup("preset").DefValue = defaultPreset
	return f
}

// Given is the settings the user gave on the command line, the others
// zero.
func (f *trainFlags) Given() training.Config { return f.given }

// Config returns the preset's config with the settings the user gave laid
// over it, and the names of their flags. The preset's evaluation
// baselines and value base are fitted to the game unless --eval-baselines
// or --value-base is given.
func (f *trainFlags) Config() (training.Config, []string, error) {
	preset := f.given.Preset
	if preset == "" {
		preset = defaultPreset
	}
	cfg, err := training.Preset(preset)
	if err != nil {
		return cfg, nil, err
	}
	changed := f.lay(&cfg, f.given)
	if !f.fs.Changed("eval-baselines") {
		if err := cfg.FitPresetBaselines(); err != nil {
			return cfg, changed, err
		}
	}
	if !f.fs.Changed("value-base") {
		if err := cfg.FitPresetValueBase(); err != nil {
			return cfg, changed, err
		}
	}
	return cfg, changed, cfg.Validate()
}

// Over returns saved with the settings the user gave laid over it, as
// Config resolves them.
func (f *trainFlags) Over(saved training.Config) (training.Config, error) {
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
func (f *trainFlags) ForRun(dir string) (training.Config, error) {
	cfg, _, err := f.Config()
	if err != nil || dir == "" {
		return cfg, err
	}
	saved, err := training.LoadConfig(dir)
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
func (f *trainFlags) lay(dst *training.Config, src training.Config) []string {
	var changed []string
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for i := 0; i < d.NumField(); i++ {
		name := d.Type().Field(i).Tag.Get("json")
		if f.fs.Changed(name) {
			d.Field(i).Set(s.Field(i))
			changed = append(changed, name)
		}
	}
	return changed
}
