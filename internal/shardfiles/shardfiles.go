// Package shardfiles reads directories of shard files, named
// "shard-…" so that their names sort by creation time: it lists them,
// and takes up the shards a directory gains, each once.
package shardfiles

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Names lists the shard files of dir whose names end in suffix, oldest
// first.
func Names(dir, suffix string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), "shard-") && strings.HasSuffix(e.Name(), suffix) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// LoadNew calls load, oldest first, on each shard file of dir ending in
// suffix that seen does not hold, and adds its name to seen. A shard
// that load fails on is skipped with a warning to warn, and not tried
// again. It returns the shards loaded.
func LoadNew[S any](dir, suffix string, seen map[string]bool, warn io.Writer, load func(name string) (S, error)) ([]S, error) {
	names, err := Names(dir, suffix)
	if err != nil {
		return nil, fmt.Errorf("reading shard directory: %w", err)
	}
	var loaded []S
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		s, err := load(name)
		if err != nil {
			fmt.Fprintf(warn, "warning: skipping shard: %v\n", err)
			continue
		}
		loaded = append(loaded, s)
	}
	return loaded, nil
}
