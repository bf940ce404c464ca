package terminal

import (
	"os"
	"strings"
	"testing"
)

func TestUseColor(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		mode, noColor string
		out           any
		want          bool
		err           string
	}{
		{"always", "", &strings.Builder{}, true, ""},
		{"never", "", f, false, ""},
		{"auto", "", &strings.Builder{}, false, ""}, // not a file
		{"auto", "", f, false, ""},                  // a file, not a terminal
		{"auto", "1", f, false, ""},
		{"sometimes", "", f, false, `must be auto, always or never, got "sometimes"`},
	} {
		t.Setenv("NO_COLOR", tc.noColor)
		var got bool
		var err error
		switch out := tc.out.(type) {
		case *os.File:
			got, err = UseColor(tc.mode, out)
		case *strings.Builder:
			got, err = UseColor(tc.mode, out)
		}
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("UseColor(%q) with NO_COLOR=%q = %v, %v; want %v, %q", tc.mode, tc.noColor, got, err, tc.want, tc.err)
		}
	}
}

func TestSquareViewTitles(t *testing.T) {
	if got := SquareViewTitles(); got != "Trench" {
		t.Errorf("SquareViewTitles() = %q, want Trench", got)
	}
}
