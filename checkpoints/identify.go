package checkpoints

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"trench/internal/excerpt"
)

// NNUEMagic opens every file of an efficiently updatable net (package
// nnue), as Magic opens every checkpoint of a conv net.
const NNUEMagic = "TRNCHNUE"

// The layout of a run directory of the NNUE's generation loop: its nets
// in NNUENetsDir, one JSON line a generation in NNUEMetricsFile, its
// config in NNUEConfigFile. A run of the conv net's loop keeps its
// checkpoints in Subdir. Either has RunMarkerFile, a JSON object whose
// "kind" is "nnue" or "conv" (package training/rundir writes it and
// reads it with the game; Identify reads the kind alone).
const (
	NNUENetsDir     = "nets"
	NNUEMetricsFile = "metrics.jsonl"
	NNUEConfigFile  = "nnue.json"
	RunMarkerFile   = "run.json"
)

// Holds is what a path to a net names: a net file or a run directory, of
// the conv net (the tree search's) or of the NNUE (alpha-beta's).
type Holds int

// The things a net reference can name.
const (
	// ConvFile is a checkpoint file of a conv net.
	ConvFile Holds = iota + 1
	// ConvRun is a run directory of the conv net's loop (checkpoints in
	// Subdir).
	ConvRun
	// NNUEFile is a file of an efficiently updatable net.
	NNUEFile
	// NNUERun is a run directory of the NNUE's generation loop.
	NNUERun
)

// String names h for people, e.g. "an NNUE run directory".
func (h Holds) String() string {
	switch h {
	case ConvFile:
		return "a conv-net checkpoint file"
	case ConvRun:
		return "a conv-net run directory"
	case NNUEFile:
		return "an NNUE net file"
	case NNUERun:
		return "an NNUE run directory"
	}
	return fmt.Sprintf("Holds(%d)", int(h))
}

// NNUE reports whether h holds an efficiently updatable net.
func (h Holds) NNUE() bool { return h == NNUEFile || h == NNUERun }

// Conv reports whether h holds a conv net.
func (h Holds) Conv() bool { return h == ConvFile || h == ConvRun }

// Identify tells what the path ref names (the built-in nets, shipped.Ref,
// are the caller's to tell), by a file's first bytes and a directory's
// marker or layout, without loading a net: a run directory says its kind
// in RunMarkerFile; one made before markers is an NNUE run when it has
// NNUEConfigFile or NNUENetsDir, a conv-net run when it has Subdir. Its
// errors name ref: a path that does not exist, a file of neither kind, a
// directory that is no run of either loop.
func Identify(ref string) (Holds, error) {
	q := excerpt.Quote(ref)
	fi, err := os.Stat(ref)
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Errorf("net %s: no such net file or run directory", q)
	case errors.As(err, &pathErr):
		return 0, fmt.Errorf("net %s: %w", q, pathErr.Err)
	case err != nil:
		return 0, fmt.Errorf("net %s: %w", q, err)
	case fi.IsDir():
		return identifyRun(ref)
	}
	f, err := os.Open(ref)
	if err != nil {
		return 0, fmt.Errorf("net %s: %w", q, errors.Unwrap(err))
	}
	defer f.Close()
	magic := make([]byte, len(Magic))
	if _, err := io.ReadFull(f, magic); err != nil {
		return 0, fmt.Errorf("net %s: %d bytes, too short for a net file", q, fi.Size())
	}
	switch string(magic) {
	case Magic:
		return ConvFile, nil
	case NNUEMagic:
		return NNUEFile, nil
	}
	return 0, fmt.Errorf("net %s: neither a conv-net checkpoint (%q) nor an NNUE net file (%q)", q, Magic, NNUEMagic)
}

// identifyRun tells the kind of the run directory dir.
func identifyRun(dir string) (Holds, error) {
	q := excerpt.Quote(dir)
	raw, err := os.ReadFile(filepath.Join(dir, RunMarkerFile))
	if err == nil {
		var m struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return 0, fmt.Errorf("net %s: a corrupt %s: %w", q, RunMarkerFile, err)
		}
		switch m.Kind {
		case "nnue":
			return NNUERun, nil
		case "conv":
			return ConvRun, nil
		}
		return 0, fmt.Errorf("net %s: %s names the run kind %q, neither \"nnue\" nor \"conv\"", q, RunMarkerFile, m.Kind)
	}
	if exists(filepath.Join(dir, NNUEConfigFile)) || exists(filepath.Join(dir, NNUENetsDir)) {
		return NNUERun, nil
	}
	if exists(filepath.Join(dir, Subdir)) {
		return ConvRun, nil
	}
	return 0, fmt.Errorf("net %s: a directory that is no run directory (no %s, no %s or %s of an NNUE run, no %s of a conv-net run)",
		q, RunMarkerFile, NNUEConfigFile, NNUENetsDir, Subdir)
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
