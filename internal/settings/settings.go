// Package settings reads a struct's settings as the tags of its fields
// declare them, so that a setting is declared once and every reader finds
// it: text by key or old key (Schema.Set, for spec options such as the
// arena's), command flags (Schema.Bind), checks of ranges and values
// with errors naming the key (Schema.Validate), and a listing for help
// (Schema.Usage).
//
// A field's tags: key, its name; alias, old names still read, separated
// by "|"; help, for people; min and max, its range (numbers, durations
// such as 1h, or names given in Options.Bounds); values, the words a
// string field takes, separated by "|". A field may be a string, an int,
// a float64, a bool or a time.Duration.
package settings

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"trench/internal/excerpt"
)

// Options say what a struct's tags cannot.
type Options struct {
	// Bounds are the numbers a min or max tag may give by name, e.g.
	// "MaxThreads".
	Bounds map[string]float64
	// Notes add to a setting's help, by key: in Usage after the help, and
	// in a flag's help in place of the range (e.g. what each level of a
	// range of levels means).
	Notes map[string]string
}

// Schema is the settings struct T declares by its fields' tags.
type Schema[T any] struct {
	fields []field
	bounds map[string]float64
	notes  map[string]string
}

// field is one setting as the tags declare it.
type field struct {
	index    int
	key      string
	aliases  []string
	help     string
	values   []string
	min, max string  // the range as the tags give it, "" for none
	lo, hi   float64 // the range as numbers
}

// New reads the settings that the fields of struct type T declare. It
// reports a field that is not exported or has no key or no help, a key or old key named twice,
// a type it cannot read, a range it cannot read, values on a field that
// is not a string, and a note for no key.
func New[T any](o Options) (*Schema[T], error) {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("settings: %v is not a struct", t)
	}
	s := &Schema[T]{bounds: o.Bounds, notes: o.Notes}
	names := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			return nil, fmt.Errorf("settings: field %s of %v is not exported", sf.Name, t)
		}
		tag := sf.Tag
		f := field{index: i, key: tag.Get("key"), help: tag.Get("help"), min: tag.Get("min"), max: tag.Get("max")}
		if f.key == "" || f.help == "" {
			return nil, fmt.Errorf("settings: field %s of %v has no key or no help", sf.Name, t)
		}
		if a := tag.Get("alias"); a != "" {
			f.aliases = strings.Split(a, "|")
		}
		for _, name := range append([]string{f.key}, f.aliases...) {
			if names[name] {
				return nil, fmt.Errorf("settings: %v names %q twice", t, name)
			}
			names[name] = true
		}
		switch sf.Type {
		case reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[float64](), reflect.TypeFor[bool](), reflect.TypeFor[time.Duration]():
		default:
			return nil, fmt.Errorf("settings: field %s of %v has a type settings cannot read, %v", sf.Name, t, sf.Type)
		}
		if v := tag.Get("values"); v != "" {
			if sf.Type.Kind() != reflect.String {
				return nil, fmt.Errorf("settings: field %s of %v has values but is not a string", sf.Name, t)
			}
			f.values = strings.Split(v, "|")
		}
		if (f.min == "") != (f.max == "") {
			return nil, fmt.Errorf("settings: field %s of %v has one end of a range", sf.Name, t)
		}
		if f.min != "" {
			if k := sf.Type.Kind(); k == reflect.String || k == reflect.Bool {
				return nil, fmt.Errorf("settings: field %s of %v has a range but is not a number", sf.Name, t)
			}
			var err error
			if f.lo, err = s.bound(f.min); err != nil {
				return nil, fmt.Errorf("settings: field %s of %v: %w", sf.Name, t, err)
			}
			if f.hi, err = s.bound(f.max); err != nil {
				return nil, fmt.Errorf("settings: field %s of %v: %w", sf.Name, t, err)
			}
		}
		s.fields = append(s.fields, f)
	}
	for key := range o.Notes {
		if _, ok := s.lookup(key); !ok {
			return nil, fmt.Errorf("settings: a note for %q, which %v does not declare", key, t)
		}
	}
	return s, nil
}

