package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"trench/internal/syncbuf"
)

// readmeRun is how TestREADMECommands runs a command line of the
// README: the line as written, with small limits added so that it ends
// in seconds.
type readmeRun struct {
	// line is the README's line, "go run ./cmd/trench" written
	// "trench"; with prefix, the beginning of every line it runs.
	line   string
	prefix bool
	// limits are arguments appended to the line (a flag given twice
	// takes its last value), and shrink rewrites the line's own limits.
	limits string
	shrink func(string) string
	// stdin is the line's input.
	stdin string
	// serve runs a server: the line is run until it names its address,
	// that page is fetched, and the server is interrupted.
	serve bool
	// makesRun marks a line that makes a run the lines after it use: if
	// it fails, the test stops.
	makesRun bool
	// want, if not empty, is text the line's output must hold: a
	// figure the README quotes.
	want string
}

// readmeRuns are the README's command lines that the test runs, in the
// order it runs them, in a folder holding runs/first (the README's
// first command), runs/quick and the repository's docs.
var readmeRuns = []readmeRun{
	// One generation on 2000 positions, as the check makes it.
	// The gate's elo0 and elo1 are lowered so that the gate accepts the
	// generation's net, as the first generation of a full run's is:
	// the lines after it play that net.
	{line: "trench train --run runs/first --preset nnue", makesRun: true,
		limits: "--positions 2000 --generations 1 --steps 500 --gate-pairs 5 --anchor-pairs 1 --gate-elo0 -400 --gate-elo1 -300"},
	{line: "trench train --run runs/tri --game trichess --preset nnue", makesRun: true,
		limits: "--positions 300 --soft-nodes 100 --hard-nodes 400 --opening-depth 1 --shard-games 1 --generations 1 --steps 20 --gate-nodes 200 --gate-pairs 2 --anchor-pairs 1"},
	{line: "trench train --run runs/quick --preset quick", makesRun: true,
		limits: "--steps 20 --checkpoint-every 10 --min-positions 300 --games-per-worker 8 --full-sims 8 --cheap-sims 4 --eval-every 0 --final-games 2"},
	{line: "trench play", stdin: "go\nquit\n"},
	{line: "trench play --net runs/first", stdin: "go\nquit\n"},
	{line: "trench play --net runs/quick", stdin: "go\nquit\n"},
	{line: "trench play --level 6", stdin: "go\nquit\n"},
	{line: "trench play --time 200ms", stdin: "go\nquit\n"},
	{line: "trench engine", stdin: "go time 200\nshow\n"},
	{line: "trench serve", limits: "--addr 127.0.0.1:0", serve: true},
	{line: `echo '{"id":"a","moves":[],"maxTime":0.2}' | trench analysis`},
	{line: "trench selfplay --run runs/first --games 200", limits: "--games 1"},
	{line: "trench arena --games 200 bot:net=runs/first alphabeta:depth=2", limits: "--games 2"},
	{line: "trench rate --run runs/first --pairs 20", limits: "--pairs 1 --nodes 2000"},
	{line: "trench report --run runs/first"},
	{line: "trench openings --out balanced.txt", limits: "--count 2"},
	{line: "trench reanalyse --from runs/quick --net default --run runs/distil"},
	{line: "trench fork --from runs/first --generation 0 --run runs/late --set lambda=0.1"},
	{line: "trench export --out trench-nnue.onnx"},
	{line: "trench perft --depth 5"},
	{line: "trench bench --net compact", limits: "--duration 50ms"},
	// The table of measurements: each row's match, two games at 20 ms
	// or a few thousand nodes a move.
	{line: "trench arena --quiet --parallel 2 --openings docs/openings/", prefix: true,
		limits: "--games 2", shrink: shrinkMatch},
	{line: "trench arena --quiet --parallel 2 --game trichess --challenge --games 600 --seed 4941 alphabeta:eval=nnue,nnue=docs/runs/t9/nets/gen-000009.nnue,nodes=5000 alphabeta:eval=hand,nodes=5000",
		limits: "--games 3", shrink: shrinkMatch},
	// The Trichess row's matches pooled from their game logs.
	{line: "trench arena --replay docs/runs/t9/matches/g9-200ms-4953.jsonl docs/runs/t9/matches/g9-200ms-4957.jsonl",
		want: "bot:kind=alphabeta,time=200ms +0.33 [+0.13, +0.54]   [+0.13, +0.53]"},
	{line: "trench arena --replay docs/runs/t9/matches/g9-vs-conv-tree-200ms-4958.jsonl docs/runs/t9/matches/g9-vs-conv-tree-200ms-4959.jsonl",
		want: "bot:kind=alphabeta,time=200ms        +1.23 [+0.94, +1.53]   [+0.90, +1.57]"},
}

