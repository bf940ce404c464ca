package rundir

import (
	"os"
	"path/filepath"
)

// RemoveTemporary removes the temporary files of atomic writes
// (internal/atomicfile's ".tmp-" files) that a killed process left in
// the run directory dir and in its folders named. The caller holds the
// run's lock, and names only folders no other process writes into.
func RemoveTemporary(dir string, folders ...string) error {
	for _, sub := range append([]string{""}, folders...) {
		tmps, err := filepath.Glob(filepath.Join(dir, sub, ".tmp-*"))
		if err != nil {
			return err
		}
		for _, tmp := range tmps {
			if err := os.Remove(tmp); err != nil {
				return err
			}
		}
	}
	return nil
}
