// Package bench measures the speed of every hot path of the project on
// this machine: the net's fast forward pass against the BLAS's peak, the
// gorgonia graph, training, search with and without the net, self-play,
// the classical search, and the classical search with each of its
// evaluations side by side, and the tree search's leaves valued by the
// NNUE. "trench bench" prints its report.
package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"

	"trench/arena"
	"trench/bot"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
	"trench/neteval"
	"trench/nn"
	"trench/nn/gemm"
	"trench/searchconfig"
	"trench/selfplay"
	"trench/tactics"
)

// Options choose what to measure and for how long.
type Options struct {
	// Game is the game whose positions are searched and encoded.
	Game engine.Game
	// Weights is the net measured.
	Weights *nn.Weights
	// NetName names it in the report (a preset or a checkpoint file).
	NetName string
	// Duration is the time given to each measurement.
	Duration time.Duration
	// Batches are the fast pass's batch sizes.
	Batches []int
	// Progress, if set, receives each figure as it is measured.
	Progress func(Line)
}

// DefaultBatches are the fast pass's batch sizes measured by default.
var DefaultBatches = []int{1, 8, 32, 128, 256}

// SearchGames is the number of games searched at once, one tree each, for
// the search-with-net figure: their leaves make up one batch.
const SearchGames = 32

// Line is one figure of a report.
type Line struct {
	// Name says what was measured, Value and Unit the result.
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Note adds context, e.g. the share of the BLAS's peak.
	Note string `json:"note,omitempty"`
}

// Report is a whole measurement.
type Report struct {
	Game    string `json:"game"`
	Net     string `json:"net"`
	Config  string `json:"net_config"`
	BLAS    string `json:"blas"`
	Threads int    `json:"threads"`
	// MFLOP is the forward pass's work per position, in millions of
	// floating-point operations (two per multiply-add).
	MFLOP float64 `json:"mflop_per_position"`
	Lines []Line  `json:"lines"`
}

