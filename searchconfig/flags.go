package searchconfig

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Bind adds a flag to fs for every setting but those in skip, each named
// by its key, defaulting to c's value and writing into c when fs is
// parsed. After parsing, Flags checks what was given.
func (c *Config) Bind(fs *pflag.FlagSet, skip ...string) {
	v := reflect.ValueOf(c).Elem()
	for _, f := range fields {
		if slices.Contains(skip, f.key) {
			continue
		}
		help := f.help
		switch {
		case f.key == "level":
			help = fmt.Sprintf("%s (%s)", help, LevelList())
		case f.min != "":
			help = fmt.Sprintf("%s (%s)", help, f.rangeText())
		}
		switch p := v.Field(f.index).Addr().Interface().(type) {
		case *string:
			fs.StringVar(p, f.key, *p, help)
		case *int:
			fs.IntVar(p, f.key, *p, help)
		case *float64:
			fs.Float64Var(p, f.key, *p, help)
		case *bool:
			fs.BoolVar(p, f.key, *p, help)
		case *time.Duration:
			fs.DurationVar(p, f.key, *p, help)
		default:
			panic(fmt.Sprintf("searchconfig: field %s has an unsupported type %T", f.key, p))
		}
	}
}

// Flags checks the settings after fs, to which Bind added them, was
// parsed: each in its range, and not both a level and simulations or a
// time. Errors name the flag.
func (c Config) Flags(fs *pflag.FlagSet) error {
	if err := CheckLimits(fs.Changed, "--"); err != nil {
		return err
	}
	return c.ValidateFlags()
}

// Usage describes the settings as the options of a spec, one a line after
// indent, each with its values, c's value as its default, its old keys
// and its help, e.g. "material-value=0..1 (default 0.5; old key mat):
// weight of the material lead ...".
func Usage(c Config, indent string) string {
	var b strings.Builder
	v := reflect.ValueOf(c)
	for _, f := range fields {
		values := f.rangeText()
		switch {
		case len(f.values) > 0:
			values = strings.Join(f.values, "|")
		case v.Field(f.index).Kind() == reflect.Bool:
			values = "0|1"
		case f.min == "":
			values = strings.ToUpper(f.key)
		}
		def := fmt.Sprint(v.Field(f.index).Interface())
		if x, ok := v.Field(f.index).Interface().(bool); ok {
			def = map[bool]string{false: "0", true: "1"}[x]
		}
		fmt.Fprintf(&b, "%s%s=%s (default %s", indent, f.key, values, def)
		if len(f.aliases) > 0 {
			fmt.Fprintf(&b, "; old key %s", strings.Join(f.aliases, ", "))
		}
		help := f.help
		if f.key == "level" {
			help = fmt.Sprintf("%s (%s)", help, LevelList())
		}
		fmt.Fprintf(&b, "): %s\n", help)
	}
	return b.String()
}
