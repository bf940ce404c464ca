// Package rundir is the run directory both training loops share: what it
// holds (its marker file, or for a run made before markers its layout),
// the lock of the process running it, its creation or resumption with a
// saved config, its metrics file of JSON lines, and the temporary files
// a killed process leaves.
//
// Every run directory holds:
//
//	run.json        the marker: {"kind": "nnue" or "conv", "game": ...}
//	metrics.jsonl   one JSON line per checkpoint or generation
//	train.lock      locked by the process running the run
//
// and its loop's own files: training's config.json, checkpoints/ and
// datasets/ for a conv-net run; training/generations' nnue.json, nets/
// and data/ for an NNUE run.
package rundir

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"trench/checkpoints"
	"trench/internal/atomicfile"
)

// Kind is what a run directory holds.
type Kind string

// The kinds of run.
const (
	// NNUE is a run of the NNUE's generation loop (training/generations):
	// alpha-beta's nets, one a generation, in nets/.
	NNUE Kind = "nnue"
	// Conv is a run of the AlphaZero loop (training): the conv net's
	// checkpoints in checkpoints/.
	Conv Kind = "conv"
)

// String is the kind as people say it: "an NNUE run", "a conv-net run".
func (k Kind) String() string {
	switch k {
	case NNUE:
		return "an NNUE run"
	case Conv:
		return "a conv-net run"
	}
	return fmt.Sprintf("a run of unknown kind %q", string(k))
}

// The files and folders that tell a run's kind.
const (
	// MarkerFile is the marker a run directory is created with.
	MarkerFile = checkpoints.RunMarkerFile
	// MetricsFile is a run's metrics: one JSON line per checkpoint (a
	// conv-net run) or generation (an NNUE run).
	MetricsFile = checkpoints.NNUEMetricsFile
	// NetsDir is an NNUE run's folder of nets.
	NetsDir = checkpoints.NNUENetsDir
	// CheckpointsDir is a conv-net run's folder of checkpoints.
	CheckpointsDir = checkpoints.Subdir
	// NNUEConfigFile and ConvConfigFile are the loops' saved configs.
	NNUEConfigFile = checkpoints.NNUEConfigFile
	ConvConfigFile = "config.json"
)

// NNUEGame is the game of an NNUE run made before run markers: every
// such run is Trench's.
const NNUEGame = "trench"

// ErrNotRun is wrapped by the error of Holds and Read for a directory
// that holds no run (an empty one, say); a path that does not exist
// gives an error wrapping fs.ErrNotExist instead.
var ErrNotRun = errors.New("is not a run directory")

// Marker is what a run directory holds, as its marker file says.
type Marker struct {
	Kind Kind `json:"kind"`
	// Game is the game the run learns (engine.Game's name); empty for a
	// conv-net run made before markers whose config is gone.
	Game string `json:"game"`
}

// Holds tells what the run directory dir holds. The error names dir
// when it is not a run directory (wrapping ErrNotRun, or fs.ErrNotExist
// when dir does not exist) and when its marker is unreadable.
func Holds(dir string) (Kind, error) {
	m, err := Read(dir)
	return m.Kind, err
}

// Read returns what the run directory dir holds: its marker file, or
// for a run made before markers existed what its layout shows (an
// NNUE run's nnue.json, or its nets/ with metrics lines naming a "net";
// a conv-net run's checkpoints/, its game from config.json).
func Read(dir string) (Marker, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Marker{}, fmt.Errorf("run directory %s: %w", dir, fs.ErrNotExist)
	}
	if err != nil {
		return Marker{}, err
	}
	if !st.IsDir() {
		return Marker{}, fmt.Errorf("%s %w: it is a file", dir, ErrNotRun)
	}
	path := filepath.Join(dir, MarkerFile)
	raw, err := os.ReadFile(path)
	if err == nil {
		return decodeMarker(path, raw)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return Marker{}, err
	}
	return infer(dir)
}

// decodeMarker parses the marker file at path.
func decodeMarker(path string, raw []byte) (Marker, error) {
	var m Marker
	if err := json.Unmarshal(raw, &m); err != nil {
		return Marker{}, fmt.Errorf("%s: a corrupt run marker: %w", path, err)
	}
	if m.Kind != NNUE && m.Kind != Conv {
		return Marker{}, fmt.Errorf("%s: run kind %q is none of %q, %q", path, string(m.Kind), string(NNUE), string(Conv))
	}
	return m, nil
}

// infer tells a run made before markers by its layout.
func infer(dir string) (Marker, error) {
	nnue, err := looksNNUE(dir)
	if err != nil {
		return Marker{}, err
	}
	conv := isDir(filepath.Join(dir, CheckpointsDir))
	switch {
	case nnue && conv:
		return Marker{}, fmt.Errorf("%s holds both an NNUE run (%s) and a conv-net run (%s/): write its %s to say which", dir, NNUEConfigFile, CheckpointsDir, MarkerFile)
	case nnue:
		return Marker{Kind: NNUE, Game: NNUEGame}, nil
	case conv:
		game, err := convGame(dir)
		return Marker{Kind: Conv, Game: game}, err
	}
	return Marker{}, fmt.Errorf("%s %w: no %s, no %s or %s/ of an NNUE run, no %s/ of a conv-net run", dir, ErrNotRun, MarkerFile, NNUEConfigFile, NetsDir, CheckpointsDir)
}

// looksNNUE tells whether dir has an NNUE run's config, or its nets
// folder and a metrics line naming a net.
func looksNNUE(dir string) (bool, error) {
	if _, err := os.Stat(filepath.Join(dir, NNUEConfigFile)); err == nil {
		return true, nil
	}
	if !isDir(filepath.Join(dir, NetsDir)) {
		return false, nil
	}
	f, err := os.Open(filepath.Join(dir, MetricsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line struct {
			Net string `json:"net"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Net != "" {
			return true, nil
		}
	}
	return false, sc.Err()
}

// convGame reads the game of a conv-net run from its config, "" if the
// config is missing (a run killed as it was created).
func convGame(dir string) (string, error) {
	path := filepath.Join(dir, ConvConfigFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var c struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return c.Game, nil
}

// isDir tells whether path is a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// Mark writes dir's marker file, atomically.
func Mark(dir string, m Marker) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, MarkerFile), append(raw, '\n'))
}

// SameDir reports whether paths a and b name the same directory, however
// spelt (b may not exist yet).
func SameDir(a, b string) (bool, error) {
	ai, err := os.Stat(a)
	if err != nil {
		return false, fmt.Errorf("source: %w", err)
	}
	bi, err := os.Stat(b)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("destination: %w", err)
	}
	return os.SameFile(ai, bi), nil
}
