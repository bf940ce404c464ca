package excerpt

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"short", "d4d5", `"d4d5"`},
		{"quotes and controls escaped", "a\"b\n\x00", `"a\"b\n\x00"`},
		{"non-ASCII as characters", "Wé2→ж", `"Wé2→ж"`},
		{"invalid UTF-8 as bytes", "a\xffb", `"a\xffb"`},
		{"exactly the limit", strings.Repeat("x", MaxChars), strconv.Quote(strings.Repeat("x", MaxChars))},
		{"one over the limit", strings.Repeat("x", MaxChars+1), `"` + strings.Repeat("x", MaxChars) + `…" (81 bytes)`},
		{"long", "xs5/" + strings.Repeat("p", 100000), `"xs5/` + strings.Repeat("p", MaxChars-4) + `…" (100004 bytes)`},
		{"cut between characters", strings.Repeat("é", 100), `"` + strings.Repeat("é", MaxChars) + `…" (200 bytes)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote(tc.in); got != tc.want {
				t.Errorf("Quote(%.40q...) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestChar(t *testing.T) {
	for _, tc := range []struct {
		s    string
		i, n int
		want string
	}{
		{"d4", 0, 1, `"d"`},
		{"aé!", 1, 2, `"é"`},
		{"aé!", 3, 3, `"!"`},
		{"é\xffx", 2, 2, `"\xff"`},
		{"\x00", 0, 1, `"\x00"`},
	} {
		if n, q := Char(tc.s, tc.i); n != tc.n || q != tc.want {
			t.Errorf("Char(%q, %d) = %d, %s; want %d, %s", tc.s, tc.i, n, q, tc.n, tc.want)
		}
	}
}

// FuzzQuote checks that any input gives a short, valid quotation that
// starts with the input's first characters.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "d4d5", "a\xffb", strings.Repeat("é", 90), strings.Repeat("\x00", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if !utf8.ValidString(q) {
			t.Fatalf("Quote gave invalid UTF-8 %q", q)
		}
		// An escaped character takes at most 10 bytes (\U0010ffff); the
		// length note at most about 30.
		if len(q) > 10*MaxChars+40 {
			t.Fatalf("Quote gave %d bytes", len(q))
		}
		lit := q
		if i := strings.LastIndex(q, `" (`); i >= 0 && strings.HasSuffix(q, " bytes)") {
			lit = q[:i+1]
		}
		u, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("Quote(%q) = %s does not unquote: %v", s, q, err)
		}
		if lit == q {
			if u != s {
				t.Fatalf("Quote(%q) = %s, not the whole input", s, q)
			}
			return
		}
		cut, ok := strings.CutSuffix(u, "…")
		if !ok || !strings.HasPrefix(s, cut) || utf8.RuneCountInString(cut) != MaxChars {
			t.Fatalf("Quote(%q) = %s: not the first %d characters and an ellipsis", s, q, MaxChars)
		}
	})
}
