package generations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"trench/arena"
	"trench/nnue"
	"trench/players"
	"trench/training/rundir"
)

// Tiny returns settings that run a generation in a few seconds.
func tiny(t testing.TB) Config {
	t.Helper()
	c, err := Preset(PresetName, "trench")
	if err != nil {
		t.Fatal(err)
	}
	c.Generations = 2
	c.Positions, c.SoftNodes, c.HardNodes, c.OpeningDepth, c.ShardGames = 200, 100, 400, 1, 2
	c.Hidden, c.Window, c.Steps, c.BatchSize, c.SaveEvery, c.TrainThreads = 16, 10_000, 20, 64, 5, 1
	c.GateNodes, c.GatePairs, c.AnchorPairs, c.Holdout, c.Seed = 300, 3, 2, 0.5, 3
	return c
}

func TestRunEndToEnd(t *testing.T) {
	dir := t.TempDir()
	cfg := tiny(t)
	cfg.AnchorNet = "default"
	cfg, err := Prepare(dir, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Run(context.Background(), dir, cfg, Options{Progress: &out, Warnings: &out}); err != nil {
		t.Fatal(err)
	}
	lines, skipped, err := ReadMetrics(dir)
	if err != nil || skipped != 0 || len(lines) != 2 {
		t.Fatalf("%d lines, %d skipped, %v; output:\n%s", len(lines), skipped, err, out.String())
	}
	for g, m := range lines {
		if m.Generation != g || m.NewPositions < cfg.Positions || m.Gate == nil || m.Arena == nil || len(m.Arena.VsBaselines) != 2 || m.ValidationLoss <= 0 || m.TrainLoss <= 0 {
			t.Fatalf("generation %d: %+v", g, m)
		}
		// The anchors: the hand-written evaluation, then the run's copy
		// of the built-in net, named by its hash.
		raw, _ := os.ReadFile(filepath.Join(dir, AnchorFile))
		sum := sha256.Sum256(raw)
		if got, want := m.Arena.VsBaselines[1].Opponent, "alphabeta-anchor-"+hex.EncodeToString(sum[:6])+":nodes=300"; got != want {
			t.Errorf("generation %d: second anchor %q, want %q", g, got, want)
		}
		if _, err := nnue.Load(filepath.Join(dir, netsDir, m.Net)); err != nil {
			t.Error(err)
		}
		raw, _ = os.ReadFile(filepath.Join(dir, netsDir, m.Net))
		if sum = sha256.Sum256(raw); m.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("generation %d: sha256 %q, its file's is %x", g, m.SHA256, sum)
		}
		if want := map[int]string{0: "", 1: lines[0].Net}[g]; m.Parent != want {
			t.Errorf("generation %d: parent %q, want %q", g, m.Parent, want)
		}
		if _, err := os.Stat((&runner{dir: dir}).statePath(g)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("generation %d left its trainer state: %v", g, err)
		}
	}
	if lines[0].Player != "rules" || lines[1].Positions != lines[0].Positions+lines[1].NewPositions || lines[1].Step != 2*uint64(cfg.Steps) {
		t.Errorf("lines: %+v", lines)
	}
	// Done: a rerun does nothing; more generations go on.
	out.Reset()
	if err := Run(context.Background(), dir, cfg, Options{Progress: &out, Warnings: &out}); err != nil || !strings.Contains(out.String(), "has done 2 of 2") {
		t.Errorf("rerun: %v, %s", err, out.String())
	}
}

