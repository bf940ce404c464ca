// Package presetflags declares a struct of settings as command-line
// flags, one flag a field, for settings that default to a named preset's
// values: each flag is named by its field's json tag, described by its
// help tag, and has the zero value as its default, so that the fields the
// user gave can be laid over the preset afterwards.
package presetflags

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/spf13/pflag"
)

// bind declares on fs a flag for every field of the struct cfg points to.
// Every help text but the preset's own says the default is the preset's.
// A field of a type no flag takes is a programming error, and panics.
func bind(fs *pflag.FlagSet, cfg any) {
	v := reflect.ValueOf(cfg).Elem()
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
		default:
			panic(fmt.Sprintf("presetflags: field %s has a type no flag takes", field.Name))
		}
	}
}

// lay copies into the struct dst points to the fields of src (a struct of
// the same type) whose flags the user set on fs, and returns their
// flags' names.
func lay(fs *pflag.FlagSet, dst, src any) []string {
	var changed []string
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for i := 0; i < d.NumField(); i++ {
		name := d.Type().Field(i).Tag.Get("json")
		if fs.Changed(name) {
			d.Field(i).Set(s.Field(i))
			changed = append(changed, name)
		}
	}
	return changed
}

// Conflict is a setting given on resuming a run that the run's saved
// settings hold otherwise and that may not change.
type Conflict struct {
	// Flag is the setting's flag name; Given and Saved its two values.
	Flag         string
	Given, Saved any
}

func (c *Conflict) Error() string {
	return fmt.Sprintf("--%s %v conflicts with the saved %v", c.Flag, c.Given, c.Saved)
}

// Resume lays over the struct saved points to the fields of given (a
// struct of the same type) whose flags are in changed and whose values
// differ, when mutable says the setting may change on resuming; it
// reports whether it changed any. The first other such field is a
// *Conflict, and saved is then partly updated.
func Resume(saved, given any, changed []string, mutable func(flag string) bool) (bool, error) {
	sv, gv := reflect.ValueOf(saved).Elem(), reflect.ValueOf(given)
	updated := false
	for i := 0; i < sv.NumField(); i++ {
		name := sv.Type().Field(i).Tag.Get("json")
		if !slices.Contains(changed, name) || reflect.DeepEqual(sv.Field(i).Interface(), gv.Field(i).Interface()) {
			continue
		}
		if !mutable(name) {
			return updated, &Conflict{Flag: name, Given: gv.Field(i).Interface(), Saved: sv.Field(i).Interface()}
		}
		sv.Field(i).Set(gv.Field(i))
		updated = true
	}
	return updated, nil
}

// Set is the flags of a settings struct C declared on one flag set, and
// the values the user gave them.
type Set[C any] struct {
	fs *pflag.FlagSet
	// given holds the values the user gave; the others are zero.
	given C
}

// NewSet declares on fs a flag for every field of C, its preset flag
// showing preset as its default. Every help text but the preset's own
// says the default is the preset's. A field of a type no flag takes is a
// programming error, and panics.
func NewSet[C any](fs *pflag.FlagSet, preset string) *Set[C] {
	s := &Set[C]{fs: fs}
	bind(fs, &s.given)
	fs.Lookup("preset").DefValue = preset
	return s
}

// Given is the settings the user gave, the others zero.
func (s *Set[C]) Given() C { return s.given }

// Changed tells whether the user set the flag name.
func (s *Set[C]) Changed(name string) bool { return s.fs.Changed(name) }

// Lay copies into dst the fields of src whose flags the user set, and
// returns their flags' names.
func (s *Set[C]) Lay(dst *C, src C) []string { return lay(s.fs, dst, src) }
