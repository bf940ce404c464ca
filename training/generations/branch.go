package generations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"trench/internal/atomicfile"
	"trench/internal/excerpt"
	"trench/nnue"
	"trench/nnue/data"
	"trench/nnue/datagen"
	"trench/training/rundir"
)

// BranchOptions are how Branch searches a run's positions again.
type BranchOptions struct {
	// Net names the NNUE the search evaluates with (nnue.LoadRef): a net
	// file, a run directory (its newest accepted net) or the built-in
	// net; "" for the run's own player, its newest accepted net (the
	// rules' evaluation before its gates accept one).
	Net string
	// SoftNodes and HardNodes are the search's node budget a position;
	// 0 for the run's own (its --soft-nodes, --hard-nodes), a hard limit
	// raised to the soft one when only that is given.
	SoftNodes, HardNodes uint64
	// Positions is how many of the run's newest positions are copied, at
	// least (whole shards); 0 for all.
	Positions int
	// Workers is the shards searched at once.
	Workers int
	// Progress, if set, is told the positions done and the total, from
	// one goroutine at a time.
	Progress func(done, total int)
	// Warnings receives a line for each shard skipped.
	Warnings io.Writer
}

// BranchResult is what Branch did.
type BranchResult struct {
	datagen.RescoreStats
	// Searcher names the search: its evaluation and node budget.
	Searcher string
	// Next is the generation the branch plays next; Elapsed its time in
	// seconds, the run's when it was copied and the searches'.
	Next    int
	Elapsed float64
}

// branchTimeFile keeps a branch's search time across stops, until the
// branch's records are written.
const branchTimeFile = "branch-time.json"

// Branch makes dst a branch of the run in src: its newest positions
// (opt.Positions) searched again by the run's game's search with
// opt.Net, each position's scores replaced by the new search's
// (datagen.Rescore: a position whose new best move captures or whose
// score is a finished game's is left out), then its finished
// generations' records and nets, and its config. Resumed by trench
// train, dst goes on from the generation src was in, training on the
// new scores; that generation's finished phases are not copied, so
// it plays what its positions lack, then trains anew. Its time is
// src's plus the searches'. A run taught by a conv net (Config.Teacher)
// is refused: its scores are the teacher's. dst must hold no run; a
// branch that was stopped while its positions were copied resumes.
// Neither run may be training (the caller holds both locks).
func Branch(ctx context.Context, src, dst string, opt BranchOptions) (BranchResult, error) {
	var res BranchResult
	cfg, err := LoadConfig(src)
	if err != nil {
		return res, err
	}
	if cfg.Teacher != "" {
		return res, fmt.Errorf("run %s is taught by the conv net %s, whose values are its scores: only a run whose scores are its searches' can be searched again", src, excerpt.Quote(cfg.Teacher))
	}
	if err := refuseRun(dst); err != nil {
		return res, err
	}
	rc := recipeFor(cfg.Game)
	var net *nnue.Net
	player := "the rules' evaluation"
	switch opt.Net {
	case "":
		file, err := nnue.NewestAccepted(src)
		if err == nil {
			if net, err = rc.set().Load(file); err != nil {
				return res, err
			}
			player = filepath.Base(file)
		} else if !errors.Is(err, nnue.ErrNoAcceptedNet) {
			return res, err
		}
	default:
		var from string
		if net, from, err = rc.set().LoadRef(opt.Net); err != nil {
			return res, fmt.Errorf("--net: %w", err)
		}
		player = from
	}
	dc := cfg.Datagen()
	if opt.SoftNodes > 0 {
		dc.SoftNodes = opt.SoftNodes
	}
	if opt.HardNodes > 0 {
		dc.HardNodes = opt.HardNodes
	}
	if opt.HardNodes == 0 && dc.HardNodes < dc.SoftNodes {
		dc.HardNodes = dc.SoftNodes
	}
	if err := dc.Validate(); err != nil {
		return res, fmt.Errorf("the search's budget: %w", err)
	}
	res.Searcher = fmt.Sprintf("%s at %d-%d nodes a position", player, dc.SoftNodes, dc.HardNodes)
	for _, sub := range []string{dataDir, netsDir} {
		if err := os.MkdirAll(filepath.Join(dst, sub), 0o755); err != nil {
			return res, err
		}
	}
	if err := rundir.RemoveTemporary(dst, dataDir, netsDir); err != nil {
		return res, err
	}
	before, err := loadBranchTime(dst)
	if err != nil {
		return res, err
	}
	start := time.Now()
	spent := func() float64 { return before + time.Since(start).Seconds() }
	job := rescoreJob{src: filepath.Join(src, dataDir), dst: filepath.Join(dst, dataDir), positions: opt.Positions, workers: opt.Workers,
		progress: opt.Progress, warnings: opt.Warnings,
		done: func() error { return saveBranchTime(dst, spent()) }}
	if res.RescoreStats, err = rc.rescore(ctx, dc, net, job); err != nil {
		return res, err
	}
	res.Next, res.Elapsed, err = copyRecords(src, dst, spent())
	if err != nil {
		return res, err
	}
	raw, err := os.ReadFile(filepath.Join(src, rundir.NNUEConfigFile))
	if err != nil {
		return res, err
	}
	if err := atomicfile.Write(filepath.Join(dst, rundir.NNUEConfigFile), raw); err != nil {
		return res, err
	}
	if err := rundir.Mark(dst, rundir.Marker{Kind: rundir.NNUE, Game: cfg.Game}); err != nil {
		return res, err
	}
	return res, os.Remove(filepath.Join(dst, branchTimeFile))
}

