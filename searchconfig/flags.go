package searchconfig

import (
	"github.com/spf13/pflag"
)

// Bind adds a flag to fs for every setting but those in skip, each named
// by its key, defaulting to c's value and writing into c when fs is
// parsed. After parsing, Flags checks what was given.
func (c *Config) Bind(fs *pflag.FlagSet, skip ...string) {
	declared.Bind(fs, c, skip...)
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
func Usage(c Config, indent string) string { return declared.Usage(c, indent) }
