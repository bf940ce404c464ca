package plugin

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"trench/internal/excerpt"
	"trench/internal/textline"
)

// Perft is how trench perft counts a game's move sequences: with the
// game's fast concrete position type rather than the engine contract, so
// that counts are quick, and with any reference file format of its own.
type Perft struct {
	// Start is the start position's string.
	Start string
	// Parse reads a position string.
	Parse func(text string) (PerftPosition, error)
	// IsReference and CheckReference read the game's reference move
	// files, if it has any (else both are nil): CheckReference returns ""
	// when the rules agree with the line and otherwise the difference.
	IsReference    func(line string) bool
	CheckReference func(line string) (string, error)
}

// PerftPosition counts move sequences from one position.
type PerftPosition interface {
	// Perft is the number of move sequences of depth plies.
	Perft(depth int) uint64
	// Divide is the count below each move, at depth plies in all.
	Divide(depth int) []DivideLine
}

// DivideLine is one root move's count.
type DivideLine struct {
	Move  string
	Nodes uint64
}

// Divide returns the count below each of a position's moves, at depth
// plies in all (none when depth < 1): below(m) counts the move sequences
// of depth-1 plies after m.
func Divide[M fmt.Stringer](depth int, moves []M, below func(m M) uint64) []DivideLine {
	if depth < 1 {
		return nil
	}
	out := make([]DivideLine, 0, len(moves))
	for _, m := range moves {
		out = append(out, DivideLine{Move: m.String(), Nodes: below(m)})
	}
	return out
}

// Count writes "perft d N" for each depth d from 1 to depth, counting from
// p; with divide it first writes the count below each root move at depth
// and their total.
func Count(out io.Writer, p PerftPosition, depth int, divide bool) {
	if divide {
		var total uint64
		for _, e := range p.Divide(depth) {
			fmt.Fprintf(out, "%s %d\n", e.Move, e.Nodes)
			total += e.Nodes
		}
		fmt.Fprintf(out, "total %d\n", total)
	}
	for d := 1; d <= depth; d++ {
		fmt.Fprintf(out, "perft %d %d\n", d, p.Perft(d))
	}
}

// CheckFile checks every line of a perft file read from r, called name in
// messages: "position;n1;n2;..." lines (the counts at depths 1, 2, ...)
// and the game's reference lines; blank lines and # comments are skipped.
// It writes a FAIL line for each line that does not agree and a closing
// "N passed, M failed", and returns the two counts. A line it cannot read
// is an error naming the file and line, and ends the check.
func (pf *Perft) CheckFile(r io.Reader, name string, out io.Writer) (passed, failed int, err error) {
	br := bufio.NewReader(r)
	for lineNo := 1; ; lineNo++ {
		line, err := textline.Read(br, textline.Max)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return passed, failed, fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ok, err := pf.checkLine(line, fmt.Sprintf("%s:%d", name, lineNo), out)
		if err != nil {
			return passed, failed, fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	return passed, failed, nil
}

// checkLine checks one line of a perft file, found at where, and writes
// what disagrees.
func (pf *Perft) checkLine(line, where string, out io.Writer) (bool, error) {
	if pf.IsReference != nil && pf.IsReference(line) {
		diff, err := pf.CheckReference(line)
		if err != nil {
			return false, err
		}
		if diff != "" {
			fmt.Fprintf(out, "FAIL %s: %s\n", where, diff)
		}
		return diff == "", nil
	}
	fields := strings.Split(line, ";")
	if len(fields) < 2 {
		return false, fmt.Errorf("want \"position;n1;n2;...\", got %s", excerpt.Quote(line))
	}
	p, err := pf.Parse(fields[0])
	if err != nil {
		return false, err
	}
	ok := true
	for i, field := range fields[1:] {
		want, err := strconv.ParseUint(strings.TrimSpace(field), 10, 64)
		if err != nil {
			return false, fmt.Errorf("count %d, %s, is not a whole number", i+1, excerpt.Quote(field))
		}
		if got := p.Perft(i + 1); got != want {
			fmt.Fprintf(out, "FAIL %s %s depth %d: expected %d, found %d\n", where, fields[0], i+1, want, got)
			ok = false
		}
	}
	return ok, nil
}