// Must is New for a declaration in the program's source, whose errors
// are the programmer's: it panics on one (and so every test of a package
// that declares settings at its start checks its tags).
func Must[T any](o Options) *Schema[T] {
	s, err := New[T](o)
	if err != nil {
		panic(err)
	}
	return s
}

// bound returns the number a min or max tag gives.
func (s *Schema[T]) bound(text string) (float64, error) {
	if b, ok := s.bounds[text]; ok {
		return b, nil
	}
	if d, err := time.ParseDuration(text); err == nil && strings.ContainsAny(text, "hms") {
		return float64(d), nil
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(x) {
		return 0, fmt.Errorf("bound %q is no number, duration or named bound", text)
	}
	return x, nil
}

// Keys lists the settings' keys in declaration order.
func (s *Schema[T]) Keys() []string {
	keys := make([]string, len(s.fields))
	for i, f := range s.fields {
		keys[i] = f.key
	}
	return keys
}

// Canonical returns the key that key names, itself or an old name of
// it, and whether there is one.
func (s *Schema[T]) Canonical(key string) (string, bool) {
	f, ok := s.lookup(key)
	return f.key, ok
}

// lookup returns the field that key or an old key names.
func (s *Schema[T]) lookup(key string) (field, bool) {
	for _, f := range s.fields {
		if f.key == key || slices.Contains(f.aliases, key) {
			return f, true
		}
	}
	return field{}, false
}

// Set sets the setting of *p that key names (its key or an old name)
// from its text form: a number, a duration such as 2s, a word of its
// values, or for a yes/no setting 1, 0, true or false. The value must be
// in the setting's range; if it is not, *p is left as it was. Errors name
// the key as given and the value, and an old key's new name.
func (s *Schema[T]) Set(p *T, key, value string) error {
	f, ok := s.lookup(key)
	if !ok {
		return fmt.Errorf("unknown option %s (known: %s)", excerpt.Quote(key), strings.Join(s.Keys(), ", "))
	}
	dst := reflect.ValueOf(p).Elem().Field(f.index)
	v := reflect.New(dst.Type()).Elem()
	bad := func(want string) error {
		return fmt.Errorf("%s must be %s, got %s%s", key, want, excerpt.Quote(value), renamed(key, f.key))
	}
	var want string
	switch q := v.Addr().Interface().(type) {
	case *string:
		*q = value
	case *int:
		want = "a whole number" + s.in(f)
		n, err := strconv.Atoi(value)
		if err != nil {
			return bad(want)
		}
		*q = n
	case *float64:
		want = "a number" + s.in(f)
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return bad(want)
		}
		*q = x
	case *bool:
		switch value {
		case "1", "true":
			*q = true
		case "0", "false":
			*q = false
		default:
			return bad("1 or 0 (or true or false)")
		}
	case *time.Duration:
		want = "a duration such as 200ms or 2s, up to " + f.max
		d, err := time.ParseDuration(value)
		if err != nil {
			return bad(want)
		}
		*q = d
	}
	if err := s.check(f, v, ""); err != nil {
		if want != "" {
			return bad(want)
		}
		return errors.New(key + strings.TrimPrefix(err.Error(), f.key))
	}
	dst.Set(v)
	return nil
}

// renamed notes an old key read for its new one.
func renamed(old, key string) string {
	if old == key {
		return ""
	}
	return fmt.Sprintf(" (%s is %s)", old, key)
}

// Validate reports the first setting of c out of its range or values,
// naming its key after prefix (e.g. "--" for flags).
func (s *Schema[T]) Validate(c T, prefix string) error {
	v := reflect.ValueOf(c)
	for _, f := range s.fields {
		if err := s.check(f, v.Field(f.index), prefix); err != nil {
			return err
		}
	}
	return nil
}

// in is " in " and the field's range, or "" when it has none.
func (s *Schema[T]) in(f field) string {
	if f.min == "" {
		return ""
	}
	return " in " + f.rangeText(s.bounds)
}

// rangeText is the field's range for people, e.g. "1..256".
func (f field) rangeText(bounds map[string]float64) string {
	num := func(text string) string {
		if b, ok := bounds[text]; ok {
			return strconv.FormatFloat(b, 'f', -1, 64)
		}
		return text
	}
	return num(f.min) + ".." + num(f.max)
}

