package nn

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gorgonia.org/tensor"

	"trench/checkpoints"
	"trench/engine"
)

// TrainConfig holds the optimizer's settings.
type TrainConfig struct {
	// Rate is the learning-rate schedule.
	Rate Schedule
	// Momentum is the Nesterov momentum coefficient (e.g. 0.9).
	Momentum float64
	// WeightDecay is the L2 coefficient λ: the loss gains λ/2·Σw² over
	// convolution and dense kernels.
	WeightDecay float64
	// ScoreWeight multiplies the score head's squared error.
	ScoreWeight float64
	// BNMomentum is how much each training batch moves the batch-norm
	// running statistics (gorgonia's convention: new = m·batch + (1-m)·old).
	BNMomentum float64
	// Backend computes the gradients: BackendFast (the zero value) or
	// BackendGorgonia, the reference. Both give the same step.
	Backend Backend
	// Threads is how many goroutines the fast backend splits each matrix
	// product over; 0 or 1 means the calling goroutine alone. More help
	// only on idle cores: every product waits for all its parts, so a
	// part whose core is busy (with self-play, say) stalls the step.
	Threads int
}

// Backend is the implementation of a training step's forward and
// backward passes.
type Backend int

const (
	// BackendFast is the hand-written pass on im2col and GEMM, the
	// machinery of Inference.
	BackendFast Backend = iota
	// BackendGorgonia runs a gorgonia graph with automatic
	// differentiation: slower, kept as the reference.
	BackendGorgonia
)

// String is "fast" or "gorgonia".
func (b Backend) String() string {
	switch b {
	case BackendFast:
		return "fast"
	case BackendGorgonia:
		return "gorgonia"
	}
	return fmt.Sprintf("Backend(%d)", int(b))
}

// DefaultTrainConfig returns settings that suit the presets: SGD at 0.02
// with Nesterov momentum 0.9, λ = 1e-4, on the fast backend.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Rate: ConstantRate(0.02), Momentum: 0.9, WeightDecay: 1e-4, ScoreWeight: 0.5, BNMomentum: 0.05}
}

// Batch is one training batch of N positions.
type Batch struct {
	N int
	// Input holds N × Planes×Height×Width features.
	Input []float32
	// Policy holds N × Actions target probabilities, zero on illegal
	// actions, each row summing to 1.
	Policy []float32
	// Value holds N × Seats × 3 target win/draw/loss probabilities (a
	// one-hot row for a known result).
	Value []float32
	// Score holds N × Seats final score differences, in points.
	Score []float32
	// Weight holds N per-sample loss weights; nil means all 1.
	Weight []float32
	// ValueOffset holds N × Seats logit offsets for a net with a value
	// base (Config.ValueBase), nil for one without: seat k's offset o is
	// added to its win logit and subtracted from its loss logit before
	// the softmax, the draw logit unchanged.
	ValueOffset []float32
	// ScoreOffset holds N × Seats score offsets in points for a net with
	// a value base, nil for one without: each is added to the seat's
	// predicted score.
	ScoreOffset []float32
	// PolicyOffset holds N × Actions logit offsets for a net with a
	// policy base (Config.PolicyBase), nil for one without: each is added
	// to its action's logit before the softmax.
	PolicyOffset []float32
}

// Losses are one step's weighted mean losses, before the update.
type Losses struct {
	Policy, Value, Score, L2, Total float64
}

// Trainer owns a net's weights and trains them with the backend its
// TrainConfig names. It is not safe for concurrent use; hand search a
// snapshot (Inference).
type Trainer struct {
	cfg          Config
	tc           TrainConfig
	trainedSpecs []paramSpec
	params       []*tensor.Dense // trained parameters, gorgonia shapes
	velocity     [][]float32     // momentum buffers, one per param
	bnMean       []*tensor.Dense // running statistics, one per BN layer
	bnVar        []*tensor.Dense
	step         uint64
	train, eval  map[int]*graph
	fast         *fastTrainer // built by the first fast step
	threads      int          // goroutines asked of the fast backend (SetThreads; matmuls.use bounds it)
}

