package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's root, seen from this package's folder,
// where go test runs its tests.
const repoRoot = "../.."

// architectureDoc is the page that lays out the packages by layer.
const architectureDoc = "docs/architecture.md"

// hypotheticalPaths are paths docs/architecture.md names that do not
// exist by design, each with the reason.
var hypotheticalPaths = map[string]string{
	"engine/hex/":      "the rules of the game that \"Adding a game\" adds",
	"games/hex/hex.go": "the plug-in of the game that \"Adding a game\" adds",
}

// markdownLine is a line of a markdown page outside its fenced code
// blocks, with the heading of the section it is in.
type markdownLine struct {
	number  int
	section string
	text    string
}

// readMarkdown returns the lines of the page at path (from the
// repository's root) outside fenced code blocks, and the fenced blocks
// themselves, each with its info string (e.g. "diff") as its first line.
func readMarkdown(t *testing.T, path string) ([]markdownLine, [][]string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	var lines []markdownLine
	var blocks [][]string
	var block []string
	section := ""
	for i, text := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasPrefix(text, "```") && block == nil:
			block = []string{strings.TrimPrefix(text, "```")}
		case strings.HasPrefix(text, "```"):
			blocks = append(blocks, block)
			block = nil
		case block != nil:
			block = append(block, text)
		default:
			if strings.HasPrefix(text, "## ") {
				section = strings.TrimPrefix(text, "## ")
			}
			lines = append(lines, markdownLine{i + 1, section, text})
		}
	}
	return lines, blocks
}

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	linkDest = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// codeSpans returns the text of the inline code spans of a line.
func codeSpans(text string) []string {
	var spans []string
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		spans = append(spans, m[1])
	}
	return spans
}

// isRepoPath reports whether a code span names a path in the
// repository: a single word with no option or spec syntax whose first
// element is a folder or file at the root, or a path with a folder and a
// source or page file's extension.
func isRepoPath(span string) bool {
	if span == "" || strings.ContainsAny(span, " =:*…,()") || strings.HasPrefix(span, "-") || strings.HasPrefix(span, ".") {
		return false
	}
	first, _, nested := strings.Cut(span, "/")
	if _, err := os.Stat(filepath.Join(repoRoot, first)); err == nil {
		return true
	}
	switch filepath.Ext(span) {
	case ".go", ".s", ".md", ".txt", ".js", ".nnue", ".tnet":
		return nested
	}
	return false
}

// TestArchitecturePaths checks that every path docs/architecture.md
// names, in code spans and links, exists.
func TestArchitecturePaths(t *testing.T) {
	lines, _ := readMarkdown(t, architectureDoc)
	named := 0
	for _, l := range lines {
		for _, span := range codeSpans(l.text) {
			if !isRepoPath(span) {
				continue
			}
			named++
			if _, ok := hypotheticalPaths[span]; ok {
				continue
			}
			if _, err := os.Stat(filepath.Join(repoRoot, span)); err != nil {
				t.Errorf("%s:%d: `%s` does not exist", architectureDoc, l.number, span)
			}
		}
		for _, m := range linkDest.FindAllStringSubmatch(l.text, -1) {
			dest, _, _ := strings.Cut(m[1], "#")
			if dest == "" || strings.Contains(dest, "://") {
				continue
			}
			named++
			if _, err := os.Stat(filepath.Join(repoRoot, filepath.Dir(architectureDoc), dest)); err != nil {
				t.Errorf("%s:%d: link to %s: no such file", architectureDoc, l.number, dest)
			}
		}
	}
	if named < 100 {
		t.Errorf("%s names %d paths; the reader found too few", architectureDoc, named)
	}
}

// layer is a section of docs/architecture.md with a table of packages:
// its heading and its packages, by path from the repository's root.
type layer struct {
	section  string
	packages []string
}

