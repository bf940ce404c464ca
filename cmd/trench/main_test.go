package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCLI runs the trench command in-process and returns its exit code and
// output.
func runCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestHelp(t *testing.T) {
	code, out, _ := runCLI("help")
	if code != 0 || !strings.Contains(out, "perft") {
		t.Errorf("help: code %d, output %q", code, out)
	}
	code, out, _ = runCLI("perft", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--depth") {
		t.Errorf("perft --help: code %d, output %q", code, out)
	}
	if code, _, errOut := runCLI("nosuch"); code != 2 || !strings.Contains(errOut, `unknown command "nosuch"`) {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI("perft", "--bogus"); code != 2 || !strings.Contains(errOut, "bogus") {
		t.Errorf("bad flag: code %d, stderr %q", code, errOut)
	}
}

func TestPerftCommand(t *testing.T) {
	code, out, _ := runCLI("perft", "--depth", "3")
	if want := "perft 1 14\nperft 2 192\nperft 3 3894\n"; code != 0 || out != want {
		t.Errorf("perft --depth 3: code %d, output %q, want %q", code, out, want)
	}
	code, out, _ = runCLI("perft", "--depth", "2", "--divide")
	if code != 0 || !strings.Contains(out, "d4e4 ") || !strings.Contains(out, "total 192\n") {
		t.Errorf("perft --divide: code %d, output %q", code, out)
	}
	code, _, errOut := runCLI("perft", "--fen", "8/8 b 0 0 0 1", "--depth", "1")
	if code != 2 || !strings.Contains(errOut, "field") {
		t.Errorf("bad --fen: code %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI("perft"); code != 2 {
		t.Errorf("perft with no depth: code %d, want 2", code)
	}
}

func TestPerftFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("# start\n\n4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1;14;192;3894\n"), 0o644)
	code, out, _ := runCLI("perft", "--file", good)
	if code != 0 || out != "1 passed, 0 failed\n" {
		t.Errorf("good file: code %d, output %q", code, out)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1;14;191\n"), 0o644)
	code, out, _ = runCLI("perft", "--file", bad)
	if code != 1 || !strings.Contains(out, "depth 2: expected 191, found 192") || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Errorf("bad file: code %d, output %q", code, out)
	}
	malformed := filepath.Join(dir, "malformed.txt")
	os.WriteFile(malformed, []byte("nonsense;1\n"), 0o644)
	if code, _, errOut := runCLI("perft", "--file", malformed); code != 2 || !strings.Contains(errOut, "malformed.txt:1") {
		t.Errorf("malformed file: code %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI("perft", "--file", filepath.Join(dir, "missing")); code != 2 {
		t.Errorf("missing file: code %d, want 2", code)
	}
	start := "4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1;14\n"
	for _, tc := range []struct{ name, text, want string }{
		{"long line", start + "# fine\n" + strings.Repeat("x", 2<<20) + "\n" + start, ".txt:3: line too long (limit 1 MiB)"},
		{"bad position", start + "xs5/8 b 0 0 0 1;14\n", ".txt:2: "},
		{"bad count", start + "\n" + strings.Replace(start, ";14", ";x", 1), `.txt:3: count 1, "x", is not`},
		{"long field quoted short", start + strings.Replace(start, ";14", ";"+strings.Repeat("9x", 1000), 1), `9x…" (2000 bytes), is not`},
	} {
		f := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".txt")
		os.WriteFile(f, []byte(tc.text), 0o644)
		if code, _, errOut := runCLI("perft", "--file", f); code != 2 || !strings.Contains(errOut, tc.want) || len(errOut) > 400 {
			t.Errorf("%s: code %d, stderr %.400q, want 2 and %q", tc.name, code, errOut, tc.want)
		}
	}
	code, out, _ = runCLI("perft", "--file", "../../engine/trench/testdata/perft-positions.txt")
	if code != 0 || !strings.HasSuffix(out, "60 passed, 0 failed\n") {
		t.Errorf("perft positions file: code %d, output tail %q", code, out[max(0, len(out)-80):])
	}
}

