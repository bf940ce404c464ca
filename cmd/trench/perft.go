package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trench/engine/trench"
)

var perftCommand = command{
	name:    "perft",
	summary: "count move sequences to check the rules engine",
	usage: `Usage:
  trench perft [--fen POSITION] --depth D [--divide]
  trench perft --file FILE

With --depth, prints "perft d N" for each depth d from 1 to D. With --divide,
prints the count below each root move at depth D first. With --file, checks
every line "position;n1;n2;n3" of FILE (blank lines and # comments skipped),
prints each mismatch, and ends with "N passed, M failed"; the exit code is 1
if any failed and 2 if the file cannot be read.

Examples:
  trench perft --depth 5
  trench perft --fen "4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 0 1" --depth 3 --divide
  trench perft --file ../shared/perft-positions.txt
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		fen := fs.String("fen", trench.StartFEN, "the position to count from")
		depth := fs.Int("depth", 0, "count to this depth (1 or more)")
		divide := fs.Bool("divide", false, "print the count below each root move")
		file := fs.String("file", "", "check the counts listed in this file")
		return func(args []string, stdout, _ io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %q", args[0])}
			}
			if *file != "" {
				if fs.Changed("depth") || fs.Changed("fen") || *divide {
					return &exitError{2, errors.New("--file checks the depths listed in the file: drop --depth, --fen and --divide")}
				}
				return perftFile(*file, stdout)
			}
			if *depth < 1 {
				return &exitError{2, fmt.Errorf("--depth must be 1 or more, got %d", *depth)}
			}
			p, err := trench.ParseFEN(*fen)
			if err != nil {
				return &exitError{2, fmt.Errorf("--fen: %w", err)}
			}
			if *divide {
				var total uint64
				for _, e := range trench.Divide(&p, *depth) {
					fmt.Fprintf(stdout, "%s %d\n", e.Move, e.Nodes)
					total += e.Nodes
				}
				fmt.Fprintf(stdout, "total %d\n", total)
			}
			for d := 1; d <= *depth; d++ {
				fmt.Fprintf(stdout, "perft %d %d\n", d, trench.Perft(&p, d))
			}
			return nil
		}
	},
}

// perftFile checks every line of a perft file.
func perftFile(name string, stdout io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return &exitError{2, err}
	}
	defer f.Close()
	passed, failed := 0, 0
	sc := bufio.NewScanner(f)
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, ";")
		if len(fields) < 2 {
			return &exitError{2, fmt.Errorf("%s:%d: want \"position;n1;n2;...\", got %q", name, lineNo, line)}
		}
		p, err := trench.ParseFEN(fields[0])
		if err != nil {
			return &exitError{2, fmt.Errorf("%s:%d: %w", name, lineNo, err)}
		}
		ok := true
		for i, field := range fields[1:] {
			want, err := strconv.ParseUint(strings.TrimSpace(field), 10, 64)
			if err != nil {
				return &exitError{2, fmt.Errorf("%s:%d: count %d, %q, is not a whole number", name, lineNo, i+1, field)}
			}
			if got := trench.Perft(&p, i+1); got != want {
				fmt.Fprintf(stdout, "FAIL %s:%d %s depth %d: expected %d, found %d\n", name, lineNo, fields[0], i+1, want, got)
				ok = false
			}
		}
		if ok {
			passed++
		} else {
			failed++
		}
	}
	if err := sc.Err(); err != nil {
		return &exitError{2, fmt.Errorf("%s: %w", name, err)}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return &exitError{1, fmt.Errorf("%d of %d positions failed", failed, passed+failed)}
	}
	return nil
}
