package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trench/internal/excerpt"
)

// describeFlagError says what is wrong with a command line that the flag
// parser (github.com/spf13/pflag) refused, in a line people can read: the
// flag, the argument at fault quoted short with excerpt.Quote (pflag's own
// messages quote it whole, twice for a number), and why.
func describeFlagError(err error) string {
	var invalid *pflag.InvalidValueError
	var unknown *pflag.NotExistError
	switch {
	case errors.As(err, &invalid):
		value := invalid.GetValue()
		why := errors.Unwrap(err)
		var num *strconv.NumError
		if errors.As(why, &num) {
			why = num.Err
		}
		msg := "invalid"
		switch {
		case invalid.GetFlag().Value.Type() == "duration":
			// time's message quotes the value whole, non-ASCII as bytes.
			msg = "not a duration such as 500ms, 2s or 1m30s"
		case why != nil:
			msg = strings.ReplaceAll(why.Error(), strconv.Quote(value), "it")
		}
		return fmt.Sprintf("--%s %s: %s", invalid.GetFlag().Name, excerpt.Quote(value), msg)
	case errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() == "":
		return fmt.Sprintf("unknown flag %s", excerpt.Quote("--"+unknown.GetSpecifiedName()))
	}
	msg := err.Error()
	if arg, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return "bad flag syntax: " + excerpt.Quote(arg)
	}
	return msg
}