func TestPerftTrichess(t *testing.T) {
	code, out, _ := runCLI("perft", "--game", "trichess", "--depth", "3")
	if want := "perft 1 20\nperft 2 400\nperft 3 8000\n"; code != 0 || out != want {
		t.Errorf("perft --game trichess --depth 3: code %d, output %q, want %q", code, out, want)
	}
	code, out, _ = runCLI("perft", "--game", "trichess", "--depth", "2", "--divide")
	if code != 0 || !strings.Contains(out, "We2We4 20\n") || !strings.Contains(out, "total 400\n") {
		t.Errorf("perft --game trichess --divide: code %d, output %q", code, out)
	}
	if code, _, errOut := runCLI("perft", "--game", "chess", "--depth", "1"); code != 2 || !strings.Contains(errOut, `unknown game "chess" (known: trench, trichess)`) {
		t.Errorf("unknown game: code %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI("perft", "--game", "trichess", "--fen", "wK7 w", "--depth", "1"); code != 2 || !strings.Contains(errOut, "want 5 fields") {
		t.Errorf("bad trichess --fen: code %d, stderr %q", code, errOut)
	}
	code, out, _ = runCLI("perft", "--game", "trichess", "--file", "../../engine/trichess/testdata/perft.txt")
	if code != 0 || out != "4 passed, 0 failed\n" {
		t.Errorf("trichess perft file: code %d, output %q", code, out)
	}

	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.txt")
	os.WriteFile(ref, []byte("# reference lines\nwP Wa2: Wa3 Wa4\nwN Wa1: Wb3\nw;We1=wK Wh1=wR Rd1=rK;We1Wd1 We1Wd2 We1We2 We1Wf1 We1Wf2 We1Wg1 Wh1Wf1 Wh1Wg1 Wh1Wh2 Wh1Wh3 Wh1Wh4 Wh1Ra4 Wh1Ra3 Wh1Ra2 Wh1Ra1\n"), 0o644)
	code, out, _ = runCLI("perft", "--game", "trichess", "--file", ref)
	if code != 1 || !strings.Contains(out, "ref.txt:3: missing [], extra [Wa1Wc2]") || !strings.HasSuffix(out, "2 passed, 1 failed\n") {
		t.Errorf("reference lines: code %d, output %q", code, out)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("w;Wz1=wK;\n"), 0o644)
	if code, _, errOut := runCLI("perft", "--game", "trichess", "--file", bad); code != 2 || !strings.Contains(errOut, "bad.txt:1") {
		t.Errorf("malformed reference line: code %d, stderr %q", code, errOut)
	}
	for _, name := range []string{"empty-board-moves.txt", "pseudo-legal-positions.txt"} {
		code, out, _ := runCLI("perft", "--game", "trichess", "--file", "../../engine/trichess/testdata/"+name)
		if code != 0 || !strings.HasSuffix(out, " passed, 0 failed\n") {
			t.Errorf("%s: code %d, output tail %q", name, code, out[max(0, len(out)-80):])
		}
	}
}

// The help calls the AI the bot, keeping "engine" for the rules, the
// engine command and its protocol, and the classical alphabeta engine
// (docs/architecture.md, "Words").
func TestHelpCallsTheAIBot(t *testing.T) {
	allowed := regexp.MustCompile(`(rules|classical|alphabeta|trench) engine\b|\bengine( protocol|/)`)
	command := regexp.MustCompile(`(?m)^ +engine {2,}`) // the command list's entry
	word := regexp.MustCompile(`(?i)\bengines?\b`)
	helps := map[string]string{}
	_, helps["help"], _ = runCLI("help")
	for _, c := range commands {
		_, helps[c.name], _ = runCLI(c.name, "--help")
	}
	for name, help := range helps {
		if help == "" {
			t.Errorf("%s: no help", name)
		}
		help = command.ReplaceAllString(help, "")
		text := allowed.ReplaceAllString(strings.Join(strings.Fields(help), " "), "")
		for _, m := range word.FindAllStringIndex(text, -1) {
			t.Errorf("%s --help calls something %q: …%s…", name, text[m[0]:m[1]], text[max(0, m[0]-40):min(len(text), m[1]+40)])
		}
	}
}
