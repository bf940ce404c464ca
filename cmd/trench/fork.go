package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"trench/training/generations"
	"trench/training/rundir"
)

var forkCommand = command{
	name:    "fork",
	summary: "branch an NNUE run at a generation, with settings changed from there on",
	usage:   helpText("fork"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		from := fs.String("from", "", "the run directory of trench train --preset nnue to branch")
		gen := fs.Int("generation", -1, "the generation the branch trains anew: the run as it stood once this generation's games were played")
		dir := fs.String("run", "", "the new run directory, the branch")
		sets := fs.StringArray("set", nil, "KEY=VALUE: a setting of the branch, by its key in the run's nnue.json (the flag's name of trench train --preset nnue), the value in JSON or a plain string; repeat for more")
		return func(_ []string, stdout, stderr io.Writer) error {
			if *from == "" || *dir == "" || !fs.Changed("generation") {
				return usage("--from, --generation and --run are required")
			}
			set := map[string]string{}
			for _, s := range *sets {
				k, v, ok := strings.Cut(s, "=")
				if !ok || k == "" {
					return usage("--set %q: want KEY=VALUE", s)
				}
				if _, dup := set[k]; dup {
					return usage("--set %s given twice", k)
				}
				set[k] = v
			}
			kind, err := rundir.Holds(*from)
			if err != nil && !errors.Is(err, rundir.ErrNotRun) {
				return usage("--from: %w", err)
			}
			if kind != rundir.NNUE {
				return usage("--from %s is not a run of trench train --preset nnue", *from)
			}
			if same, err := rundir.SameDir(*from, *dir); err != nil {
				return err
			} else if same {
				return usage("--from and --run name %s: a branch needs a directory of its own", *from)
			}
			src, err := rundir.Lock(*from)
			if err != nil {
				return err
			}
			defer src.Release()
			dst, err := rundir.Lock(*dir)
			if err != nil {
				return err
			}
			defer dst.Release()
			res, err := generations.Fork(*from, *dir, *gen, set)
			if err != nil {
				return usage("%w", err)
			}
			keys := make([]string, 0, len(set))
			for k := range set {
				keys = append(keys, k+" "+set[k])
			}
			slices.Sort(keys)
			changed := "the run's settings"
			if len(keys) > 0 {
				changed = strings.Join(keys, ", ")
			}
			fmt.Fprintf(stdout, "%s is a branch of %s at generation %d (%.2f hours): %d shards, %d positions shared\n", *dir, *from, *gen, res.Elapsed/3600, res.Shards, res.Positions)
			fmt.Fprintf(stdout, "trench train --run %s trains generation %d anew, then goes on, with %s\n", *dir, *gen, changed)
			return nil
		}
	},
}
