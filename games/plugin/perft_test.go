package plugin

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// chain is a made-up game for perft: every position has width moves, so
// that depth d counts width^d sequences.
type chain struct{ width uint64 }

func (c chain) Perft(depth int) uint64 {
	n := uint64(1)
	for range depth {
		n *= c.width
	}
	return n
}

func (c chain) Divide(depth int) []DivideLine {
	var lines []DivideLine
	for m := range c.width {
		lines = append(lines, DivideLine{Move: "m" + strconv.FormatUint(m, 10), Nodes: c.Perft(depth - 1)})
	}
	return lines
}

// chainPerft reads positions "wN" as chains of width N, and treats lines
// starting with "ref " as reference lines that agree when they end in
// "ok".
var chainPerft = &Perft{
	Start: "w2",
	Parse: func(text string) (PerftPosition, error) {
		w, err := strconv.ParseUint(strings.TrimPrefix(text, "w"), 10, 64)
		if err != nil || !strings.HasPrefix(text, "w") {
			return nil, errors.New("not a chain")
		}
		return chain{w}, nil
	},
	IsReference: func(line string) bool { return strings.HasPrefix(line, "ref ") },
	CheckReference: func(line string) (string, error) {
		switch {
		case strings.HasSuffix(line, "ok"):
			return "", nil
		case strings.HasSuffix(line, "bad"):
			return "", errors.New("unreadable reference")
		}
		return "moves differ", nil
	},
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		width  uint64
		depth  int
		divide bool
		want   string
	}{
		{2, 3, false, "perft 1 2\nperft 2 4\nperft 3 8\n"},
		{3, 2, true, "m0 3\nm1 3\nm2 3\ntotal 9\nperft 1 3\nperft 2 9\n"},
	} {
		var b strings.Builder
		Count(&b, chain{tc.width}, tc.depth, tc.divide)
		if b.String() != tc.want {
			t.Errorf("Count(width %d, depth %d, divide %v) wrote %q, want %q", tc.width, tc.depth, tc.divide, b.String(), tc.want)
		}
	}
}

func TestCheckFile(t *testing.T) {
	for _, tc := range []struct {
		name, file     string
		passed, failed int
		out, err       string
	}{
		{"empty", "", 0, 0, "0 passed, 0 failed\n", ""},
		{"pass", "# counts\n\nw2;2;4;8\n  w3;3 ; 9  \nref a ok\n", 3, 0, "3 passed, 0 failed\n", ""},
		{"fail", "w2;2;5\nref x differs\nw1;1\n", 1, 2,
			"FAIL f:1 w2 depth 2: expected 5, found 4\nFAIL f:2: moves differ\n1 passed, 2 failed\n", ""},
		{"no counts", "w2;2\nw2\n", 1, 0, "", `f:2: want "position;n1;n2;...", got "w2"`},
		{"bad position", "x9;1\n", 0, 0, "", "f:1: not a chain"},
		{"bad count", "w2;2;four\n", 0, 0, "", `f:1: count 2, "four", is not a whole number`},
		{"bad reference", "ref bad\n", 0, 0, "", "f:1: unreadable reference"},
		{"long line", "w2;" + strings.Repeat("2", 1<<20) + "\n", 0, 0, "", "f:1: "},
	} {
		var b strings.Builder
		passed, failed, err := chainPerft.CheckFile(strings.NewReader(tc.file), "f", &b)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one starting %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || passed != tc.passed || failed != tc.failed || b.String() != tc.out {
			t.Errorf("%s: CheckFile = %d, %d, %v writing %q; want %d, %d writing %q", tc.name, passed, failed, err, b.String(), tc.passed, tc.failed, tc.out)
		}
	}
}

func FuzzCheckFile(f *testing.F) {
	for _, s := range []string{"w2;2;4\n", "# c\nref ok\n", "w2\n", "w3;3;x\n", "ref bad\n", "\n\n;;\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		var b strings.Builder
		passed, failed, err := chainPerft.CheckFile(strings.NewReader(file), "f", &b)
		if err == nil && !strings.HasSuffix(b.String(), strconv.Itoa(passed)+" passed, "+strconv.Itoa(failed)+" failed\n") {
			t.Fatalf("no closing line after a clean check: %q", b.String())
		}
		if err != nil && !strings.HasPrefix(err.Error(), "f:") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}
