package textline

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// readAll reads every line of in with Read, "!" standing for a line
// that was too long.
func readAll(t *testing.T, in string, limit int) []string {
	t.Helper()
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	var lines []string
	for {
		line, err := Read(r, limit)
		switch {
		case errors.Is(err, io.EOF):
			return lines
		case errors.Is(err, ErrTooLong):
			lines = append(lines, "!")
		case err != nil:
			t.Fatal(err)
		default:
			lines = append(lines, line)
		}
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"lines", "a\nbb\n\nc\n", []string{"a", "bb", "", "c"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"CRLF", "a\r\nb\r\n", []string{"a", "b"}},
		{"at the limit", "0123456789\n", []string{"0123456789"}},
		{"at the limit with CRLF", "0123456789\r\n", []string{"0123456789"}},
		{"one over", "0123456789x\nok\n", []string{"!", "ok"}},
		{"one over with CRLF", "0123456789x\r\nok\n", []string{"!", "ok"}},
		{"far over, beyond the buffer", strings.Repeat("x", 100) + "\nisready\n", []string{"!", "isready"}},
		{"far over at the end", "a\n" + strings.Repeat("x", 100), []string{"a", "!"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, tc.in, 10)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("lines %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzRead checks Read against splitting the whole input.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\n\r\n", strings.Repeat("x", 40) + "\ny\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		const limit = 10
		var want []string
		if in != "" {
			for _, p := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
				p = strings.TrimSuffix(p, "\r")
				if len(p) > limit {
					p = "!"
				}
				want = append(want, p)
			}
		}
		got := readAll(t, in, limit)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("Read on %q: %q, want %q", in, got, want)
		}
	})
}
