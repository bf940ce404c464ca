package main

import (
	"strings"
	"testing"
)

// TestEveryCommandHasHelp checks that each command's help text is
// embedded, starts with its synopsis and has had its defaults and
// reference formatted in.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range append(commands, trainNNUECommand) {
		if !strings.HasPrefix(c.usage, "Usage:\n") {
			t.Errorf("trench %s: help starts %q, want the synopsis", c.name, c.usage[:min(len(c.usage), 20)])
		}
		if strings.Contains(c.usage, "{{") {
			t.Errorf("trench %s: help still holds a {{ of its template", c.name)
		}
	}
}
