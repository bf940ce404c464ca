package checkpoints

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Subdir is the folder of a run directory that holds its checkpoints.
const Subdir = "checkpoints"

// Ext is the file extension of checkpoint files.
const Ext = ".tnet"

// FileName is the name of the checkpoint taken at step, such as
// "ckpt-000123.tnet".
func FileName(step uint64) string { return fmt.Sprintf("ckpt-%06d%s", step, Ext) }

// StepOf returns the step of a checkpoint file name made by FileName.
func StepOf(name string) (uint64, bool) { return parseStep(name) }

// parseStep returns the step of a checkpoint file name made by FileName.
func parseStep(name string) (uint64, bool) {
	digits, ok := strings.CutPrefix(name, "ckpt-")
	if !ok {
		return 0, false
	}
	digits, ok = strings.CutSuffix(digits, Ext)
	if !ok || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	step, err := strconv.ParseUint(digits, 10, 64)
	return step, err == nil
}

// List returns the paths of a run directory's checkpoints in order of
// step, oldest first. A run without a checkpoints folder has none.
func List(runDir string) ([]string, error) {
	dir := filepath.Join(runDir, Subdir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	type item struct {
		step uint64
		path string
	}
	var items []item
	for _, e := range entries {
		if step, ok := parseStep(e.Name()); ok && e.Type().IsRegular() {
			items = append(items, item{step, filepath.Join(dir, e.Name())})
		}
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].step != items[j].step {
			return items[i].step < items[j].step
		}
		return items[i].path < items[j].path
	})
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.path
	}
	return out, nil
}

// Latest returns the path of the run's checkpoint with the highest step,
// or an error wrapping ErrNone.
func Latest(runDir string) (string, error) {
	paths, err := List(runDir)
	if err != nil {
		return "", err
	}
	if len(paths) == 0 {
		return "", fmt.Errorf("%s: %w in %s", runDir, ErrNone, filepath.Join(runDir, Subdir))
	}
	return paths[len(paths)-1], nil
}

// Resolve turns a checkpoint reference into a path: "latest" is the run's
// newest checkpoint, a bare file name is looked up in the run's checkpoints
// folder, and anything else is taken as a path.
func Resolve(runDir, ref string) (string, error) {
	switch {
	case ref == "latest":
		return Latest(runDir)
	case !strings.ContainsRune(ref, filepath.Separator) && filepath.Ext(ref) == Ext:
		return filepath.Join(runDir, Subdir, ref), nil
	}
	return ref, nil
}

// SaveToRun writes c as the run's checkpoint for c.Step, creating the
// checkpoints folder if needed, and returns its path.
func SaveToRun(runDir string, c *Checkpoint) (string, error) {
	dir := filepath.Join(runDir, Subdir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName(c.Step))
	return path, c.Save(path)
}

// Unloadable is a checkpoint file that did not load, with the error
// saying why (it names the file).
type Unloadable struct {
	Path string
	Err  error
}

// LoadNewest loads the run's newest checkpoint that loads and passes
// check (which may be nil), passing over newer ones that do not. It
// returns the checkpoint and the files passed over, newest first. If no
// checkpoint loads, the error is the newest one's; without any, it wraps
// ErrNone.
func LoadNewest(runDir string, check func(*Checkpoint) error) (*Checkpoint, []Unloadable, error) {
	paths, err := List(runDir)
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("%s: %w in its %s directory", runDir, ErrNone, Subdir)
	}
	var passed []Unloadable
	for i := len(paths) - 1; i >= 0; i-- {
		c, err := Load(paths[i])
		if err == nil && check != nil {
			err = check(c)
		}
		if err == nil {
			return c, passed, nil
		}
		passed = append(passed, Unloadable{paths[i], err})
	}
	return nil, passed, passed[0].Err
}

// Damaged tells whether err reports a damaged checkpoint file (bad
// magic, truncated, checksum, malformed or misshapen contents), as
// opposed to one this program cannot read for another reason: a newer
// format version, or a file it may not open.
func Damaged(err error) bool {
	for _, e := range []error{ErrMagic, ErrTruncated, ErrChecksum, ErrCorrupt, ErrShape} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// MoveAside renames a damaged checkpoint file out of the run's list
// (PATH.bad, or PATH.bad-N if that is taken), never deleting it, and
// returns its new path.
func MoveAside(path string) (string, error) {
	to := path + ".bad"
	for n := 2; ; n++ {
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			break
		}
		to = fmt.Sprintf("%s.bad-%d", path, n)
	}
	if err := os.Rename(path, to); err != nil {
		return "", err
	}
	return to, nil
}