// packageLayers returns the sections of docs/architecture.md that list
// packages in a table ("| package | what it does |"), in the page's
// order, and where each package is listed.
func packageLayers(t *testing.T) ([]layer, map[string]int) {
	t.Helper()
	lines, _ := readMarkdown(t, architectureDoc)
	var layers []layer
	where := map[string]int{}
	inTable := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l.text, "| package |"):
			inTable = true
			layers = append(layers, layer{section: l.section})
		case !strings.HasPrefix(l.text, "|"):
			inTable = false
		case inTable && !strings.HasPrefix(l.text, "|---"):
			cells := strings.Split(l.text, "|")
			for _, p := range codeSpans(cells[1]) {
				if i, ok := where[p]; ok {
					t.Errorf("%s:%d: %s is listed again (first under %q)", architectureDoc, l.number, p, layers[i].section)
				}
				where[p] = len(layers) - 1
				layers[len(layers)-1].packages = append(layers[len(layers)-1].packages, p)
			}
		}
	}
	return layers, where
}

// goPackage is what go list -json says of a package that this test reads.
type goPackage struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
}

// modulePackages returns the module's packages, by path from the
// repository's root, and each one's imports of the module's packages
// (test files left out).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		prefix := p.Module.Path + "/"
		var imports []string
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, prefix); ok {
				imports = append(imports, rel)
			}
		}
		pkgs[strings.TrimPrefix(p.ImportPath, prefix)] = imports
	}
	return pkgs
}

// floor is where a package stands: its table's index, except that the
// supporting code under internal/, listed last to be skipped on a first
// read, stands below every layer.
func floor(pkg string, where map[string]int) int {
	if strings.HasPrefix(pkg, "internal/") {
		return -1
	}
	return where[pkg]
}

// TestArchitectureLayers checks docs/architecture.md's tables of
// packages against the code: every package of the module is listed once,
// every package listed exists, and no package imports one listed in a
// later table.
func TestArchitectureLayers(t *testing.T) {
	layers, where := packageLayers(t)
	pkgs := modulePackages(t)
	if len(layers) < 5 {
		t.Fatalf("%s: %d tables of packages; the reader found too few", architectureDoc, len(layers))
	}
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if _, ok := where[p]; !ok {
			t.Errorf("package %s is in none of %s's tables", p, architectureDoc)
		}
	}
	for p, i := range where {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("%s lists %s under %q, but there is no such package", architectureDoc, p, layers[i].section)
		}
	}
	for _, p := range names {
		for _, imp := range pkgs[p] {
			if _, ok := where[imp]; ok && floor(imp, where) > floor(p, where) {
				t.Errorf("%s (%q) → %s (%q): an import of a later layer", p, layers[where[p]].section, imp, layers[where[imp]].section)
			}
		}
	}
}

// TestArchitectureSettingDiff checks that the diff of "Adding a search
// setting" applies to today's code: the lines each of its hunks keeps or
// removes follow one another in its file.
func TestArchitectureSettingDiff(t *testing.T) {
	_, blocks := readMarkdown(t, architectureDoc)
	hunks := 0
	for _, b := range blocks {
		if b[0] != "diff" {
			continue
		}
		file := ""
		var old []string
		check := func() {
			if file == "" {
				return
			}
			hunks++
			raw, err := os.ReadFile(filepath.Join(repoRoot, file))
			if err != nil {
				t.Error(err)
				return
			}
			if !containsLines(string(raw), old) {
				t.Errorf("%s's diff does not apply to %s: these lines are not there in a row:\n%s", architectureDoc, file, strings.Join(old, "\n"))
			}
		}
		for _, line := range b[1:] {
			switch {
			case strings.HasPrefix(line, "--- a/"):
				check()
				file, old = strings.TrimPrefix(line, "--- a/"), nil
			case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "+"):
			case strings.HasPrefix(line, " "), strings.HasPrefix(line, "-"):
				old = append(old, line[1:])
			}
		}
		check()
	}
	if hunks == 0 {
		t.Fatalf("%s has no diff", architectureDoc)
	}
}

// containsLines reports whether text has the lines want one after
// another.
func containsLines(text string, want []string) bool {
	lines := strings.Split(text, "\n")
	for i := 0; i+len(want) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(want)], want) {
			return true
		}
	}
	return false
}