// With --td-lambda a run's batches take the λ-returns of the window for
// the games' results, every output of Trench's and Trichess's, and its
// nets differ from the same run's without.
func TestRunTDLambda(t *testing.T) {
	for _, game := range []struct {
		name   string
		config func(testing.TB) Config
		recipe recipe
	}{{trenchName, tiny, trenchRecipe{}}, {trichessName, tinyTrichess, trichessRecipe{}}} {
		if testing.Short() && game.name == trichessName {
			continue // -short: Trichess's runs are the slow ones
		}
		nets := map[float64]string{}
		for _, td := range []float64{0, 0.9} {
			cfg := game.config(t)
			cfg.Generations, cfg.TDLambda, cfg.Lambda = 1, td, 0.5
			dir := tinyRun(t, cfg)
			lines, _, err := ReadMetrics(dir)
			if err != nil || len(lines) != 1 || lines[0].ValidationLoss <= 0 {
				t.Fatalf("%s, td-lambda %v: %+v, %v", game.name, td, lines, err)
			}
			nets[td] = lines[0].SHA256
			if td == 0 {
				continue
			}
			win, err := game.recipe.window(filepath.Join(dir, dataDir), cfg.windowConfig(), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := win.Refresh(); err != nil {
				t.Fatal(err)
			}
			b := win.sample(rand.New(rand.NewPCG(1, 2)), 300)
			differ, n := 0, 0
			for i := range b.Len() {
				for j := range b.Outputs() {
					ret, _ := b.Target(i, j)
					if !(ret >= 0 && ret <= 1) {
						t.Fatalf("%s: example %d, output %d: return %v", game.name, i, j, ret)
					}
					if r, _ := b.(withReturns).Batch.Target(i, j); r != ret {
						differ++
					}
					n++
				}
			}
			if differ < n/2 {
				t.Errorf("%s: %d of %d targets are not their game's result", game.name, differ, n)
			}
			if v := win.validation(50); v.Len() == 0 {
				t.Errorf("%s: no held-out examples", game.name)
			} else if _, ok := v.(withReturns); !ok {
				t.Errorf("%s: validation batch %T, want one with returns", game.name, v)
			}
		}
		if nets[0] == nets[0.9] {
			t.Errorf("%s: the nets with and without --td-lambda are the same (%s)", game.name, nets[0])
		}
	}
}

// TestTrainConfigLate checks that generations from --late-from on train
// at the late learning rate and λ, and the others at --lr and --lambda.
func TestTrainConfigLate(t *testing.T) {
	c := tiny(t)
	c.LearningRate, c.Lambda, c.LateLR, c.LateLambda = 1e-3, 0.3, 1e-4, 0.1
	for _, tc := range []struct {
		from, g    int
		lr, lambda float64
	}{
		{0, 0, 1e-3, 0.3},
		{0, 30, 1e-3, 0.3},
		{3, 0, 1e-3, 0.3},
		{3, 2, 1e-3, 0.3},
		{3, 3, 1e-4, 0.1},
		{3, 30, 1e-4, 0.1},
	} {
		c.LateFrom = tc.from
		got := c.TrainConfig(tc.g)
		if got.LearningRate != tc.lr || got.Lambda != tc.lambda {
			t.Errorf("late-from %d, generation %d: lr %v, λ %v; want %v, %v", tc.from, tc.g, got.LearningRate, got.Lambda, tc.lr, tc.lambda)
		}
	}
}

// TestRunLateSettings checks that a run with --late-from 1 trains its
// generation 0 as a run without, and its generation 1 otherwise.
func TestRunLateSettings(t *testing.T) {
	nets := map[int][]string{}
	for _, from := range []int{0, 1} {
		cfg := tiny(t)
		cfg.LateFrom, cfg.LateLR, cfg.LateLambda = from, cfg.LearningRate/10, 0
		lines, _, err := ReadMetrics(tinyRun(t, cfg))
		if err != nil || len(lines) != 2 {
			t.Fatalf("late-from %d: %+v, %v", from, lines, err)
		}
		nets[from] = []string{lines[0].SHA256, lines[1].SHA256}
	}
	if nets[0][0] != nets[1][0] {
		t.Errorf("generation 0 differs with --late-from 1: %s, %s", nets[0][0], nets[1][0])
	}
	if nets[0][1] == nets[1][1] {
		t.Errorf("generation 1 is the same with --late-from 1: %s", nets[0][1])
	}
}

// TestRunTriesTheAnchor checks the gate's second way once the run reaches
// it: for a new net the head-to-head left level, the player plays the
// hand-written evaluation and the run's anchor net on the new net's
// openings, and the comparison of the two decides and is saved.
func TestRunTriesTheAnchor(t *testing.T) {
	dir := t.TempDir()
	cfg := tiny(t)
	cfg.GateAnchorZ, cfg.AnchorNet = 0.1, "default"
	var out strings.Builder
	r := &runner{dir: dir, cfg: cfg, opt: Options{Progress: &out, Warnings: &out}, recipe: trenchRecipe{}, start: time.Now(), playerName: "rules"}
	var err error
	if r.fixed, err = r.loadAnchorNet(); err != nil {
		t.Fatal(err)
	}
	// The run keeps its own copy: a changed --anchor-net does not move it.
	again := *r
	again.cfg.AnchorNet = "no/such/net.nnue"
	if f, err := again.loadAnchorNet(); err != nil || f.name != r.fixed.name || !strings.HasPrefix(f.name, "alphabeta-anchor-") {
		t.Fatalf("anchor net reloaded as %+v, %v; first %s", f, err, r.fixed.name)
	}
	loader := players.NewLoader(trenchGame())
	defer loader.Close()
	anchors, err := cfg.anchors(trenchRecipe{}, loader, r.fixed)
	if err != nil {
		t.Fatal(err)
	}
	if len(anchors) != 2 || !anchors[0].gates || !anchors[1].gates || anchors[1].opponent.Name != r.fixed.name+":nodes=300" {
		t.Fatalf("anchors %+v", anchors)
	}
	hand, fixed := anchors[0].opponent.Name, anchors[1].opponent.Name
	level := arena.Standing{PairElo: arena.Interval{Low: -200, High: 200}}
	for _, tc := range []struct {
		name string
		cand []float64 // the new net's pairs against each anchor
	}{
		{"lost every game", []float64{0, 0}},
		{"won every game", []float64{2, 2}},
	} {
		prog := progress{Gate: &Gate{Decision: "undecided"}, GateStanding: &level, GatePairs: map[string][]float64{hand: tc.cand, fixed: tc.cand}}
		if err := r.anchorGate(context.Background(), 0, anchors, &prog); err != nil {
			t.Fatal(err)
		}
		c := prog.Gate.Anchor
		if c == nil || c.Pairs != 2*cfg.AnchorPairs || prog.Gate.Accepted != c.Better || len(prog.Gate.ByAnchor) != 2 || c.Opponent != hand+" and "+fixed {
			t.Fatalf("%s: gate %+v, comparison %+v", tc.name, prog.Gate, c)
		}
		saved, err := loadProgress(dir, 0)
		if err != nil || saved.Gate.Anchor == nil || *saved.Gate.Anchor != *c || len(saved.Gate.ByAnchor) != 2 {
			t.Errorf("%s: saved %+v, %v", tc.name, saved.Gate, err)
		}
		t.Logf("%s: %+v", tc.name, c)
	}
	for _, want := range []string{
		"rules at nodes=300 a move against alphabeta-hand:nodes=300, on the same 2 pairs",
		"rules at nodes=300 a move against " + fixed + ", on the same 2 pairs",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// Played once: a resumed generation keeps the comparison.
	prog, _ := loadProgress(dir, 0)
	out.Reset()
	if err := r.anchorGate(context.Background(), 0, anchors, &prog); err != nil || out.Len() != 0 {
		t.Errorf("played again: %v, %q", err, out.String())
	}
}

// TestRunResumes stops a run in every phase (a cancelled context), then
// resumes it, and checks that it ends as a run never stopped does.
func TestRunResumes(t *testing.T) {
	cfg := tiny(t)
	cfg.Generations = 1
	whole := t.TempDir()
	if _, err := Prepare(whole, cfg, nil); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), whole, cfg, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	want, _, _ := ReadMetrics(whole)

	dir := t.TempDir()
	if _, err := Prepare(dir, cfg, nil); err != nil {
		t.Fatal(err)
	}
	// Stop as each phase starts: its line is the signal. The time each
	// stopped process ran counts in the run's clock.
	var ran time.Duration
	for _, phase := range []string{"training", "gate", "anchor"} {
		ctx, cancel := context.WithCancel(context.Background())
		w := &cancelOn{phase: phase, cancel: cancel}
		start := time.Now()
		if err := Run(ctx, dir, cfg, Options{Progress: w, Warnings: io.Discard}); err != nil {
			t.Fatal(err)
		}
		ran += time.Since(start)
		cancel()
		if lines, _, _ := ReadMetrics(dir); len(lines) != 0 {
			t.Fatalf("stopped at %s: a metrics line was written", phase)
		}
	}
	// A temporary file a kill left is removed.
	tmp := filepath.Join(dir, dataDir, ".tmp-shard-x.pos-123")
	if err := os.WriteFile(tmp, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := Run(context.Background(), dir, cfg, Options{Progress: io.Discard, Warnings: io.Discard}); err != nil {
		t.Fatal(err)
	}
	ran += time.Since(start)
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file is still there: %v", err)
	}
	got, _, _ := ReadMetrics(dir)
	if len(got) != 1 || len(want) != 1 {
		t.Fatalf("%d and %d lines", len(got), len(want))
	}
	g, w := got[0], want[0]
	// Each process's time counts, up to the moment between its stop and
	// the progress saved, and the set-up before its clock starts (the
	// lock, the leftovers' removal, the config read): 5% and 25 ms a
	// process, which a loaded machine stretches.
	if slack := 0.05*ran.Seconds() + 0.025*4; g.Elapsed < ran.Seconds()-slack || g.Elapsed > ran.Seconds()+slack {
		t.Errorf("the run's clock says %.3f s; its four processes ran %.3f s", g.Elapsed, ran.Seconds())
	}
	if g.NewPositions != w.NewPositions || g.TrainLoss != w.TrainLoss || g.ValidationLoss != w.ValidationLoss || !reflect.DeepEqual(g.Gate, w.Gate) || *g.Arena.VsPrevious != *w.Arena.VsPrevious {
		t.Errorf("resumed run:\n%+v\nwhole run:\n%+v", g, w)
	}
	a, _ := os.ReadFile(filepath.Join(dir, netsDir, g.Net))
	b, _ := os.ReadFile(filepath.Join(whole, netsDir, w.Net))
	if string(a) != string(b) {
		t.Error("the resumed run's net differs")
	}
}

// cancelOn cancels when a progress line mentions phase.
type cancelOn struct {
	phase  string
	cancel func()
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.phase) {
		c.cancel()
	}
	return len(p), nil
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Config)
		says string
	}{
		{func(c *Config) { c.Preset = "quick" }, "--preset"},
		{func(c *Config) { c.Positions = 0 }, "--positions"},
		{func(c *Config) { c.Hidden = 8 }, "--hidden"},
		{func(c *Config) { c.Window = 0 }, "--window"},
		{func(c *Config) { c.Steps = 0 }, "steps"},
		{func(c *Config) { c.BatchSize = 0 }, "--batch-size"},
		{func(c *Config) { c.Holdout = 1 }, "--holdout"},
		{func(c *Config) { c.SaveEvery = 0 }, "--save-every"},
		{func(c *Config) { c.GateNodes = 0 }, "--gate-nodes"},
		{func(c *Config) { c.GatePairs = 0 }, "--gate-pairs"},
		{func(c *Config) { c.GateElo1 = c.GateElo0 }, "elo1"},
		{func(c *Config) { c.GateAlpha = 0.7 }, "alpha"},
		{func(c *Config) { c.AnchorPairs = 0 }, "--anchor-pairs"},
		{func(c *Config) { c.AnchorMS = -1 }, "--anchor-ms"},
		{func(c *Config) { c.MCTSAnchor = "nosuch" }, "--mcts-anchor"},
		{func(c *Config) { c.Workers = 0 }, "workers"},
		{func(c *Config) { c.HardNodes = 1 }, "hard nodes"},
		{func(c *Config) { c.Lambda = 2 }, "lambda"},
		{func(c *Config) { c.TDLambda = 1 }, "--td-lambda"},
		{func(c *Config) { c.TDLambda, c.Lambda = 0.5, 0 }, "--td-lambda gives the result's part"},
		{func(c *Config) { c.Generations = -1 }, "--generations"},
		{func(c *Config) { c.LateFrom = -1 }, "--late-from"},
		{func(c *Config) { c.LateFrom, c.LateLR = 3, 0 }, "--late-from 3"},
		{func(c *Config) { c.LateFrom, c.LateLambda = 3, 1.5 }, "--late-from 3"},
		{func(c *Config) { c.Game = "go" }, `--game "go"`},
		{func(c *Config) { c.GateLead1 = c.GateLead0 }, "--gate-lead1"},
		{func(c *Config) { c.Game, c.Teacher = "trichess", "default" }, "--teacher"},
		{func(c *Config) { c.Game, c.GateAnchorZ = "trichess", 1 }, "--gate-anchor-z"},
	} {
		c := tiny(t)
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: Validate() = %v", tc.says, err)
		}
		dir := t.TempDir()
		if _, err := Prepare(dir, c, nil); err == nil {
			t.Errorf("%s: Prepare accepted the config", tc.says)
		}
		if holdsNNUE(dir) {
			t.Errorf("%s: Prepare saved a bad config", tc.says)
		}
	}
	if _, err := Preset("quick", "trench"); err == nil {
		t.Error("preset quick accepted")
	}
	if _, err := Preset(PresetName, "go"); err == nil {
		t.Error("game go accepted")
	}
}