// Run measures everything, one figure after another.
func Run(ctx context.Context, o Options) (Report, error) {
	if o.Duration <= 0 {
		return Report{}, errors.New("bench: the duration must be positive")
	}
	if o.Game == nil || o.Weights == nil {
		return Report{}, errors.New("bench: no game or no net")
	}
	if len(o.Batches) == 0 {
		o.Batches = DefaultBatches
	}
	cfg := o.Weights.Config
	r := Report{
		Game: o.Game.Name(), Net: o.NetName, Config: cfg.String(), BLAS: nn.BLAS,
		Threads: runtime.GOMAXPROCS(0), MFLOP: float64(cfg.FLOPs()) / 1e6,
	}
	add := func(l Line) {
		r.Lines = append(r.Lines, l)
		if o.Progress != nil {
			o.Progress(l)
		}
	}
	inf, err := nn.NewInference(o.Weights)
	if err != nil {
		return r, err
	}
	// Self-play's evaluator has no cache; play's (neteval.New, below)
	// has one.
	ev, err := neteval.NewWithScoreUtility(o.Game, inf, neteval.DefaultScoreUtility)
	if err != nil {
		return r, fmt.Errorf("bench: %w", err)
	}
	peak := sgemmPeak(ctx, nn.MatMul, o.Duration)
	add(Line{Name: "SGEMM peak, one core (1024×1024×1024)", Value: peak, Unit: "GFLOP/s", Note: nn.BLAS})
	for _, other := range otherSGEMMs() {
		if ctx.Err() != nil {
			break
		}
		gf := sgemmPeak(ctx, other.mul, o.Duration)
		add(Line{Name: "SGEMM peak, one core, " + other.name, Value: gf, Unit: "GFLOP/s",
			Note: fmt.Sprintf("%.0f%% of %s's", 100*gf/peak, nn.BLAS)})
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	states := samplePositions(o.Game, 256)
	for _, b := range o.Batches {
		pps := forwardSpeed(ctx, inf, o.Game, states, b, o.Duration)
		gf := pps * float64(cfg.FLOPs()) / 1e9
		add(Line{Name: fmt.Sprintf("fast pass, batch %d, one core", b), Value: pps, Unit: "positions/s",
			Note: fmt.Sprintf("%.1f GFLOP/s, %.0f%% of the SGEMM peak", gf, 100*gf/peak)})
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	gorg, train, err := trainerSpeeds(ctx, o.Weights, o.Game, states, o.Duration)
	if err != nil {
		return r, err
	}
	add(Line{Name: "gorgonia graph inference, batch 32", Value: gorg, Unit: "positions/s"})
	add(Line{Name: "training, batch 256 (gorgonia)", Value: train, Unit: "samples/s"})
	fast, err := trainSpeed(ctx, o.Weights, o.Game, states, nn.BackendFast, 1, o.Duration)
	if err != nil {
		return r, err
	}
	add(Line{Name: "training, batch 256 (fast)", Value: fast, Unit: "samples/s",
		Note: fmt.Sprintf("one core, %.1f× gorgonia", fast/train)})
	if cores := runtime.GOMAXPROCS(0); cores > 1 {
		all, err := trainSpeed(ctx, o.Weights, o.Game, states, nn.BackendFast, cores, o.Duration)
		if err != nil {
			return r, err
		}
		add(Line{Name: "training, batch 256 (fast, every core)", Value: all, Unit: "samples/s",
			Note: fmt.Sprintf("%d threads, %.2f× one core, as trench train --no-selfplay", cores, all/fast)})
	}
	uni, err := searchSpeed(ctx, o.Game, mcts.UniformEvaluator{}, 1, o.Duration)
	if err != nil {
		return r, err
	}
	add(Line{Name: "search, uniform evaluator, one tree", Value: uni.sims, Unit: "simulations/s"})
	withNet, err := searchSpeed(ctx, o.Game, ev, SearchGames, o.Duration)
	if err != nil {
		return r, err
	}
	add(Line{Name: fmt.Sprintf("search with the net, %d games × batch", SearchGames), Value: withNet.sims, Unit: "simulations/s",
		Note: fmt.Sprintf("mean batch %.1f", withNet.batch)})
	add(Line{Name: "search with the net: time outside the net", Value: 100 * withNet.outsideNet, Unit: "%",
		Note: fmt.Sprintf("%.1f%% in the trees, %.1f%% encoding states and decoding outputs",
			100*withNet.outsideEval, 100*(withNet.outsideNet-withNet.outsideEval))})
	// Games whose pieces have values are searched and self-played with
	// the tactical aids, as trench train and play do.
	var spEval mcts.Evaluator = ev
	spNote := ""
	if _, ok := o.Game.Start().(engine.Captures); ok {
		add(Line{Name: "capture search at a leaf (tactics), one core", Value: resolveSpeed(ctx, states, o.Duration), Unit: "leaves/s"})
		chained, _ := neteval.Chain(o.Game, ev, nil, tactics.Play, false)
		aided, err := searchSpeed(ctx, o.Game, chained, SearchGames, o.Duration)
		if err != nil {
			return r, err
		}
		add(Line{Name: fmt.Sprintf("search with the net and tactical aids, %d games × batch", SearchGames), Value: aided.sims, Unit: "simulations/s",
			Note: tactics.Play.String()})
		spEval, spNote = chained, "with the tactical aids, as trench train"
	}
	// One tree searched by 1 and then 2 threads, as trench play searches
	// (with the tactical aids where the game has them).
	var one float64
	for _, threads := range []int{1, 2} {
		// Each with an empty cache, as a new game of trench play.
		playEv, err := neteval.New(o.Game, inf)
		if err != nil {
			return r, fmt.Errorf("bench: %w", err)
		}
		playEval, _ := neteval.Chain(o.Game, playEv, nil, tactics.Play, false)
		sims, err := threadedSearchSpeed(ctx, o.Game, playEval, threads, o.Duration)
		if err != nil {
			return r, err
		}
		hits, lookups := playEv.CacheStats()
		cached := fmt.Sprintf("%.0f%% of positions from the net's cache", 100*float64(hits)/float64(max(1, lookups)))
		l := Line{Name: "one-tree search with the net, 1 thread", Value: sims, Unit: "simulations/s", Note: "400 a move, tree kept, " + cached}
		if threads > 1 {
			l.Name = fmt.Sprintf("one-tree search with the net, %d threads", threads)
			l.Note = fmt.Sprintf("%.2f× one thread, %s", sims/one, cached)
		}
		if spNote != "" {
			l.Note += ", with the tactical aids"
		}
		one = sims
		add(l)
	}
	sp, err := selfPlaySpeed(ctx, o.Game, spEval, o.Duration)
	if err != nil {
		return r, err
	}
	add(Line{Name: fmt.Sprintf("self-play, %d workers × 32 games, Gumbel 64/16 simulations", runtime.GOMAXPROCS(0)), Value: sp, Unit: "positions/s",
		Note: spNote})
	if c := games.ClassicalOf(o.Game); c != nil {
		nps, err := c.NodesPerSecond(ctx, o.Duration)
		if err != nil {
			return r, err
		}
		add(Line{Name: c.Name() + " search, one core", Value: nps, Unit: "nodes/s"})
		err = c.EvaluationSpeeds(ctx, o.Duration, func(f plugin.BenchFigure) {
			add(Line{Name: f.Name, Value: f.Value, Unit: f.Unit, Note: f.Note})
		})
		if err != nil {
			return r, err
		}
		for _, v := range []string{searchconfig.ValueNNUE, searchconfig.ValueQNNUE} {
			pps, err := leafValuesSpeed(ctx, o.Game, v, states, o.Duration)
			if err != nil {
				return r, err
			}
			what := "at the leaf"
			if v == searchconfig.ValueQNNUE {
				what = "after quiescence"
			}
			add(Line{Name: fmt.Sprintf("tree leaf, the built-in NNUE's value %s (value=%s), one core", what, v), Value: pps, Unit: "positions/s",
				Note: "with capture-first priors (net=none), one leaf a call"})
		}
	}
	return r, ctx.Err()
}

// leafValuesSpeed is the leaves per second that the tree search's
// evaluator with the leaf values value (searchconfig's value: the
// built-in NNUE's) and no net evaluates on one core, one a call as a
// thread of the search does, over states, for d.
func leafValuesSpeed(ctx context.Context, g engine.Game, value string, states []engine.State, d time.Duration) (float64, error) {
	c := searchconfig.Arena()
	c.Net, c.Value = searchconfig.NoNet, value
	values, err := bot.Values(g, c)
	if err != nil {
		return 0, err
	}
	ev, _ := neteval.Chain(g, tactics.Fallback{}, values, tactics.Settings{}, false)
	acts := make([][]int, len(states))
	for i, s := range states {
		acts[i] = s.LegalActions(nil)
	}
	one, out := make([]engine.State, 1), make([]mcts.Evaluation, 1)
	start, n := time.Now(), 0
	for ctx.Err() == nil && (time.Since(start) < d || n == 0) {
		for i, s := range states {
			one[0], out[0].Actions = s, acts[i]
			if err := ev.Evaluate(one, out); err != nil {
				return 0, err
			}
			n++
		}
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// resolveSpeed is the capture searches (tactics.Resolve) per second on one
// core over states, for d.
func resolveSpeed(ctx context.Context, states []engine.State, d time.Duration) float64 {
	start := time.Now()
	n := 0
	for ctx.Err() == nil && (time.Since(start) < d || n == 0) {
		for _, s := range states {
			if !s.Over() {
				tactics.Resolve(s)
				n++
			}
		}
	}
	return float64(n) / time.Since(start).Seconds()
}

// matMul sets c (m×n) = a (m×k) · b (k×n), row-major, as nn.MatMul.
type matMul func(m, n, k int, a, b, c []float32)

// namedSGEMM is a matrix product measured beside the build's BLAS.
type namedSGEMM struct {
	name string
	mul  matMul
}

// otherSGEMMs are the products measured beside the build's BLAS, so that
// their ratios come from one run: the project's kernel (package gemm)
// when the build's BLAS is another, and gonum's pure-Go SGEMM.
func otherSGEMMs() []namedSGEMM {
	var out []namedSGEMM
	if kernel := "trench-" + gemm.Path(); nn.BLAS != kernel {
		out = append(out, namedSGEMM{kernel, func(m, n, k int, a, b, c []float32) {
			gemm.Sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
		}})
	}
	return append(out, namedSGEMM{"gonum", gonumOneCore})
}

// gonumOneCore is gonum's SGEMM on the calling goroutine: in tiles of
// 64×128 outputs, small enough that gonum does not split them across
// goroutines, as the default build multiplied before it had its own
// kernel.
func gonumOneCore(m, n, k int, a, b, c []float32) {
	var impl gonumblas.Implementation
	const tm, tn = 64, 128
	for i := 0; i < m; i += tm {
		mi := min(tm, m-i)
		for j := 0; j < n; j += tn {
			impl.Sgemm(blas.NoTrans, blas.NoTrans, mi, min(tn, n-j), k, 1, a[i*k:], k, b[j:], n, 0, c[i*n+j:], n)
		}
	}
}

// sgemmPeak is the GFLOP/s of 1024×1024 products with mul.
func sgemmPeak(ctx context.Context, mul matMul, d time.Duration) float64 {
	const n = 1024
	a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = float32(i%7)/7, float32(i%5)/5
	}
	mul(n, n, n, a, b, c) // warm up
	start, runs := time.Now(), 0
	for runs == 0 || time.Since(start) < d && ctx.Err() == nil {
		mul(n, n, n, a, b, c)
		runs++
	}
	return float64(runs) * 2 * n * n * n / time.Since(start).Seconds() / 1e9
}

// samplePositions plays random games from the start and keeps n of their
// positions, so the measurements see varied boards.
func samplePositions(g engine.Game, n int) []engine.State {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []engine.State
	s := g.Start()
	for len(out) < n {
		if s.Over() {
			s = g.Start()
		}
		out = append(out, s.Clone())
		acts := s.LegalActions(nil)
		s.Play(acts[rng.IntN(len(acts))])
	}
	return out
}

// encode writes the features of the first n states, cycling through them.
func encode(g engine.Game, states []engine.State, n int) []float32 {
	fs := g.FeatureShape().Size()
	in := make([]float32, n*fs)
	for i := 0; i < n; i++ {
		states[i%len(states)].EncodeFeatures(in[i*fs : (i+1)*fs])
	}
	return in
}

// forwardSpeed is the fast pass's positions/s at batch b on one goroutine.
func forwardSpeed(ctx context.Context, inf *nn.Inference, g engine.Game, states []engine.State, b int, d time.Duration) float64 {
	c := inf.Config()
	in := encode(g, states, b)
	pol, val, sc := make([]float32, b*c.Actions), make([]float32, b*c.Seats*3), make([]float32, b*c.Seats)
	ws := new(nn.Workspace)
	inf.ForwardWith(ws, in, b, pol, val, sc)
	start, runs := time.Now(), 0
	for runs == 0 || time.Since(start) < d && ctx.Err() == nil {
		inf.ForwardWith(ws, in, b, pol, val, sc)
		runs++
	}
	return float64(runs*b) / time.Since(start).Seconds()
}

// trainerSpeeds measures the gorgonia graph: inference at batch 32 and
// training steps at batch 256 on random targets.
func trainerSpeeds(ctx context.Context, w *nn.Weights, g engine.Game, states []engine.State, d time.Duration) (infer, train float64, err error) {
	tc := nn.DefaultTrainConfig()
	tc.Backend = nn.BackendGorgonia
	t, err := nn.NewTrainer(w.Clone(), tc)
	if err != nil {
		return 0, 0, err
	}
	c := w.Config
	in := encode(g, states, 32)
	pol, val, sc := make([]float32, 32*c.Actions), make([]float32, 32*c.Seats*3), make([]float32, 32*c.Seats)
	start, runs := time.Now(), 0
	for runs < 2 || time.Since(start) < d && ctx.Err() == nil {
		if err := t.EvalForward(in, 32, pol, val, sc); err != nil {
			return 0, 0, err
		}
		runs++
	}
	infer = float64(runs*32) / time.Since(start).Seconds()
	train, err = trainSpeed(ctx, w, g, states, nn.BackendGorgonia, 1, d)
	return infer, train, err
}

// trainSpeed is the samples/s of training steps at batch 256 on random
// targets with that backend, the fast one on that many goroutines.
func trainSpeed(ctx context.Context, w *nn.Weights, g engine.Game, states []engine.State, backend nn.Backend, threads int, d time.Duration) (float64, error) {
	tc := nn.DefaultTrainConfig()
	tc.Backend, tc.Threads = backend, threads
	t, err := nn.NewTrainer(w.Clone(), tc)
	if err != nil {
		return 0, err
	}
	const n = 256
	b := trainBatch(w.Config, g, states, n)
	if _, err := t.Step(b); err != nil { // builds the graph or sizes the buffers
		return 0, err
	}
	start, runs := time.Now(), 0
	for runs == 0 || time.Since(start) < d && ctx.Err() == nil {
		if _, err := t.Step(b); err != nil {
			return 0, err
		}
		runs++
	}
	return float64(runs*n) / time.Since(start).Seconds(), nil
}

// trainBatch is a training batch of n of states (cycled) with random
// one-hot policy and value targets, zero score targets and the offsets
// the net's bases need.
func trainBatch(c nn.Config, g engine.Game, states []engine.State, n int) nn.Batch {
	b := nn.Batch{N: n, Input: encode(g, states, n), Policy: make([]float32, n*c.Actions),
		Value: make([]float32, n*c.Seats*3), Score: make([]float32, n*c.Seats)}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < n; i++ {
		b.Policy[i*c.Actions+rng.IntN(c.Actions)] = 1
		for k := 0; k < c.Seats; k++ {
			b.Value[(i*c.Seats+k)*3+rng.IntN(3)] = 1
		}
	}
	setBaseOffsets(&b, c, states)
	return b
}

// setBaseOffsets gives b the offsets its net's value and policy bases
// need, computed as training computes them from b's positions (the
// states, cycled as encode cycles them).
func setBaseOffsets(b *nn.Batch, c nn.Config, states []engine.State) {
	if c.ValueBase != nn.ValueBaseNone {
		b.ValueOffset, b.ScoreOffset = make([]float32, b.N*c.Seats), make([]float32, b.N*c.Seats)
		var leads []float32
		for i := 0; i < b.N; i++ {
			leads = tactics.ValueOffsets(states[i%len(states)], b.ValueOffset[i*c.Seats:(i+1)*c.Seats],
				b.ScoreOffset[i*c.Seats:(i+1)*c.Seats], leads)
		}
	}
	if c.PolicyBase != nn.PolicyBaseNone {
		b.PolicyOffset = make([]float32, b.N*c.Actions)
		var sc tactics.PolicyScratch
		for i := 0; i < b.N; i++ {
			tactics.PolicyOffsetRow(states[i%len(states)], 0, b.PolicyOffset[i*c.Actions:(i+1)*c.Actions], &sc)
		}
	}
}

// searchResult is a search measurement: simulations/s, the mean batch
// evaluated, and the shares of the time spent outside the evaluator and
// outside the net itself (when the evaluator reports its net's time).
type searchResult struct{ sims, batch, outsideEval, outsideNet float64 }

// netTimer is an evaluator that reports the time spent in its net, as
// neteval.Evaluator does.
type netTimer interface{ NetTime() time.Duration }

// timedEvaluator adds up the time spent in its evaluator and the states
// it evaluated.
type timedEvaluator struct {
	mcts.Evaluator
	spent        time.Duration
	calls, evals int
}

func (e *timedEvaluator) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	start := time.Now()
	err := e.Evaluator.Evaluate(states, out)
	e.spent += time.Since(start)
	e.calls++
	e.evals += len(states)
	return err
}

// searchSpeed searches games trees at once, 64 simulations a move, playing
// the chosen moves and restarting finished games, for d.
func searchSpeed(ctx context.Context, g engine.Game, ev mcts.Evaluator, games int, d time.Duration) (searchResult, error) {
	const sims = 64
	timed := &timedEvaluator{Evaluator: ev}
	bs := &mcts.BatchSearch{Evaluator: timed}
	trees := make([]*mcts.Tree, games)
	states := samplePositions(g, games*8)
	for i := range trees {
		t, err := mcts.NewTree(states[i*8], mcts.DefaultParams())
		if err != nil {
			return searchResult{}, err
		}
		trees[i] = t
	}
	var res mcts.Result
	var net0 time.Duration
	nt, timesNet := ev.(netTimer)
	if timesNet {
		net0 = nt.NetTime()
	}
	start, total := time.Now(), 0
	for total == 0 || time.Since(start) < d && ctx.Err() == nil {
		if err := bs.Run(ctx, trees, sims); err != nil {
			if ctx.Err() != nil {
				break
			}
			return searchResult{}, err
		}
		for i, t := range trees {
			total += sims
			if err := t.Result(&res); err != nil {
				return searchResult{}, err
			}
			if err := t.Advance(res.Action); err != nil {
				return searchResult{}, err
			}
			if t.State().Over() {
				t.Reset(states[(i*8+total)%len(states)])
			}
		}
	}
	elapsed := time.Since(start)
	r := searchResult{sims: float64(total) / elapsed.Seconds(), outsideEval: 1 - timed.spent.Seconds()/elapsed.Seconds()}
	if timed.calls > 0 {
		r.batch = float64(timed.evals) / float64(timed.calls)
	}
	r.outsideNet = r.outsideEval
	if timesNet {
		r.outsideNet = 1 - (nt.NetTime()-net0).Seconds()/elapsed.Seconds()
	}
	return r, nil
}

// threadedSearchSpeed plays a game with one tree searched by threads
// goroutines, 400 simulations a move as at level 6, keeping the tree, for
// d (a search still running then is cut short and its simulations
// counted), and returns simulations/s.
func threadedSearchSpeed(ctx context.Context, g engine.Game, ev mcts.Evaluator, threads int, d time.Duration) (float64, error) {
	const sims = 400
	// Games start from random openings, as in arena matches, so that a
	// game played again does not come from the net's cache.
	rng := rand.New(rand.NewPCG(1, 2))
	tree, err := mcts.NewTree(arena.RandomOpening(g, 8, rng), mcts.DefaultParams())
	if err != nil {
		return 0, err
	}
	runCtx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var res mcts.Result
	start, total := time.Now(), 0
	for runCtx.Err() == nil {
		before := 1 // the root's own evaluation is not a simulation
		if tree.Result(&res) == nil {
			before = res.Visits
		}
		err := tree.Search(runCtx, ev, sims, threads)
		if err != nil && runCtx.Err() == nil {
			return 0, err
		}
		if err := tree.Result(&res); err != nil {
			if errors.Is(err, mcts.ErrNotSearched) && runCtx.Err() != nil {
				break
			}
			return 0, err
		}
		total += res.Visits - before
		if err := tree.Advance(res.Action); err != nil {
			return 0, err
		}
		if tree.State().Over() {
			tree.Reset(arena.RandomOpening(g, 8, rng))
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return float64(total) / time.Since(start).Seconds(), nil
}

// selfPlaySpeed runs self-play with the quick preset's search for d, and
// on until it has played a move.
func selfPlaySpeed(ctx context.Context, g engine.Game, ev mcts.Evaluator, d time.Duration) (float64, error) {
	c := selfplay.DefaultConfig()
	c.Workers, c.GamesPerWorker = runtime.GOMAXPROCS(0), 32
	c.FullSims, c.CheapSims, c.FullFraction = 64, 16, 0.25
	c.Search.Algorithm, c.Search.GumbelScale = mcts.Gumbel, 1
	var stats selfplay.Stats
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	net := &selfplay.Net{Name: "bench", Eval: ev}
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		done <- selfplay.Run(runCtx, g, c, func() *selfplay.Net { return net }, func(*selfplay.Game) error { return nil }, &stats)
	}()
	for ctx.Err() == nil && (time.Since(start) < d || stats.Positions.Load() == 0) {
		select {
		case err := <-done:
			return 0, fmt.Errorf("self-play stopped early: %w", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	elapsed := time.Since(start)
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		return 0, err
	}
	return float64(stats.Positions.Load()) / elapsed.Seconds(), nil
}
