package generations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"trench/internal/atomicfile"
	"trench/nnue/data"
	"trench/training/rundir"
)

// ForkResult is what Fork made.
type ForkResult struct {
	// Config is the branch's config: the source's with the edits.
	Config Config
	// Shards and Positions are the position shards the branch shares
	// with the source, generations 0 to the fork's.
	Shards, Positions int
	// Elapsed is the branch's time in seconds: the source's when the
	// fork's generation had played its games.
	Elapsed float64
}

// Fork makes dst a branch of the run in src at generation g, as src
// stood once g's games were played and before g's net was trained, with
// the settings of set (each a key of the run's nnue.json and a JSON
// value; a value that is not JSON is taken as a string) in place of
// src's. It takes src's records (progress files, nets, metrics lines)
// of the generations before g, its anchor net, and the position shards
// of generations 0 to g, hard-linked where the file system allows and
// copied where not. Resumed by trench train, dst trains generation g
// anew with its settings, then goes on. Its time starts at src's at the
// end of g's games: the end of generation g−1 plus the games' time,
// their positions over the rate they were played at. src must have
// finished generation g; the game and the preset cannot change, nor the
// hidden units unless the branch trains from fresh weights. dst must
// hold no run; a fork stopped before its end is made again by the same
// call. Neither run may be training (the caller holds both locks).
func Fork(src, dst string, g int, set map[string]string) (ForkResult, error) {
	var res ForkResult
	cfg, err := LoadConfig(src)
	if err != nil {
		return res, err
	}
	if err := refuseRun(dst); err != nil {
		return res, err
	}
	lines, _, err := ReadMetrics(src)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	if g < 0 || g >= len(lines) || lines[g].Generation != g {
		return res, fmt.Errorf("run %s has finished %d generations: it can be forked at 0 to %d, not %d", src, len(lines), len(lines)-1, g)
	}
	if res.Config, err = editConfig(cfg, set); err != nil {
		return res, err
	}
	if res.Config.Hidden != cfg.Hidden && !res.Config.FromScratch {
		return res, fmt.Errorf("hidden %d: the run's nets have %d hidden units; another size needs from-scratch true", res.Config.Hidden, cfg.Hidden)
	}
	for _, sub := range []string{dataDir, netsDir} {
		if err := os.MkdirAll(filepath.Join(dst, sub), 0o755); err != nil {
			return res, err
		}
	}
	if res.Shards, res.Positions, err = linkShards(filepath.Join(src, dataDir), filepath.Join(dst, dataDir), g); err != nil {
		return res, err
	}
	if err := copyMetricsLines(src, dst, g); err != nil {
		return res, err
	}
	files := []string{AnchorFile}
	for _, m := range lines[:g] {
		files = append(files, filepath.Base(progressPath(src, m.Generation)), filepath.Join(netsDir, m.Net))
	}
	if err := copyRunFiles(src, dst, files); err != nil {
		return res, err
	}
	m := lines[g]
	if g > 0 {
		res.Elapsed = lines[g-1].Elapsed
	}
	if m.GenerateRate > 0 {
		res.Elapsed += float64(m.NewPositions) / m.GenerateRate
	}
	p := progress{GenerateRate: m.GenerateRate}
	if err := p.save(dst, g, res.Elapsed); err != nil {
		return res, err
	}
	// The config and the marker last, so that a fork stopped before
	// them is no run and can be made again: a config left by such a
	// fork goes first.
	if err := os.Remove(filepath.Join(dst, rundir.NNUEConfigFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	_, err = Prepare(dst, res.Config, nil)
	return res, err
}

// editConfig returns c with the settings of set, by their JSON keys,
// checked.
func editConfig(c Config, set map[string]string) (Config, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return c, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return c, err
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if _, ok := fields[k]; !ok {
			return c, fmt.Errorf("--set %s: not a setting of the run (one of %s)", k, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
		}
		if k == "game" || k == "preset" {
			return c, fmt.Errorf("--set %s: a branch keeps its run's %s", k, k)
		}
		v := []byte(set[k])
		if !json.Valid(v) {
			if v, err = json.Marshal(set[k]); err != nil {
				return c, err
			}
		}
		fields[k] = v
	}
	if raw, err = json.Marshal(fields); err != nil {
		return c, err
	}
	var edited Config
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&edited); err != nil {
		return c, fmt.Errorf("--set: %w", err)
	}
	if err := edited.Validate(); err != nil {
		return c, err
	}
	return edited, nil
}

// linkShards hard-links (or copies) into dst the position shards of src
// of generations 0 to g, and returns how many shards and positions.
func linkShards(src, dst string, g int) (int, int, error) {
	names, err := data.ShardNames(src)
	if err != nil {
		return 0, 0, err
	}
	shards, positions := 0, 0
	for _, name := range names {
		var sg int
		if _, err := fmt.Sscanf(name, "shard-g%06d-", &sg); err != nil || sg > g {
			continue
		}
		from, to := filepath.Join(src, name), filepath.Join(dst, name)
		if err := os.Remove(to); err != nil && !errors.Is(err, os.ErrNotExist) {
			return shards, positions, err
		}
		if err := os.Link(from, to); err != nil {
			if err := copyFile(from, to); err != nil {
				return shards, positions, err
			}
		}
		shards++
		_, n, err := data.ShardGameCount(to)
		if err != nil {
			return shards, positions, err
		}
		positions += n
	}
	return shards, positions, nil
}

// copyFile copies the file from to the new file to, atomically.
func copyFile(from, to string) error {
	raw, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return atomicfile.Write(to, raw)
}

// copyMetricsLines writes to dst's metrics the lines of src's before
// generation g, byte for byte.
func copyMetricsLines(src, dst string, g int) error {
	if g == 0 {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(src, rundir.MetricsFile))
	if err != nil {
		return err
	}
	var kept []byte
	for line := range bytes.Lines(raw) {
		var m struct{ Generation *int }
		if json.Unmarshal(line, &m) != nil || m.Generation == nil || *m.Generation >= g {
			continue
		}
		kept = append(kept, line...)
	}
	return atomicfile.Write(filepath.Join(dst, rundir.MetricsFile), kept)
}
