//go:build !unix && !windows

package rundir

import (
	"fmt"
	"os"
	"runtime"
)

// tryLock fails: this system offers no file lock the trainer can rely on.
func tryLock(f *os.File) error {
	return fmt.Errorf("locking %s: file locks are not supported on %s", f.Name(), runtime.GOOS)
}
