package generations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"trench/arena"
	"trench/engine/trench"
	"trench/nnue"
	"trench/nnue/data"
	"trench/nnue/datagen"
	"trench/nnue/train"
	"trench/players"
	"trench/training/rundir"
)

// The run directory's folders.
const (
	dataDir = "data"
	netsDir = rundir.NetsDir
)

// lossSample bounds the positions the train and validation losses are
// measured on.
const lossSample = 20_000

// Options are how a run reports.
type Options struct {
	// Progress receives a line as each phase starts, progress bars and a
	// summary of each generation; Warnings receives warnings. Both may
	// be io.Discard.
	Progress, Warnings io.Writer
	// Bars draws progress bars.
	Bars bool
	// Remote, if set, meets data generation workers on other machines
	// (training/natsrun): each generation is announced to them, and the
	// positions they play arrive in the run's data folder as shards
	// named RemoteShardPrefix(g)…, written there by the remote's own
	// intake.
	Remote Remote
	// NoLocal leaves the games to the remote workers: the trainer's
	// process plays none. It needs Remote.
	NoLocal bool
}

// Remote is where a run meets data generation workers on other
// machines.
type Remote interface {
	// Announce tells the workers that generation g's games are played
	// by the net named player whose file's bytes are net ("rules" and
	// nil: the rules' evaluation).
	Announce(ctx context.Context, g int, player string, net []byte) error
}

// runner is a run in progress.
type runner struct {
	dir    string
	cfg    Config
	opt    Options
	recipe recipe

	start   time.Time
	elapsed float64 // the run's time before this process
	// positions and steps are those of the finished generations.
	positions int
	steps     uint64
	// player is the newest accepted net (nil: the rules), named
	// playerName, rated playerElo on the run's scale; last is the newest
	// generation's net file, accepted or not.
	player     *nnue.Net
	playerName string
	playerElo  float64
	last       string
	// fixed is the anchor net (--anchor-net), nil without one.
	fixed *fixedNet
}