// TestAnchorNetErrors checks that a new run refuses an anchor net it
// cannot load, naming the flag, before it writes anything.
func TestAnchorNetErrors(t *testing.T) {
	for _, tc := range []struct {
		game, ref, says string
	}{
		{"trench", "no/such/net.nnue", "--anchor-net"},
		{"trichess", "no/such/trichess.nnue", "--anchor-net"},
	} {
		c, err := Preset(PresetName, tc.game)
		if err != nil {
			t.Fatal(err)
		}
		c.AnchorNet = tc.ref
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := Prepare(dir, c, nil); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s --anchor-net %s: %v, want %q", tc.game, tc.ref, err, tc.says)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s --anchor-net %s: the run directory was made", tc.game, tc.ref)
		}
	}
}

func TestPrepareResumes(t *testing.T) {
	dir := t.TempDir()
	cfg := tiny(t)
	if _, err := Prepare(dir, cfg, nil); err != nil {
		t.Fatal(err)
	}
	if !holdsNNUE(dir) {
		t.Fatal("no saved config")
	}
	other := cfg
	other.Hidden = 32
	if _, err := Prepare(dir, other, []string{"hidden"}); !errors.Is(err, rundir.ErrConflict) {
		t.Errorf("a changed hidden size: %v", err)
	}
	// Unchanged flags take the saved settings.
	got, err := Prepare(dir, other, nil)
	if err != nil || got.Hidden != cfg.Hidden {
		t.Errorf("resumed hidden %d, %v; want the saved %d", got.Hidden, err, cfg.Hidden)
	}
	more := cfg
	more.Generations, more.AnchorMS = 5, 7
	got, err = Prepare(dir, more, []string{"generations", "anchor-ms"})
	if err != nil || got.Generations != 5 || got.AnchorMS != 7 {
		t.Errorf("raised generations: %+v, %v", got, err)
	}
	fewer := cfg
	fewer.AnchorPairs = 7
	if _, err := Prepare(dir, fewer, []string{"anchor-pairs"}); !errors.Is(err, rundir.ErrConflict) {
		t.Errorf("a changed --anchor-pairs, which the gate's second way uses: %v", err)
	}
	again, err := Prepare(dir, cfg, nil)
	if err != nil || again.Generations != 5 {
		t.Errorf("the raised generations were not saved: %d, %v", again.Generations, err)
	}
}