// check reports v outside the field's range or values; prefix goes
// before the key in the error.
func (s *Schema[T]) check(f field, v reflect.Value, prefix string) error {
	name := prefix + f.key
	if !f.admits(v) {
		switch x := v.Interface().(type) {
		case string:
			return fmt.Errorf("%s must be %s, got %s", name, strings.Join(f.values, " or "), excerpt.Quote(x))
		case int:
			return fmt.Errorf("%s must be in %s, got %d", name, f.rangeText(s.bounds), x)
		case float64:
			return fmt.Errorf("%s must be in %s, got %g", name, f.rangeText(s.bounds), x)
		case time.Duration:
			return fmt.Errorf("%s must be in %s, got %v", name, f.rangeText(s.bounds), x)
		}
	}
	return nil
}

// admits reports whether v is in the field's range or values. A number
// that is not a number (NaN) is in no range.
func (f field) admits(v reflect.Value) bool {
	in := func(x float64) bool { return f.min == "" || x >= f.lo && x <= f.hi }
	switch x := v.Interface().(type) {
	case string:
		return len(f.values) == 0 || slices.Contains(f.values, x)
	case int:
		return in(float64(x))
	case float64:
		return in(x) && !math.IsNaN(x)
	case time.Duration:
		return in(float64(x))
	}
	return true
}

// Bind adds a flag to fs for every setting of *p but those in skip, each
// named by its key, defaulting to *p's value and writing into *p when fs
// is parsed. A flag's help is the setting's help with its note, or else
// its range.
func (s *Schema[T]) Bind(fs *pflag.FlagSet, p *T, skip ...string) {
	v := reflect.ValueOf(p).Elem()
	for _, f := range s.fields {
		if slices.Contains(skip, f.key) {
			continue
		}
		help := f.help
		if note, ok := s.notes[f.key]; ok {
			help = fmt.Sprintf("%s (%s)", help, note)
		} else if f.min != "" {
			help = fmt.Sprintf("%s (%s)", help, f.rangeText(s.bounds))
		}
		switch q := v.Field(f.index).Addr().Interface().(type) {
		case *string:
			fs.StringVar(q, f.key, *q, help)
		case *int:
			fs.IntVar(q, f.key, *q, help)
		case *float64:
			fs.Float64Var(q, f.key, *q, help)
		case *bool:
			fs.BoolVar(q, f.key, *q, help)
		case *time.Duration:
			fs.DurationVar(q, f.key, *q, help)
		}
	}
}

// Usage describes the settings as the options of a spec, one a line after
// indent, each with its values, c's value as its default, its old keys
// and its help, e.g. "material-value=0..1 (default 0.5; old key mat):
// weight of the material lead ...". A default outside the setting's
// range, or an empty text, shows as none: the setting is not set.
func (s *Schema[T]) Usage(c T, indent string) string {
	var b strings.Builder
	v := reflect.ValueOf(c)
	for _, f := range s.fields {
		fv := v.Field(f.index)
		values := f.rangeText(s.bounds)
		switch {
		case len(f.values) > 0:
			values = strings.Join(f.values, "|")
		case fv.Kind() == reflect.Bool:
			values = "0|1"
		case f.min == "":
			values = strings.ToUpper(f.key)
		}
		def := fmt.Sprint(fv.Interface())
		switch x := fv.Interface().(type) {
		case bool:
			def = map[bool]string{false: "0", true: "1"}[x]
		case string:
			if x == "" {
				def = "none"
			}
		}
		if !f.admits(fv) && fv.IsZero() {
			def = "none"
		}
		fmt.Fprintf(&b, "%s%s=%s (default %s", indent, f.key, values, def)
		if len(f.aliases) > 0 {
			fmt.Fprintf(&b, "; old key %s", strings.Join(f.aliases, ", "))
		}
		help := f.help
		if note, ok := s.notes[f.key]; ok {
			help = fmt.Sprintf("%s (%s)", help, note)
		}
		fmt.Fprintf(&b, "): %s\n", help)
	}
	return b.String()
}
