// Package excerpt quotes inputs in error messages: a whole position
// string, move or flag value can be any length, and an error that echoes
// it should stay one readable line.
package excerpt

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxChars is the most characters of an input Quote shows.
const MaxChars = 80

// Quote returns s as a Go-quoted string, like fmt's %q: printable
// characters, non-ASCII ones included, as themselves, control characters
// and invalid UTF-8 bytes escaped. An input of more than MaxChars
// characters is cut to its first MaxChars, never inside a character, and
// ends in "…" followed by its whole length, e.g. "xs5/…" (100000 bytes).
func Quote(s string) string {
	n, i := 0, 0
	for i < len(s) && n < MaxChars {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	if i == len(s) {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s (%d bytes)", strconv.Quote(s[:i]+"…"), len(s))
}

// Char returns the number, counting from 1, of the character that starts
// at byte i of s, and that character quoted as Quote does (one invalid
// byte is a character of its own): for "aé!" and 3, 3 and `"!"`. Parsers
// that read a string byte by byte use it to name a character at fault.
func Char(s string, i int) (n int, quoted string) {
	_, size := utf8.DecodeRuneInString(s[i:])
	return utf8.RuneCountInString(s[:i]) + 1, strconv.Quote(s[i : i+size])
}
