package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongInputsQuotedShort gives every command kind of input a long or
// non-ASCII value and checks the error quotes at most about 80 characters
// of it, non-ASCII characters as themselves.
func TestLongInputsQuotedShort(t *testing.T) {
	long := strings.Repeat("p", 100_000)
	wide := strings.Repeat("é", 50_000)
	for _, tc := range []struct {
		name  string
		input string // standard input
		args  []string
		want  string
	}{
		{"perft --fen", "", []string{"perft", "--fen", "xs5/" + long + " b 0 0 0 1", "--depth", "1"}, `--fen: position "xs5/ppp`},
		{"perft --fen non-ASCII", "", []string{"perft", "--fen", "4skcé/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1", "--depth", "1"}, `character 5, "é", is not`},
		{"play --fen", "", []string{"play", "--fen", wide}, `--fen: position "ééé`},
		{"play --side", "", []string{"play", "--side", long}, `--side must be black or white, got "ppp`},
		{"engine move", "position startpos moves " + long + "\nquit\n", []string{"engine"}, `error position: move 1 "ppp`},
		{"engine position", "position fen " + long + " b 0 0 0 1\nquit\n", []string{"engine"}, `error position "ppp`},
		{"engine command", wide + "\nquit\n", []string{"engine"}, `error unknown command "ééé`},
		{"arena player", "", []string{"arena", "alphabeta:depth=" + long, "random"}, `player "alphabeta:depth=ppp`},
		{"flag value", "", []string{"engine", "--threads", long}, `--threads "ppp`},
		{"unknown flag", "", []string{"engine", "--" + wide}, `unknown flag "--ééé`},
		{"unexpected argument", "", []string{"perft", long}, `unexpected argument "ppp`},
		{"unknown command", "", []string{long}, `unknown command "ppp`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out, errOut := runCLIInput(tc.input, tc.args...)
			msg := errOut
			if tc.args[0] == "engine" && tc.input != "" {
				msg = out
			}
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("output %.300q lacks %q", msg, tc.want)
			}
			if n := utf8.RuneCountInString(msg); n > 400 {
				t.Errorf("%d characters of error: %.300q", n, msg)
			}
			if !strings.Contains(msg, "…") && tc.name != "perft --fen non-ASCII" {
				t.Errorf("no ellipsis where the input was cut: %.300q", msg)
			}
			if strings.Contains(msg, `\x`) || strings.Contains(msg, `\u`) {
				t.Errorf("characters shown as bytes: %.300q", msg)
			}
		})
	}
}