// readmeNotRun are the README's command lines that the test does not
// run, each with the reason.
var readmeNotRun = map[string]string{
	"go test ./...":        "the tests themselves, this one included",
	"go test -short ./...": "the tests themselves, this one left out",
	"sudo apt-get install nats-server && nats-server -js -sd /var/tmp/nats-store &": "installs and starts a NATS server: needs root and the network (nats_test.go runs the NATS commands against a server of its own)",
	"trench train --run runs/first --preset nnue --nats nats://localhost:4222":      "needs a NATS server (TestNATSNNUERun trains so)",
	"trench selfplay --nats nats://TRAINER-HOST:4222 --run first":                   "needs the trainer's NATS server (TestNATSNNUERun runs such workers)",
	"trench status --nats nats://TRAINER-HOST:4222 --run first":                     "needs the trainer's NATS server",
	"trench status --nats nats://host:4222 --run first":                             "needs a NATS server",
}

// matchLimits are a measured match's limits and what the test plays
// them at.
var matchLimits = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`time=[0-9]+m?s`), "time=20ms"},
	{regexp.MustCompile(`level=[0-9]+`), "level=2"},
	{regexp.MustCompile(`nodes=[0-9]+`), "nodes=3000"},
}

// shrinkMatch plays a measured match at matchLimits.
func shrinkMatch(line string) string {
	for _, l := range matchLimits {
		line = l.re.ReplaceAllString(line, l.with)
	}
	return line
}

var (
	// shellComment is a code block line's comment.
	shellComment = regexp.MustCompile(`\s+#\s.*$`)
	// manySpaces are the spaces that align comments.
	manySpaces = regexp.MustCompile(`\s+`)
)

// normalizeCommand writes a README line as the tables of this test do:
// without its comment, "go run ./cmd/trench" written "trench".
func normalizeCommand(line string) string {
	line = shellComment.ReplaceAllString(strings.TrimSpace(line), "")
	line = manySpaces.ReplaceAllString(line, " ")
	if rest, ok := strings.CutPrefix(line, "go run ./cmd/trench "); ok {
		line = "trench " + rest
	}
	return line
}

// isCommandSpan reports whether a table's code span is a command line:
// one that runs trench.
func isCommandSpan(span string) bool {
	span = normalizeCommand(span)
	return strings.HasPrefix(span, "trench ") || strings.Contains(span, "| trench ")
}

// tableCells splits a table row into its cells' text, "\|" read as a
// "|" inside a cell.
func tableCells(row string) []string {
	const bar = "\x00"
	row = strings.Trim(strings.ReplaceAll(row, `\|`, bar), "| ")
	cells := strings.Split(row, "|")
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(strings.TrimSpace(c), bar, "|")
	}
	return cells
}

// readmeCommands returns the README's command lines, normalized, in
// order and once each: every line of its code blocks, every code span of
// its tables that runs trench, and, in a column whose heading is a
// command ending in "...", every code span of its cells after that
// command.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	lines, blocks := readMarkdown(t, "README.md")
	var cmds []string
	seen := map[string]bool{}
	add := func(c string) {
		c = normalizeCommand(c)
		if !seen[c] {
			seen[c] = true
			cmds = append(cmds, c)
		}
	}
	for _, b := range blocks {
		for _, l := range b[1:] {
			if strings.TrimSpace(l) != "" {
				add(l)
			}
		}
	}
	var heads []string // the command heading each column of the table, or ""
	for _, l := range lines {
		if !strings.HasPrefix(l.text, "|") {
			heads = nil
			continue
		}
		cells := tableCells(l.text)
		if heads == nil {
			heads = make([]string, len(cells))
			for i, c := range cells {
				for _, span := range codeSpans(c) {
					if head, ok := strings.CutSuffix(span, " ..."); ok && isCommandSpan(head) {
						heads[i] = head
					}
				}
			}
			continue
		}
		for i, c := range cells {
			for _, span := range codeSpans(c) {
				switch {
				case i < len(heads) && heads[i] != "" && strings.HasPrefix(span, "-"):
					add(heads[i] + " " + span)
				case isCommandSpan(span):
					add(span)
				}
			}
		}
	}
	return cmds
}

// runs reports whether r runs the README line cmd.
func (r readmeRun) runs(cmd string) bool {
	return cmd == r.line || r.prefix && strings.HasPrefix(cmd, r.line)
}