// rescoreJob is a branch's copy of positions, for a recipe's rescore.
type rescoreJob struct {
	src, dst           string
	positions, workers int
	progress           func(done, total int)
	done               func() error
	warnings           io.Writer
}

// rescoreWith copies job's shards of codec's game, each searched again
// by a rescorer newRescorer makes.
func rescoreWith[R any](ctx context.Context, codec *data.Codec[R], job rescoreJob, newRescorer func() (datagen.Rescorer[R], error)) (datagen.RescoreStats, error) {
	shards, total, err := datagen.NewestShards(codec, job.src, job.positions)
	if err != nil {
		return datagen.RescoreStats{}, err
	}
	rj := datagen.RescoreJob[R]{Src: job.src, Dst: job.dst, Shards: shards, Workers: job.workers, Codec: codec,
		NewRescorer: newRescorer, Done: job.done, Warnings: job.warnings}
	if job.progress != nil {
		rj.Progress = func(done int) { job.progress(done, total) }
	}
	return datagen.Rescore(ctx, rj)
}

// loadBranchTime reads the search time a stopped branch spent, in
// seconds.
func loadBranchTime(dir string) (float64, error) {
	raw, err := os.ReadFile(filepath.Join(dir, branchTimeFile))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var t struct{ Seconds float64 }
	if err := json.Unmarshal(raw, &t); err != nil {
		return 0, fmt.Errorf("%s: %w", filepath.Join(dir, branchTimeFile), err)
	}
	return t.Seconds, nil
}

// saveBranchTime writes the branch's search time so far.
func saveBranchTime(dir string, seconds float64) error {
	raw, err := json.Marshal(struct{ Seconds float64 }{seconds})
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, branchTimeFile), append(raw, '\n'))
}

// refuseRun reports dst holding a run, which a branch may not go into.
func refuseRun(dst string) error {
	if _, err := rundir.Read(dst); err == nil {
		return fmt.Errorf("%s already holds a run: give an empty or new directory", dst)
	} else if !errors.Is(err, rundir.ErrNotRun) && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// copyRunFiles copies the files of run src named by their paths in it
// to the same paths in run dst, atomically; a run without an anchor net
// (AnchorFile) gives none.
func copyRunFiles(src, dst string, files []string) error {
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join(src, f))
		if errors.Is(err, os.ErrNotExist) && f == AnchorFile {
			continue
		}
		if err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(dst, f), raw); err != nil {
			return err
		}
	}
	return nil
}

// copyRecords copies src's finished generations' records to dst (their
// progress files, nets and metrics lines, and the run's anchor net) and
// starts dst's next generation at src's time plus spent seconds. It
// returns that generation and time.
func copyRecords(src, dst string, spent float64) (int, float64, error) {
	lines, _, err := ReadMetrics(src)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, 0, err
	}
	next, elapsed := 0, 0.0
	files := []string{AnchorFile}
	if len(lines) > 0 {
		files = append(files, rundir.MetricsFile)
	}
	for _, m := range lines {
		next, elapsed = m.Generation+1, m.Elapsed
		files = append(files, filepath.Base(progressPath(src, m.Generation)), filepath.Join(netsDir, m.Net))
	}
	if err := copyRunFiles(src, dst, files); err != nil {
		return 0, 0, err
	}
	// The generation src was in keeps its time, not its phases.
	prog, err := loadProgress(src, next)
	if err != nil {
		return 0, 0, err
	}
	elapsed = max(elapsed, prog.Elapsed) + spent
	p := progress{}
	return next, elapsed, p.save(dst, next, elapsed)
}
