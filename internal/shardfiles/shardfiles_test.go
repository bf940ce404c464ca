package shardfiles

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadNew(t *testing.T) {
	dir := t.TempDir()
	write := func(names ...string) {
		t.Helper()
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("shard-2.x", "shard-1.x", "shard-3.y", "other.x", "shard-bad.x")
	if err := os.Mkdir(filepath.Join(dir, "shard-dir.x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if names, err := Names(dir, ".x"); err != nil || !slices.Equal(names, []string{"shard-1.x", "shard-2.x", "shard-bad.x"}) {
		t.Fatalf("Names = %q, %v", names, err)
	}

	seen := map[string]bool{}
	var warn strings.Builder
	load := func(name string) (string, error) {
		if strings.Contains(name, "bad") {
			return "", errors.New("bad " + name)
		}
		return name, nil
	}
	got, err := LoadNew(dir, ".x", seen, &warn, load)
	if err != nil || !slices.Equal(got, []string{"shard-1.x", "shard-2.x"}) {
		t.Fatalf("first LoadNew = %q, %v", got, err)
	}
	if warn.String() != "warning: skipping shard: bad shard-bad.x\n" {
		t.Errorf("warnings %q", warn.String())
	}
	write("shard-0.x")
	warn.Reset()
	if got, err := LoadNew(dir, ".x", seen, &warn, load); err != nil || !slices.Equal(got, []string{"shard-0.x"}) || warn.Len() != 0 {
		t.Fatalf("second LoadNew = %q, %v, warnings %q; want the new shard alone", got, err, warn.String())
	}
	if _, err := LoadNew(filepath.Join(dir, "missing"), ".x", seen, &warn, load); err == nil {
		t.Error("LoadNew of a missing directory: no error")
	}
}
