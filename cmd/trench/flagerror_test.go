package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"trench/internal/excerpt"
)

func TestDescribeFlagError(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "x"}, `--games "x": invalid syntax`},
		{[]string{"--games", "99999999999999999999"}, `--games "99999999999999999999": value out of range`},
		{[]string{"--time", "5q"}, `--time "5q": not a duration such as 500ms, 2s or 1m30s`},
		{[]string{"--sprt=maybe"}, `--sprt "maybe": invalid syntax`},
		{[]string{"--bogus"}, `unknown flag "--bogus"`},
		{[]string{"-x"}, "unknown shorthand flag: 'x' in -x"},
		{[]string{"--games"}, "flag needs an argument: --games"},
		{[]string{"---x"}, `bad flag syntax: "---x"`},
		{[]string{"--bogus" + long}, "unknown flag " + excerpt.Quote("--bogus"+long)},
		{[]string{"--games", long}, "--games " + excerpt.Quote(long) + ": invalid syntax"},
	} {
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		fs.SetOutput(&strings.Builder{})
		fs.Int("games", 0, "")
		fs.Duration("time", 0, "")
		fs.Bool("sprt", false, "")
		err := fs.Parse(tc.args)
		if err == nil {
			t.Fatalf("%q parsed", tc.args)
		}
		if got := describeFlagError(err); got != tc.want {
			t.Errorf("%q: Describe = %q, want %q", tc.args, got, tc.want)
		}
	}
}
