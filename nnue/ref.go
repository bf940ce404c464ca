package nnue

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"trench/checkpoints"
	"trench/checkpoints/shipped"
)

// The layout of a run directory of the generation loop (package
// training/generations) that LoadRef reads: its nets in RunNetsDir, and one
// JSON line a generation in RunMetricsFile, naming the generation's net
// ("net") and whether its gate accepted it ("gate", "Accepted").
const (
	RunNetsDir     = checkpoints.NNUENetsDir
	RunMetricsFile = checkpoints.NNUEMetricsFile
)

// ErrNoAcceptedNet is wrapped by LoadRef's error for a run directory
// whose gates have accepted no net yet (its generation 0 plays with the
// rules' evaluation).
var ErrNoAcceptedNet = errors.New("no net accepted yet")

// ErrNoBuiltIn is wrapped by LoadRef's error for shipped.Ref in a game
// that ships no net.
var ErrNoBuiltIn = errors.New("no net is built in for this game")

// builtIns decode the nets built into the binary (shipped.BuiltInNNUE),
// once a set: every bot made with one (a web server's games, an arena's)
// shares the one copy.
var builtIns = map[*FeatureSet]func() (*Net, error){
	Trench:   builtIn(Trench),
	Trichess: builtIn(Trichess),
}

// builtIn decodes, once, the net built in for fs's game.
func builtIn(fs *FeatureSet) func() (*Net, error) {
	return sync.OnceValues(func() (*Net, error) {
		name, image, ok := shipped.BuiltInNNUE(fs.Game)
		if !ok {
			return nil, fmt.Errorf("nnue: %s: %w", fs.Game, ErrNoBuiltIn)
		}
		return fs.Decode(image, name)
	})
}

// LoadRef reads Trench's net that ref names (Trench.LoadRef).
func LoadRef(ref string) (*Net, string, error) { return Trench.LoadRef(ref) }

// LoadRef reads the set's net that ref names: shipped.Ref (or "") for
// the net built into the binary, decoded on the first call and shared
// after it, so its weights must not be changed (an error wrapping
// ErrNoBuiltIn for a game that ships none); a run directory of the
// generation loop for its newest accepted net, or before its gates
// accepted one its newest net trained (the error wraps ErrNoAcceptedNet
// when it has none); else a net file, read afresh each call (a run's
// newest net changes as it trains). A net of another set is refused
// (ErrGame). It returns the net and where it came from: the file read,
// or the built-in net's name.
func (fs *FeatureSet) LoadRef(ref string) (*Net, string, error) {
	if ref == "" || ref == shipped.Ref {
		b, ok := builtIns[fs]
		if !ok {
			return nil, "", fmt.Errorf("nnue: %s: %w", fs.Game, ErrNoBuiltIn)
		}
		n, err := b()
		name, _, _ := shipped.BuiltInNNUE(fs.Game)
		return n, name, err
	}
	file, err := RefFile(ref)
	if err != nil {
		return nil, "", err
	}
	n, err := fs.Load(file)
	return n, file, err
}

// RefFile returns the net file that ref, a run directory or a net file
// other than the built-in net's reference, names (as LoadRef reads it)
// without reading the net.
func RefFile(ref string) (string, error) {
	if st, err := os.Stat(ref); err == nil && st.IsDir() {
		return runNet(ref, false)
	}
	return ref, nil
}

// NewestAccepted returns the file of the newest net that run's gates
// accepted, the net that plays its next generation; the error wraps
// ErrNoAcceptedNet when they have accepted none (the rules' evaluation
// plays).
func NewestAccepted(run string) (string, error) { return runNet(run, true) }

// runNet returns the file of the newest net of run, by its metrics
// lines: the newest its gates accepted, or with accepted false the
// newest trained when they have accepted none. Lines that do not parse
// (one torn by a crash) are skipped.
func runNet(run string, accepted bool) (string, error) {
	path := filepath.Join(run, RunMetricsFile)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("nnue: %s is neither a net file nor a run directory with %s: %w", run, RunMetricsFile, ErrNoAcceptedNet)
	}
	if err != nil {
		return "", fmt.Errorf("nnue: %w", err)
	}
	defer f.Close()
	newest, trained := "", ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var line struct {
			Net  string `json:"net"`
			Gate *struct{ Accepted bool }
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if line.Gate != nil && line.Gate.Accepted && line.Net != "" {
			newest = line.Net
		}
		if line.Net != "" {
			trained = line.Net
		}
	}
	if newest == "" && !accepted {
		newest = trained
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("nnue: %s: %w", path, err)
	}
	if newest == "" || newest != filepath.Base(newest) {
		if newest != "" {
			return "", fmt.Errorf("nnue: %s names net %q outside its %s folder", path, newest, RunNetsDir)
		}
		return "", fmt.Errorf("nnue: run %s: %w", run, ErrNoAcceptedNet)
	}
	return filepath.Join(run, RunNetsDir, newest), nil
}