// runs returns the entry of readmeRuns that runs cmd, or nil.
func runs(cmd string) *readmeRun {
	for i := range readmeRuns {
		if readmeRuns[i].runs(cmd) {
			return &readmeRuns[i]
		}
	}
	return nil
}

// TestREADMECommands runs every command line of the README that ends in
// seconds, with small limits added (readmeRuns), against runs made by its
// own lines, and fails when one exits with an error. A line it neither
// runs nor lists in readmeNotRun fails it too, under -short as well,
// which skips the runs.
func TestREADMECommands(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 20 {
		t.Fatalf("README.md: %d command lines; the reader found too few", len(cmds))
	}
	for _, c := range cmds {
		_, listed := readmeNotRun[c]
		if runs(c) == nil && !listed {
			t.Errorf("README line %q is neither run (readmeRuns) nor listed with a reason (readmeNotRun)", c)
		}
		if runs(c) != nil && listed {
			t.Errorf("README line %q is both run and listed as not run", c)
		}
	}
	for c := range readmeNotRun {
		if !slices.Contains(cmds, c) {
			t.Errorf("readmeNotRun has %q, which the README no longer has", c)
		}
	}
	for _, r := range readmeRuns {
		if !slices.ContainsFunc(cmds, r.runs) {
			t.Errorf("readmeRuns has %q, which the README no longer has", r.line)
		}
	}
	if t.Failed() {
		return
	}
	if testing.Short() {
		t.Skip("trains two short runs and runs every README command line: minutes")
	}
	dir, path := readmeFolder(t)
	for _, r := range readmeRuns {
		for _, c := range cmds {
			if !r.runs(c) {
				continue
			}
			ok := t.Run(c, func(t *testing.T) { runREADMELine(t, dir, path, c, r) })
			if !ok && r.makesRun {
				t.Fatalf("%q failed: the lines after it need its run", c)
			}
		}
	}
}

// readmeFolder makes the folder the README's lines run in, with the
// repository's docs in it, and a folder holding a trench command (this
// test binary, which runs the command: TestMain) for PATH; it returns
// the first and the PATH that starts with the second.
func readmeFolder(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	docs, err := filepath.Abs(filepath.Join(repoRoot, "docs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(docs, filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nTRENCH_TEST_MAIN=1 exec %q \"$@\"\n", self)
	if err := os.WriteFile(filepath.Join(bin, "trench"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// readmeTimeout bounds one README line's run.
const readmeTimeout = 5 * time.Minute

// runREADMELine runs the README line c as r says, by sh in dir, and
// fails if it exits with an error.
func runREADMELine(t *testing.T, dir, path, c string, r readmeRun) {
	script := c
	if r.shrink != nil {
		script = r.shrink(script)
	}
	if r.limits != "" {
		script += " " + r.limits
	}
	if r.serve {
		script = "exec " + script
	}
	ctx, cancel := context.WithTimeout(context.Background(), readmeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path)
	cmd.Stdin = strings.NewReader(r.stdin)
	cmd.WaitDelay = 10 * time.Second // for a pipeline's other end, left by a killed sh
	var out syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if r.serve {
		serveREADMELine(t, cmd, &out, script)
		return
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v after %s; its output ends:\n%s", script, err, time.Since(start).Round(time.Second), tail(out.String(), 20))
	}
	if !strings.Contains(out.String(), r.want) {
		t.Errorf("%s: the output lacks %q, which the README quotes:\n%s", script, r.want, tail(out.String(), 20))
	}
	t.Logf("%s: %s", script, time.Since(start).Round(100*time.Millisecond))
}

// servedAt is the line in which trench serve names its address.
var servedAt = regexp.MustCompile(`at (http://[^ ]+/)`)

// serveREADMELine starts a server, fetches the page at the address it
// names, interrupts it and fails unless it served the page and exited
// cleanly.
func serveREADMELine(t *testing.T, cmd *exec.Cmd, out *syncbuf.Buffer, script string) {
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	url := ""
	for url == "" {
		select {
		case err := <-exited:
			t.Fatalf("%s exited (%v) before naming its address; its output ends:\n%s", script, err, tail(out.String(), 20))
		case <-time.After(50 * time.Millisecond):
			if m := servedAt.FindStringSubmatch(out.String()); m != nil {
				url = m[1]
			}
		}
	}
	resp, err := http.Get(url)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s", resp.Status)
		}
	}
	if err != nil {
		t.Errorf("GET %s: %v", url, err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Errorf("%s, interrupted: %v; its output ends:\n%s", script, err, tail(out.String(), 20))
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