// TestLoadRefReadsRun checks that nnue.LoadRef, which reads a run's
// layout on its own, finds the newest accepted net in metrics lines as
// this package writes them.
func TestLoadRefReadsRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, netsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for g, accepted := range []bool{true, false} {
		n, err := nnue.New(16, uint64(g))
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Save(filepath.Join(dir, netsDir, netName(g))); err != nil {
			t.Fatal(err)
		}
		line, err := json.Marshal(Metrics{Generation: g, Net: netName(g), Gate: &Gate{Accepted: accepted}, Rejected: !accepted})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, line...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.MetricsFile), lines, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, source, err := nnue.LoadRef(dir); err != nil || source != filepath.Join(dir, netsDir, netName(0)) {
		t.Errorf("LoadRef(run) read %q, %v; want generation 0's net, the accepted one", source, err)
	}
}

// TestGateAccepts decides gates as a truncated SPRT: H1, or undecided
// at the last pair with a positive LLR.
func TestGateAccepts(t *testing.T) {
	for _, tc := range []struct {
		decision arena.Decision
		llr      float64
		want     bool
	}{
		{arena.AcceptH1, 2.95, true},
		{arena.AcceptH0, -2.95, false},
		{arena.Continue, 2.33, true},
		{arena.Continue, 0.01, true},
		{arena.Continue, 0, false},
		{arena.Continue, -1.5, false},
	} {
		if got := gateAccepts(arena.SPRTResult{Decision: tc.decision, LLR: tc.llr}); got != tc.want {
			t.Errorf("%s with LLR %g: accepted %v, want %v", tc.decision, tc.llr, got, tc.want)
		}
	}
}

// holdsNNUE tells whether dir holds an NNUE run.
func holdsNNUE(dir string) bool {
	kind, err := rundir.Holds(dir)
	return err == nil && kind == rundir.NNUE
}