// NewTrainer starts training from a copy of w.
func NewTrainer(w *Weights, tc TrainConfig) (*Trainer, error) {
	if err := w.check("weights"); err != nil {
		return nil, err
	}
	if tc.Rate == nil {
		return nil, errors.New("nn: TrainConfig.Rate is nil")
	}
	if !(tc.BNMomentum > 0 && tc.BNMomentum <= 1) {
		return nil, fmt.Errorf("nn: BN momentum %v must be in (0, 1]", tc.BNMomentum)
	}
	if tc.Backend != BackendFast && tc.Backend != BackendGorgonia {
		return nil, fmt.Errorf("nn: unknown training backend %v", tc.Backend)
	}
	if tc.Threads < 0 {
		return nil, fmt.Errorf("nn: %d training threads", tc.Threads)
	}
	t := &Trainer{cfg: w.Config, tc: tc, train: map[int]*graph{}, eval: map[int]*graph{}, threads: tc.Threads}
	for i, s := range w.Config.specs() {
		data := slices.Clone(w.Tensors[i].Data)
		switch s.kind {
		case kindBNMean:
			t.bnMean = append(t.bnMean, tensor.New(tensor.WithShape(len(data)), tensor.WithBacking(data)))
			continue
		case kindBNVar:
			t.bnVar = append(t.bnVar, tensor.New(tensor.WithShape(len(data)), tensor.WithBacking(data)))
			continue
		}
		shape := s.shape
		switch s.kind {
		case kindBNScale, kindBNBias:
			shape = []int{1, s.shape[0], 1, 1}
		case kindBias:
			shape = []int{1, s.shape[0]}
		}
		t.trainedSpecs = append(t.trainedSpecs, s)
		t.params = append(t.params, tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data)))
		t.velocity = append(t.velocity, make([]float32, len(data)))
	}
	return t, nil
}

// Config returns the architecture.
func (t *Trainer) Config() Config { return t.cfg }

// Steps returns the number of optimizer steps taken.
func (t *Trainer) Steps() uint64 { return t.step }

// Weights returns a copy of the current weights and running statistics.
func (t *Trainer) Weights() *Weights {
	w := &Weights{Config: t.cfg}
	p, bn := 0, 0
	for _, s := range t.cfg.specs() {
		var data []float32
		switch s.kind {
		case kindBNMean:
			data = t.bnMean[bn].Float32s()
		case kindBNVar:
			data = t.bnVar[bn].Float32s()
			bn++
		default:
			data = t.params[p].Float32s()
			p++
		}
		w.Tensors = append(w.Tensors, checkpoints.Tensor{Name: s.name, Shape: slices.Clone(s.shape), Data: slices.Clone(data)})
	}
	return w
}

// Inference returns a fast forward pass over a snapshot of the current
// weights; later steps do not change it.
func (t *Trainer) Inference() (*Inference, error) { return NewInference(t.Weights()) }

func (t *Trainer) graphFor(n int, train bool) (*graph, error) {
	m := t.eval
	if train {
		m = t.train
	}
	if gr := m[n]; gr != nil {
		return gr, nil
	}
	gr, err := t.build(n, train)
	if err != nil {
		return nil, err
	}
	m[n] = gr
	return gr, nil
}

func (b *Batch) check(c Config) error {
	n := b.N
	switch {
	case n <= 0:
		return fmt.Errorf("nn: batch of %d positions", n)
	case len(b.Input) != n*c.Shape.Size():
		return fmt.Errorf("nn: batch input has %d values, want %d×%d", len(b.Input), n, c.Shape.Size())
	case len(b.Policy) != n*c.Actions:
		return fmt.Errorf("nn: batch policy has %d values, want %d×%d", len(b.Policy), n, c.Actions)
	case len(b.Value) != n*c.Seats*3:
		return fmt.Errorf("nn: batch value has %d values, want %d×%d×3", len(b.Value), n, c.Seats)
	case len(b.Score) != n*c.Seats:
		return fmt.Errorf("nn: batch score has %d values, want %d×%d", len(b.Score), n, c.Seats)
	case b.Weight != nil && len(b.Weight) != n:
		return fmt.Errorf("nn: batch weight has %d values, want %d", len(b.Weight), n)
	case c.ValueBase == ValueBaseNone && (b.ValueOffset != nil || b.ScoreOffset != nil):
		return errors.New("nn: batch has value or score offsets; the net has no value base")
	case c.ValueBase != ValueBaseNone && (len(b.ValueOffset) != n*c.Seats || len(b.ScoreOffset) != n*c.Seats):
		return fmt.Errorf("nn: batch has %d value and %d score offsets; the net's value base %q needs %d×%d each",
			len(b.ValueOffset), len(b.ScoreOffset), c.ValueBase, n, c.Seats)
	case c.PolicyBase == PolicyBaseNone && b.PolicyOffset != nil:
		return errors.New("nn: batch has policy offsets; the net has no policy base")
	case c.PolicyBase != PolicyBaseNone && len(b.PolicyOffset) != n*c.Actions:
		return fmt.Errorf("nn: batch has %d policy offsets; the net's policy base %q needs %d×%d",
			len(b.PolicyOffset), c.PolicyBase, n, c.Actions)
	}
	return nil
}

