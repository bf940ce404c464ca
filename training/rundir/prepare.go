package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"trench/internal/atomicfile"
	"trench/internal/presetflags"
)

// ErrConflict is wrapped by Prepare's error about a setting that differs
// from the one the run was started with.
var ErrConflict = errors.New("conflicts with the run's saved config")

// ErrOtherKind is wrapped by Prepare's error for a run directory that
// holds a run of the other loop.
var ErrOtherKind = errors.New("holds another kind of run")

// Loop is how a training loop keeps its runs: what they are, where
// their config is saved, and which of its settings a run may change
// when it resumes.
type Loop[C any] struct {
	// Kind is the loop's kind of run.
	Kind Kind
	// ConfigFile is the saved config's name in the run directory;
	// Folders are the folders a new run starts with.
	ConfigFile string
	Folders    []string
	// Game names a config's game, for the marker.
	Game func(C) string
	// Decode reads a saved config, giving the settings it lacks (added
	// since the run started) their defaults.
	Decode func(raw []byte) (C, error)
	// Check reports a config's first unusable setting. CheckNew, if
	// set, checks a new run's config further (e.g. a file it names).
	Check, CheckNew func(C) error
	// Mutable tells the settings, by flag name, that a resumed run may
	// change: those that do not change what is learned.
	Mutable func(flag string) bool
}

// Prepare creates the run directory dir with config c, or resumes the
// run it holds. A new run (dir holds no run, or one killed before its
// config was saved) gets its folders, its config and its marker, once c
// is checked. A resumed run's saved config is returned, with the
// settings named in changed (flag names) taken from c: a changed setting
// that differs from the saved one and is not Mutable is an error
// wrapping ErrConflict. A run made before markers gets its marker. A
// run of the other loop is an error wrapping ErrOtherKind; every error
// names the path at fault.
func (l *Loop[C]) Prepare(dir string, c C, changed []string) (C, error) {
	var zero C
	m, err := Read(dir)
	switch {
	case err == nil && m.Kind != l.Kind:
		return zero, fmt.Errorf("run directory %s %w: it holds %v, not %v; give another --run", dir, ErrOtherKind, m.Kind, l.Kind)
	case err != nil && !errors.Is(err, ErrNotRun) && !errors.Is(err, fs.ErrNotExist):
		return zero, err
	}
	path := filepath.Join(dir, l.ConfigFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, l.create(dir, c)
	}
	if err != nil {
		return zero, err
	}
	saved, err := l.Decode(raw)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	var conflict *presetflags.Conflict
	updated, err := presetflags.Resume(&saved, c, changed, l.Mutable)
	if errors.As(err, &conflict) {
		return zero, fmt.Errorf("--%s %v %w (%s has %v): drop the flag to resume, or start a new --run", conflict.Flag, conflict.Given, ErrConflict, path, conflict.Saved)
	}
	if err != nil {
		return zero, err
	}
	if err := l.Check(saved); err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	if updated {
		if err := saveJSON(path, saved); err != nil {
			return zero, err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, MarkerFile)); errors.Is(err, fs.ErrNotExist) {
		return saved, Mark(dir, Marker{Kind: l.Kind, Game: l.Game(saved)})
	}
	return saved, nil
}

// Load reads the saved config of the run in dir, which must be a run of
// this loop; its errors name dir.
func (l *Loop[C]) Load(dir string) (C, error) {
	var zero C
	k, err := Holds(dir)
	switch {
	case err != nil:
		return zero, err
	case k != l.Kind:
		return zero, fmt.Errorf("run directory %s %w: it holds %v, not %v", dir, ErrOtherKind, k, l.Kind)
	}
	path := filepath.Join(dir, l.ConfigFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		return zero, err
	}
	saved, err := l.Decode(raw)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	if err := l.Check(saved); err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return saved, nil
}

// create checks c and makes a new run of it in dir: its folders, its
// config, then its marker.
func (l *Loop[C]) create(dir string, c C) error {
	if err := l.Check(c); err != nil {
		return err
	}
	if l.CheckNew != nil {
		if err := l.CheckNew(c); err != nil {
			return err
		}
	}
	for _, sub := range append([]string{""}, l.Folders...) {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := saveJSON(filepath.Join(dir, l.ConfigFile), c); err != nil {
		return err
	}
	return Mark(dir, Marker{Kind: l.Kind, Game: l.Game(c)})
}

// saveJSON writes v to path as indented JSON, atomically.
func saveJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}
