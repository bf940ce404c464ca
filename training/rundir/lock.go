package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// lockFile is the file in a run directory that its trainer holds locked.
const lockFile = "train.lock"

// errHeld is tryLock's error when another process holds the lock.
var errHeld = errors.New("lock held by another process")

// ErrLocked is wrapped by Lock's error when another process holds the
// run directory.
var ErrLocked = errors.New("is in use")

// Hold is a process's hold on a run directory, so that one trainer at a
// time writes its nets and metrics. It is an advisory lock (flock) on
// the directory's train.lock, which holds the owner's pid; the kernel
// releases it when the process ends, however it ends.
type Hold struct {
	f *os.File
}

// Lock creates the run directory if needed and locks it. If another
// process holds it, the error wraps ErrLocked and names the directory and
// the holder's pid.
func Lock(dir string) (*Hold, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errHeld) {
			return nil, fmt.Errorf("run directory %s %w by another trainer (%s); stop it first, or give another --run", dir, ErrLocked, holder(path))
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(pid, 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &Hold{f: f}, nil
}

// holder describes the process holding the lock file at path by the pid
// it wrote, waiting briefly for a holder that has just taken the lock.
func holder(path string) string {
	for try := 0; try < 10; try++ {
		data, _ := os.ReadFile(path)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			return fmt.Sprintf("pid %d", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "pid unknown"
}

// Release unlocks the run directory. The lock file stays: removing it
// could let two processes lock two different files.
func (l *Hold) Release() error {
	return l.f.Close()
}