// Run runs generations in dir until cfg.Generations are done or ctx is
// done, resuming after the last generation in the run's metrics. When
// ctx is done it returns nil once the work in progress is saved: the
// data written, the trainer's state. The caller holds the run's lock
// (rundir.Lock): Run removes the temporary files a killed process
// left.
func Run(ctx context.Context, dir string, cfg Config, opt Options) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if opt.NoLocal && opt.Remote == nil {
		return errors.New("generations: no local games and no remote workers: nothing would play")
	}
	if err := rundir.RemoveTemporary(dir, dataDir, netsDir); err != nil {
		return err
	}
	r := &runner{dir: dir, cfg: cfg, opt: opt, recipe: recipeFor(cfg.Game), start: time.Now(), playerName: "rules"}
	next, err := r.restore()
	if err != nil {
		return err
	}
	if r.fixed, err = r.loadAnchorNet(); err != nil {
		return err
	}
	if cfg.Generations > 0 && next >= cfg.Generations {
		fmt.Fprintf(opt.Progress, "run %s has done %d of %d generations (raise --generations to go on)\n", dir, next, cfg.Generations)
		return nil
	}
	for g := next; cfg.Generations == 0 || g < cfg.Generations; g++ {
		err := r.generation(ctx, g)
		if ctx.Err() != nil {
			fmt.Fprintf(opt.Progress, "stopped in generation %d; rerun to resume\n", g)
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// restore reads the finished generations from the metrics and returns
// the next one's number.
func (r *runner) restore() (int, error) {
	lines, skipped, err := ReadMetrics(r.dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	if skipped > 0 {
		fmt.Fprintf(r.opt.Warnings, "warning: %s: skipped %d lines that do not parse (torn by a crash?)\n", filepath.Join(r.dir, rundir.MetricsFile), skipped)
	}
	next, player := 0, ""
	for _, m := range lines {
		next = m.Generation + 1
		r.elapsed, r.positions, r.steps, r.last = m.Elapsed, m.Positions, m.Step, m.Net
		if m.Gate != nil && m.Gate.Accepted {
			player = m.Net
			if m.Elo != nil {
				r.playerElo = *m.Elo
			}
		}
	}
	if player != "" {
		net, err := r.recipe.set().Load(filepath.Join(r.dir, netsDir, player))
		if err != nil {
			return 0, err
		}
		r.player, r.playerName = net, player
	}
	return next, nil
}

// AnchorFile is the run's own copy of its anchor net (--anchor-net),
// made when the run first starts.
const AnchorFile = "anchor.nnue"

// loadAnchorNet returns the run's anchor net, nil when it has none: its
// copy in the run directory, made from --anchor-net at the first start,
// so that a later binary's built-in net or a changed file changes
// neither the anchor nor the gate of a resumed run. Its name carries
// the start of the copy's SHA-256.
func (r *runner) loadAnchorNet() (*fixedNet, error) {
	if r.cfg.AnchorNet == "" {
		return nil, nil
	}
	path := filepath.Join(r.dir, AnchorFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		net, _, err := r.recipe.set().LoadRef(r.cfg.AnchorNet)
		if err != nil {
			return nil, fmt.Errorf("--anchor-net: %w", err)
		}
		if err := net.Save(path); err != nil {
			return nil, err
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	net, err := r.recipe.set().Decode(data, path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return &fixedNet{net: net, name: "alphabeta-anchor-" + hex.EncodeToString(sum[:6])}, nil
}

// clock is the run's time in seconds: before this process, then since
// it started.
func (r *runner) clock() float64 { return r.elapsed + time.Since(r.start).Seconds() }

// netName is generation g's net file name.
func netName(g int) string { return fmt.Sprintf("gen-%06d.nnue", g) }

// statePath is the trainer's state file while generation g trains.
func (r *runner) statePath(g int) string {
	return filepath.Join(r.dir, fmt.Sprintf("trainer-g%06d.state", g))
}

// generation runs generation g's phases that are not done yet.
func (r *runner) generation(ctx context.Context, g int) (err error) {
	prog, err := loadProgress(r.dir, g)
	if err != nil {
		return err
	}
	// A generation stopped before counts the time it ran; a stop now
	// saves this one's.
	if c := r.clock(); prog.Elapsed > c {
		r.elapsed += prog.Elapsed - c
	}
	defer func() {
		if ctx.Err() != nil {
			if serr := prog.save(r.dir, g, r.clock()); err == nil {
				err = serr
			}
		}
	}()
	job := fmt.Sprintf("g%06d", g)
	local, rate, err := r.generate(ctx, g, job, &prog)
	if err != nil {
		return err
	}
	if rate > 0 {
		prog.GenerateRate = rate
	}
	name := netName(g)
	netPath := filepath.Join(r.dir, netsDir, name)
	if !prog.Trained {
		if err := r.train(ctx, g, netPath, &prog); err != nil {
			return err
		}
		if err := prog.save(r.dir, g, r.clock()); err != nil {
			return err
		}
		os.Remove(r.statePath(g))
	}
	net, err := r.recipe.set().Load(netPath)
	if err != nil {
		return err
	}
	limits := r.cfg.gateLimits()
	cand := r.recipe.searchMaker(name, limits, net)
	if prog.Gate == nil {
		prev := r.recipe.searchMaker(r.playerName, limits, r.player)
		r.note("gate: %s against %s at %s a move, up to %d %s", name, r.playerName, limitsName(limits), r.cfg.GatePairs, r.openings())
		progress, done := gameBar(r.opt, "gate", r.groupGames()*r.cfg.GatePairs)
		gate, st, err := r.recipe.gate(ctx, r.cfg, cand, prev, r.cfg.Seed^uint64(g)<<24, progress)
		done()
		if err != nil {
			return err
		}
		prog.Gate, prog.GateStanding = &gate, &st
		if err := prog.save(r.dir, g, r.clock()); err != nil {
			return err
		}
	}
	loader := players.NewLoader(r.recipe.game())
	defer loader.Close()
	anchors, err := r.cfg.anchors(r.recipe, loader, r.fixed)
	if err != nil {
		return err
	}
	for i, a := range anchors {
		if _, ok := prog.anchor(a.opponent.Name); ok {
			continue
		}
		r.note("anchor: %s at %s a move against %s, %d %s", name, limitsName(a.limits), a.opponent.Name, r.cfg.AnchorPairs, r.openings())
		c := cand
		if a.limits != limits {
			c = r.recipe.searchMaker(name, a.limits, net)
		}
		progress, done := gameBar(r.opt, "vs "+a.opponent.Name, r.groupGames()*r.cfg.AnchorPairs)
		st, pairs, err := r.recipe.versus(ctx, r.cfg, c, a.opponent, nil, r.anchorSeed(g, i), progress)
		done()
		if err != nil {
			return err
		}
		prog.Anchors = append(prog.Anchors, st)
		if a.gates {
			if prog.GatePairs == nil {
				prog.GatePairs = map[string][]float64{}
			}
			prog.GatePairs[a.opponent.Name] = pairs
		}
		if err := prog.save(r.dir, g, r.clock()); err != nil {
			return err
		}
	}
	if err := r.anchorGate(ctx, g, anchors, &prog); err != nil {
		return err
	}
	return r.finish(g, name, net, local, &prog)
}

// anchorSeed seeds generation g's match against anchor i.
func (r *runner) anchorSeed(g, i int) uint64 {
	return r.cfg.Seed ^ uint64(g)<<24 ^ uint64(i+1)<<16
}

// anchorGate runs the gate's second way (gate.go) for a new net the
// head-to-head did not accept, unless it showed it worse or
// --gate-anchor-z is 0: the player plays each anchor that gates on the
// new net's openings with its seeds, and the new net passes if it
// scored better by the margin, against the one anchor or the mean of
// the two. The comparison is saved in the gate.
func (r *runner) anchorGate(ctx context.Context, g int, anchors []anchor, prog *progress) error {
	if prog.Gate.Anchor != nil || !r.cfg.triesAnchor(*prog.Gate, *prog.GateStanding) {
		return nil
	}
	var each []AnchorComparison
	for i, a := range anchors {
		if !a.gates {
			continue
		}
		r.note("gate against the anchor: %s at %s a move against %s, on the same %d pairs", r.playerName, limitsName(a.limits), a.opponent.Name, r.cfg.AnchorPairs)
		player := r.recipe.searchMaker(r.playerName, a.limits, r.player)
		progress, done := gameBar(r.opt, r.playerName+" vs "+a.opponent.Name, r.groupGames()*r.cfg.AnchorPairs)
		_, pairs, err := r.recipe.versus(ctx, r.cfg, player, a.opponent, nil, r.anchorSeed(g, i), progress)
		done()
		if err != nil {
			return err
		}
		each = append(each, compareAnchor(a.opponent.Name, prog.GatePairs[a.opponent.Name], pairs, r.cfg.GateAnchorZ))
	}
	c := combineAnchors(each, r.cfg.GateAnchorZ)
	prog.Gate.Anchor = &c
	if len(each) > 1 {
		prog.Gate.ByAnchor = each
	}
	prog.Gate.Accepted = c.Better
	return prog.save(r.dir, g, r.clock())
}

// finish appends generation g's metrics line and takes its net up as
// the player if the gate accepted it. Its new positions are the local
// ones and the remote workers' on disk now, those that came during
// training and matches included.
func (r *runner) finish(g int, name string, net *nnue.Net, local int, prog *progress) error {
	elapsed := r.clock()
	remote, err := RemotePositions(filepath.Join(r.dir, dataDir), g)
	if err != nil {
		return err
	}
	newPositions := local + remote
	sum, err := fileSHA256(filepath.Join(r.dir, netsDir, name))
	if err != nil {
		return err
	}
	m := Metrics{
		Time: time.Now().UTC(), Elapsed: elapsed, Hours: elapsed / 3600, Generation: g, Player: r.playerName, Teacher: prog.Teacher,
		NewPositions: newPositions, RemotePositions: remote, Positions: r.positions + newPositions, Window: prog.Window,
		GenerateRate: prog.GenerateRate, Step: r.steps + uint64(r.cfg.Steps),
		TrainLoss: prog.TrainLoss, ValidationLoss: prog.ValidationLoss, Net: name, SHA256: sum, Parent: r.parent(), Gate: prog.Gate,
		Arena:    &arena.Summary{Current: name, VsPrevious: prog.GateStanding, VsBaselines: prog.Anchors},
		Rejected: !prog.Gate.Accepted,
	}
	for _, s := range append([]arena.Standing{*prog.GateStanding}, prog.Anchors...) {
		m.Arena.Games += s.Wins + s.Draws + s.Losses
	}
	if prog.Gate.Accepted {
		elo := r.playerElo + finiteElo(prog.GateStanding.Elo)
		m.Elo = &elo
	}
	if err := rundir.AppendMetrics(r.dir, m); err != nil {
		return err
	}
	fmt.Fprintln(r.opt.Progress, m.summary())
	r.positions, r.steps, r.last = m.Positions, m.Step, name
	if prog.Gate.Accepted {
		r.player, r.playerName, r.playerElo = net, name, *m.Elo
	}
	return nil
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// finiteElo is an interval's estimate, or its finite end when a match
// was won or lost outright, or 0 when neither is finite.
func finiteElo(i arena.Interval) float64 {
	for _, x := range []float64{i.Elo, i.Low, i.High} {
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			return x
		}
	}
	return 0
}

// generate plays generation g's games with the player, resuming its
// shards, and returns the generation's local positions on disk and the
// rate this call wrote them and the remote ones at (0 if none came).
// Generation 0's positions are labelled by the teacher if the run has
// one, recorded in prog. With a remote, the workers it reaches play
// too: their shards count towards the generation's positions, and the
// local games stop (or, with NoLocal, the wait ends) once there are
// enough.
func (r *runner) generate(ctx context.Context, g int, job string, prog *progress) (int, float64, error) {
	dir := filepath.Join(r.dir, dataDir)
	local, err := r.recipe.count(dir, job, r.cfg.Workers)
	if err != nil {
		return 0, 0, err
	}
	remote, err := RemotePositions(dir, g)
	if err != nil {
		return 0, 0, err
	}
	if r.opt.Remote != nil {
		if err := r.announce(ctx, g); err != nil {
			return 0, 0, err
		}
	}
	dc := r.cfg.Datagen()
	share := (r.cfg.Positions + dc.Workers - 1) / dc.Workers
	if local >= share*dc.Workers || local+remote >= r.cfg.Positions {
		return local, 0, nil
	}
	if r.opt.NoLocal {
		r.note("generation %d: waiting for workers to play %d positions with %s (%d on disk)", g, r.cfg.Positions, r.playerName, local+remote)
	} else {
		r.note("generation %d: playing %d positions with %s at %d-%d nodes a move (%d on disk)", g, r.cfg.Positions, r.playerName, dc.SoftNodes, dc.HardNodes, local+remote)
	}
	var relabel func([]trench.Position, []int) error
	if g == 0 && r.cfg.Teacher != "" {
		// The remote's intake labels the workers' positions with its own
		// copy of the teacher.
		t, err := r.teacher(prog)
		if err != nil {
			return 0, 0, err
		}
		relabel = t.relabel
	}
	bar := newBar(r.opt, "games", r.cfg.Positions, "positions")
	bar.Set(min(local+remote, r.cfg.Positions))
	start, remoteStart := time.Now(), remote
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		localNow, remoteNow atomic.Int64
		wg                  sync.WaitGroup
	)
	localNow.Store(int64(local))
	remoteNow.Store(int64(remote))
	if r.opt.Remote != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if n, err := RemotePositions(dir, g); err == nil {
					remoteNow.Store(int64(n))
					bar.Set(min(int(localNow.Load())+n, r.cfg.Positions))
					if int(localNow.Load())+n >= r.cfg.Positions {
						stop()
						return
					}
				}
				select {
				case <-gctx.Done():
					return
				case <-time.After(remotePoll):
				}
			}
		}()
	}
	var st datagen.Stats
	if r.opt.NoLocal {
		<-gctx.Done()
		err = ctx.Err()
	} else {
		st, err = r.recipe.generate(gctx, dc, genJob{
			dir: dir, name: job, base: uint64(g) << 32, positions: r.cfg.Positions,
			progress: func(n int) {
				localNow.Store(int64(n))
				bar.Set(min(n+int(remoteNow.Load()), r.cfg.Positions))
			},
		}, r.player, relabel)
		if ctx.Err() == nil && gctx.Err() != nil {
			err = nil // stopped: the workers' positions made up the rest
		}
	}
	stop()
	wg.Wait()
	bar.Finish()
	if err != nil {
		return 0, 0, err
	}
	local = st.Resumed + st.Positions
	if r.opt.NoLocal {
		local = int(localNow.Load())
	}
	if remote, err = RemotePositions(dir, g); err != nil {
		return 0, 0, err
	}
	rate := 0.0
	if n := st.Positions + remote - remoteStart; n > 0 {
		rate = float64(n) / time.Since(start).Seconds()
	}
	return local, rate, nil
}

// teacher loads the run's teacher, checking that it is the net that
// labelled generation 0's positions on disk, and records it in prog.
func (r *runner) teacher(prog *progress) (*Teacher, error) {
	t, err := LoadTeacher(r.cfg.Teacher, r.cfg.ScoreScale())
	if err != nil {
		return nil, err
	}
	r.note("generation 0: the teacher %s labels the positions", t.Name)
	if prog.Teacher != "" && prog.Teacher != t.Name {
		return nil, fmt.Errorf("--teacher %s is now %s, but %s labelled generation 0's positions on disk: give that net's checkpoint file to resume", r.cfg.Teacher, t.Name, prog.Teacher)
	}
	if prog.Teacher == "" {
		prog.Teacher = t.Name
		if err := prog.save(r.dir, 0, r.clock()); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// remotePoll is how often the positions remote workers sent are counted.
const remotePoll = 250 * time.Millisecond

// announce tells the remote workers generation g's player.
func (r *runner) announce(ctx context.Context, g int) error {
	var net []byte
	if r.player != nil {
		var err error
		if net, err = os.ReadFile(filepath.Join(r.dir, netsDir, r.playerName)); err != nil {
			return err
		}
	}
	return r.opt.Remote.Announce(ctx, g, r.playerName, net)
}

// RemoteShardPrefix begins the names of the shards of generation g that
// remote workers played: they sort after the generation's own shards
// (shard-gNNNNNN-JJJJJJ-wWW.pos) and before the next generation's.
func RemoteShardPrefix(g int) string { return fmt.Sprintf("shard-g%06d-r-", g) }

// RemotePositions counts the positions of the shards of generation g in
// dir that remote workers played, from their headers: shards of either
// game, which their magic tells.
func RemotePositions(dir string, g int) (int, error) {
	names, err := data.ShardNames(dir)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, name := range names {
		if !strings.HasPrefix(name, RemoteShardPrefix(g)) {
			continue
		}
		_, n, err := data.ShardGameCount(filepath.Join(dir, name))
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// train trains generation g's net, from the saved trainer state if
// there is one, and saves it to netPath with its losses in prog.
func (r *runner) train(ctx context.Context, g int, netPath string, prog *progress) error {
	tc := r.cfg.TrainConfig(g)
	t, err := r.trainer(tc, g)
	if err != nil {
		return err
	}
	win, err := r.recipe.window(filepath.Join(r.dir, dataDir), r.cfg.windowConfig(), r.opt.Warnings)
	if err != nil {
		return err
	}
	if _, err := win.Refresh(); err != nil {
		return err
	}
	if win.Size() == 0 {
		return fmt.Errorf("generation %d: no training positions in %s", g, filepath.Join(r.dir, dataDir))
	}
	if t.Steps() < r.cfg.Steps {
		r.note("generation %d: training %d steps of %d positions from the newest %d (from step %d)", g, r.cfg.Steps, r.cfg.BatchSize, win.Size(), t.Steps())
	}
	bar := newBar(r.opt, "training", r.cfg.Steps, "steps")
	bar.Set(t.Steps())
	for t.Steps() < r.cfg.Steps {
		if ctx.Err() != nil {
			bar.Finish()
			if err := t.SaveState(r.statePath(g)); err != nil {
				return err
			}
			return ctx.Err()
		}
		t.Step(win.sample(r.batchRand(g, uint64(t.Steps())), r.cfg.BatchSize))
		bar.Add(1)
		if t.Steps()%r.cfg.SaveEvery == 0 && t.Steps() < r.cfg.Steps {
			if err := t.SaveState(r.statePath(g)); err != nil {
				return err
			}
		}
	}
	bar.Finish()
	sample := win.sample(r.batchRand(g, math.MaxUint64), min(lossSample, win.Size()))
	prog.TrainLoss, prog.Window = t.ValidationLoss(sample), win.Size()
	prog.ValidationLoss = t.ValidationLoss(win.validation(lossSample))
	if err := t.Net().Save(netPath); err != nil {
		return err
	}
	prog.Trained = true
	return nil
}

// trainer returns generation g's trainer: the saved state, or a new one
// from the newest net's weights (or fresh ones).
func (r *runner) trainer(tc train.Config, g int) (*train.Trainer, error) {
	t, err := train.LoadState(tc, r.recipe.set(), r.statePath(g))
	if err == nil {
		if t.Hidden() != r.cfg.Hidden {
			return nil, fmt.Errorf("%s: %d hidden units, the run's are %d", r.statePath(g), t.Hidden(), r.cfg.Hidden)
		}
		return t, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	seed := r.cfg.Seed ^ uint64(g)<<40
	parent := r.parent()
	if parent == "" {
		return train.New(tc, r.recipe.set(), r.cfg.Hidden, seed)
	}
	prev, err := r.recipe.set().Load(filepath.Join(r.dir, netsDir, parent))
	if err != nil {
		return nil, err
	}
	if prev.Hidden != r.cfg.Hidden {
		return nil, fmt.Errorf("%s: %d hidden units, the run's are %d", parent, prev.Hidden, r.cfg.Hidden)
	}
	return train.FromNet(tc, prev, seed)
}

// parent is the net the next generation's training starts from: the
// newest generation's, accepted or not; "" for fresh weights (the first
// generation, or --from-scratch).
func (r *runner) parent() string {
	if r.cfg.FromScratch {
		return ""
	}
	return r.last
}

// batchRand is the generator of generation g's batch at step: fixed by
// both, so that a resumed training draws the batches it would have.
func (r *runner) batchRand(g int, step uint64) *rand.Rand {
	return rand.New(rand.NewPCG(r.cfg.Seed^uint64(g)<<32^0x62617463, step))
}

// groupGames is the games of one opening of the game's matches: a
// pair, or for Trichess one game a seat.
func (r *runner) groupGames() int { return r.recipe.game().Players() }

// openings names the matches' openings: "pairs" of games, or for
// Trichess "opening groups".
func (r *runner) openings() string { return openingsOf(r.recipe) }

// Openings names the openings of the run's matches: "pairs" of games,
// or for Trichess "opening groups".
func (c Config) Openings() string { return openingsOf(recipeFor(c.Game)) }

// openingsOf names the openings of rc's matches (runner.openings).
func openingsOf(rc recipe) string {
	if rc.game().Players() == 2 {
		return "pairs"
	}
	return "opening groups"
}

// note prints a line to the progress writer.
func (r *runner) note(format string, args ...any) {
	fmt.Fprintf(r.opt.Progress, format+"\n", args...)
}

// newBar returns a progress bar of max items of unit on opt.Progress,
// hidden unless opt.Bars.
func newBar(opt Options, desc string, max int, unit string) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(opt.Progress),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionShowIts(),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	if !opt.Bars {
		opts = append(opts, progressbar.OptionSetVisibility(false))
	}
	return progressbar.NewOptions(max, opts...)
}

// gameBar returns a match's progress callback drawing a bar of up to
// max games on opt.Progress, and the function that clears the bar, to
// call when the match ends: an SPRT that stops early leaves it short of
// max, and the next line must not be printed after it.
func gameBar(opt Options, desc string, max int) (progress func(done, total int), done func()) {
	bar := newBar(opt, desc, max, "games")
	return func(done, _ int) { bar.Set(done) }, func() { bar.Finish() }
}