// Step runs one optimizer step on b: forward and backward passes in
// training mode (batch statistics, running statistics updated), then SGD
// with Nesterov momentum and weight decay at the schedule's rate.
func (t *Trainer) Step(b Batch) (Losses, error) {
	if err := b.check(t.cfg); err != nil {
		return Losses{}, err
	}
	var l Losses
	var grads [][]float32
	var err error
	if t.tc.Backend == BackendGorgonia {
		l, grads, err = t.gorgoniaGradients(&b)
	} else {
		l, grads, err = t.fastGradients(&b)
	}
	if err != nil {
		return Losses{}, err
	}
	lr := t.tc.Rate.Rate(t.step)
	mu, wd := float32(t.tc.Momentum), float32(t.tc.WeightDecay)
	var l2 float64
	for i, grad := range grads {
		w, vel := t.params[i].Float32s(), t.velocity[i]
		decay := float32(0)
		if k := t.trainedSpecs[i].kind; k == kindConv || k == kindDense {
			decay = wd
			for _, x := range w {
				l2 += float64(x) * float64(x)
			}
		}
		step := float32(lr)
		for j, g := range grad {
			g += decay * w[j]
			v := mu*vel[j] + g
			vel[j] = v
			w[j] -= step * (g + mu*v)
		}
		if t.tc.Backend == BackendGorgonia {
			// gorgonia adds each run's gradients to the last ones.
			clear(grad)
		}
	}
	l.L2 = 0.5 * t.tc.WeightDecay * l2
	l.Total = l.Policy + l.Value + t.tc.ScoreWeight*l.Score + l.L2
	t.step++
	if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) {
		return l, fmt.Errorf("nn: step %d: loss is %v", t.step, l.Total)
	}
	return l, nil
}

// SetThreads splits each matrix product of the fast backend's later
// steps over n goroutines, at least one and at most TrainConfig.Threads
// (the goroutines made for it), so that a trainer can take the cores that
// other work leaves idle and give them back. It does not change what a
// step computes.
func (t *Trainer) SetThreads(n int) { t.threads = n }

// fastGradients runs the fast backend's forward and backward passes.
func (t *Trainer) fastGradients(b *Batch) (Losses, [][]float32, error) {
	if t.fast == nil {
		f, err := newFastTrainer(t)
		if err != nil {
			return Losses{}, nil, err
		}
		stopWith(t, f.mm)
		t.fast = f
	}
	t.fast.mm.use(t.threads)
	return t.fast.step(b, float32(t.tc.ScoreWeight)), t.fast.grads, nil
}

// gorgoniaGradients runs the gorgonia graph of b's batch size.
func (t *Trainer) gorgoniaGradients(b *Batch) (Losses, [][]float32, error) {
	gr, err := t.graphFor(b.N, true)
	if err != nil {
		return Losses{}, nil, err
	}
	copy(gr.xv.Float32s(), b.Input)
	copy(gr.policyTV.Float32s(), b.Policy)
	copy(gr.valueTV.Float32s(), b.Value)
	st := gr.scoreTV.Float32s()
	for i, v := range b.Score {
		st[i] = v / t.cfg.ScoreScale
	}
	vo, so := gr.valueOffsetV.Float32s(), gr.scoreOffsetV.Float32s()
	clear(vo)
	clear(so)
	if b.ValueOffset != nil {
		for i, o := range b.ValueOffset {
			vo[3*i], vo[3*i+2] = o, -o
			so[i] = b.ScoreOffset[i] / t.cfg.ScoreScale
		}
	}
	if gr.policyOffsetV != nil {
		copy(gr.policyOffsetV.Float32s(), b.PolicyOffset)
	}
	wv := gr.weightV.Float32s()
	for i := range wv {
		wv[i] = 1 / float32(b.N)
		if b.Weight != nil {
			wv[i] = b.Weight[i] / float32(b.N)
		}
	}
	if err := t.run(gr); err != nil {
		return Losses{}, nil, err
	}
	grads := make([][]float32, len(gr.params))
	for i, nd := range gr.params {
		gv, err := nd.Grad()
		if err != nil {
			return Losses{}, nil, fmt.Errorf("nn: gradient of %s: %w", t.trainedSpecs[i].name, err)
		}
		grads[i] = gv.Data().([]float32)
	}
	l := Losses{
		Policy: float64(gr.policyLoss.Data().(float32)),
		Value:  float64(gr.valueLoss.Data().(float32)),
		Score:  float64(gr.scoreLoss.Data().(float32)),
	}
	return l, grads, nil
}

// EvalForward runs the gorgonia graph in evaluation mode (running
// statistics) on n positions, with the same outputs as Inference.Forward.
// It is slow and allocates; it exists to check the fast pass and to
// compare speeds.
func (t *Trainer) EvalForward(input []float32, n int, policy, value, score []float32) error {
	c := t.cfg
	if n <= 0 || len(input) != n*c.Shape.Size() || len(policy) < n*c.Actions || len(value) < n*c.Seats*3 || len(score) < n*c.Seats {
		return fmt.Errorf("nn: EvalForward of %d positions: wrong buffer sizes", n)
	}
	gr, err := t.graphFor(n, false)
	if err != nil {
		return err
	}
	copy(gr.xv.Float32s(), input)
	if err := t.run(gr); err != nil {
		return err
	}
	copy(policy, gr.policyOut.Data().([]float32))
	wdl := gr.valueOut.Data().([]float32)
	for g := 0; g < n*c.Seats; g++ {
		softmax3(wdl[3*g:3*g+3], value[3*g:3*g+3])
	}
	for i, v := range gr.scoreOut.Data().([]float32) {
		score[i] = v * c.ScoreScale
	}
	return nil
}

// optimizerPrefix names momentum buffers in a checkpoint.
const optimizerPrefix = "momentum/"

// Checkpoint returns a checkpoint of the current weights, running
// statistics, momentum buffers and step count; the caller fills in games,
// positions and parent.
func (t *Trainer) Checkpoint() (*checkpoints.Checkpoint, error) {
	c, err := t.Weights().Checkpoint()
	if err != nil {
		return nil, err
	}
	c.Step = t.step
	for i, s := range t.trainedSpecs {
		c.Optimizer = append(c.Optimizer, checkpoints.Tensor{Name: optimizerPrefix + s.name, Shape: slices.Clone(s.shape), Data: slices.Clone(t.velocity[i])})
	}
	return c, nil
}

// NewTrainerFromCheckpoint resumes training from c: weights, running
// statistics, step count and, when present, momentum buffers.
func NewTrainerFromCheckpoint(c *checkpoints.Checkpoint, tc TrainConfig) (*Trainer, error) {
	w, err := WeightsFromCheckpoint(c, engine.Shape{}, 0)
	if err != nil {
		return nil, err
	}
	t, err := NewTrainer(w, tc)
	if err != nil {
		return nil, err
	}
	t.step = c.Step
	if len(c.Optimizer) == 0 {
		return t, nil
	}
	for i, s := range t.trainedSpecs {
		m := checkpoints.Find(c.Optimizer, optimizerPrefix+s.name)
		if m == nil || !slices.Equal(m.Shape, s.shape) {
			return nil, fmt.Errorf("%s: %w: momentum buffer of %q missing or misshapen", c.Path, checkpoints.ErrShape, s.name)
		}
		if err := finite(*m, false); err != nil {
			return nil, fmt.Errorf("%s: %w: %v", c.Path, checkpoints.ErrCorrupt, err)
		}
		copy(t.velocity[i], m.Data)
	}
	return t, nil
}
