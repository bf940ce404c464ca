package bench

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"trench/engine"
	"trench/faces/onnx"
	"trench/internal/excerpt"
	"trench/nn"
)

// The peers' scripts, written to a temporary directory and run there.
//
//go:embed peers/ort.js peers/torch_step.py
var peerScripts embed.FS

// The peers RunPeers compares the project with.
const (
	// PeerONNXRuntime is onnxruntime (through Node's onnxruntime-node)
	// running the net exported by package onnx: the forward pass.
	PeerONNXRuntime = "onnxruntime"
	// PeerPyTorch is PyTorch training the same net: the training step.
	PeerPyTorch = "pytorch"
)

// Peers lists the peers, in the order RunPeers measures them.
var Peers = []string{PeerONNXRuntime, PeerPyTorch}

// ParsePeers reads a comma-separated list of Peers, each once in the
// order first given; an unknown name is an error that quotes it.
func ParsePeers(list string) ([]string, error) {
	var peers []string
	for _, p := range strings.Split(list, ",") {
		if !slices.Contains(Peers, p) {
			return nil, fmt.Errorf("unknown peer %s (want %s)", excerpt.Quote(p), strings.Join(Peers, ", "))
		}
		if !slices.Contains(peers, p) {
			peers = append(peers, p)
		}
	}
	return peers, nil
}

// Defaults of PeerOptions.
var (
	// PeerBatches are the forward pass's batch sizes compared with
	// onnxruntime.
	PeerBatches = []int{1, 32, 256}
	// PeerTrainBatches are the training batch sizes compared with
	// PyTorch: the quick preset's (the shipped nets') and the full one's.
	PeerTrainBatches = []int{128, 256}
)

// PeerRounds is how many times each figure is measured by default, the
// project and the peer in turn (A B A B), so that both see the same
// drift of the machine's load.
const PeerRounds = 2

// lossTolerance is the largest relative difference between the
// project's and PyTorch's losses over the checked steps for which the two
// count as the same net.
const lossTolerance = 1e-3

// PeerOptions choose what RunPeers compares.
type PeerOptions struct {
	// Game is the game whose positions the nets read.
	Game engine.Game
	// Weights is the net measured.
	Weights *nn.Weights
	// NetName names it in the report.
	NetName string
	// Duration is the time given to each measurement of each side.
	Duration time.Duration
	// Rounds is how many times each figure is measured (PeerRounds when
	// zero).
	Rounds int
	// Batches are the forward pass's batch sizes (PeerBatches when nil),
	// TrainBatches the training step's (PeerTrainBatches when nil).
	Batches, TrainBatches []int
	// Peers names the peers compared (Peers when nil).
	Peers []string
	// Progress, if set, receives each row as it is measured.
	Progress func(PeerLine)
}

// Timing is one side's measurement of a figure: seconds per call in each
// round, elapsed and of the process's CPU time on every thread (zero
// where the system does not say).
type Timing struct {
	Wall []float64 `json:"wall_seconds_per_call"`
	CPU  []float64 `json:"cpu_seconds_per_call"`
}

// Best is the shortest time per call over the rounds, elapsed and CPU:
// the round the machine's other work disturbed least.
func (t Timing) Best() (wall, cpu float64) {
	if len(t.Wall) == 0 {
		return 0, 0
	}
	return slices.Min(t.Wall), slices.Min(t.CPU)
}

func (t *Timing) add(s sample) {
	t.Wall = append(t.Wall, s.wall)
	t.CPU = append(t.CPU, s.cpu)
}

// PeerLine is one figure measured by the project and by a peer.
type PeerLine struct {
	// Name says what was measured, e.g. "forward pass, batch 32".
	Name string `json:"name"`
	// Peer is the peer measured beside the project.
	Peer string `json:"peer"`
	// Items is how many positions (or training samples) a call handles.
	Items int `json:"items"`
	// Project and Other are the two sides' timings.
	Project Timing `json:"project"`
	Other   Timing `json:"peer_timing"`
	// Note adds context, e.g. the peer's batch-1 time less its per-call
	// overhead.
	Note string `json:"note,omitempty"`
}

// Ratio is the project's speed over the peer's, from the best rounds'
// CPU times (elapsed times where the system gives no CPU time): above 1
// the project is faster.
func (l PeerLine) Ratio() float64 {
	pw, pc := l.Project.Best()
	ow, oc := l.Other.Best()
	if pc > 0 && oc > 0 {
		return oc / pc
	}
	return ow / pw
}

// lessOverhead is the peer's time less overhead's over the project's, from
// the best rounds' CPU times (elapsed where the system gives none).
func (l PeerLine) lessOverhead(overhead Timing) float64 {
	pw, pc := l.Project.Best()
	ow, oc := l.Other.Best()
	hw, hc := overhead.Best()
	if pc > 0 && oc > 0 {
		return (oc - hc) / pc
	}
	return (ow - hw) / pw
}

// PeerReport is a whole comparison.
type PeerReport struct {
	Game   string `json:"game"`
	Net    string `json:"net"`
	Config string `json:"net_config"`
	BLAS   string `json:"blas"`
	// Versions holds each peer's version as it reports it.
	Versions map[string]string `json:"versions"`
	// Overhead is onnxruntime's time per call of a model with one Identity
	// node on one float, through the same path as the net's calls.
	Overhead *Timing `json:"onnxruntime_overhead,omitempty"`
	// LossDiff is the largest relative difference between the
	// project's and PyTorch's losses over two steps from the same
	// weights on the same batch: how closely the two nets agree.
	LossDiff float64    `json:"loss_difference,omitempty"`
	Lines    []PeerLine `json:"lines"`
}

// MissingError says that a peer's runtime is not installed, and how to
// install it.
type MissingError struct {
	Peer, Problem, Install string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s: %s; %s", e.Peer, e.Problem, e.Install)
}

// Install hints of MissingError.
const (
	nodeInstall = "install Node.js and onnxruntime-node: apt-get install -y nodejs npm, then in the repository " +
		"cd faces/onnx/testdata/ort && ONNXRUNTIME_NODE_INSTALL=skip npm ci (or set NODE_PATH to a node_modules holding onnxruntime-node)"
	torchInstall = "install PyTorch for python3: apt-get install -y python3-torch (Debian), or pip install torch"
)

// ortModulesDir is where the onnx package's tests install onnxruntime-node,
// relative to the repository's root.
var ortModulesDir = filepath.Join("faces", "onnx", "testdata", "ort", "node_modules")

// FindPeers checks that the peers' runtimes are installed: node with
// onnxruntime-node for onnxruntime, a python3 that imports torch for
// PyTorch. It returns the environment for node (NODE_PATH set to the
// repository's faces/onnx/testdata/ort/node_modules, found from the working
// directory up, when NODE_PATH is unset) and the python3 to run, or a
// MissingError.
func FindPeers(ctx context.Context, peers []string) (nodeEnv []string, python string, err error) {
	for _, p := range peers {
		switch p {
		case PeerONNXRuntime:
			if nodeEnv, err = findNode(ctx); err != nil {
				return nil, "", err
			}
		case PeerPyTorch:
			if python, err = findTorch(ctx); err != nil {
				return nil, "", err
			}
		default:
			return nil, "", fmt.Errorf("unknown peer %q (want %s)", p, strings.Join(Peers, ", "))
		}
	}
	return nodeEnv, python, nil
}

func findNode(ctx context.Context) ([]string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return nil, &MissingError{PeerONNXRuntime, "node is not installed", nodeInstall}
	}
	env := os.Environ()
	if os.Getenv("NODE_PATH") == "" {
		if dir, err := os.Getwd(); err == nil {
			for {
				m := filepath.Join(dir, ortModulesDir)
				if _, err := os.Stat(filepath.Join(m, "onnxruntime-node", "package.json")); err == nil {
					env = append(env, "NODE_PATH="+m)
					break
				}
				parent := filepath.Dir(dir)
				if parent == dir {
					break
				}
				dir = parent
			}
		}
	}
	cmd := exec.CommandContext(ctx, "node", "-e", "require('onnxruntime-node')")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, &MissingError{PeerONNXRuntime, "node cannot load onnxruntime-node (" + errorLine(out, err) + ")", nodeInstall}
	}
	return env, nil
}

func findTorch(ctx context.Context) (string, error) {
	var tried []string
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(py)
		if err != nil || slices.Contains(tried, path) {
			continue
		}
		tried = append(tried, path)
		if exec.CommandContext(ctx, path, "-c", "import torch").Run() == nil {
			return path, nil
		}
	}
	if len(tried) == 0 {
		return "", &MissingError{PeerPyTorch, "python3 is not installed", torchInstall}
	}
	return "", &MissingError{PeerPyTorch, "no python3 imports torch (tried " + strings.Join(tried, ", ") + ")", torchInstall}
}

// errorLine is the line of a failed command's output that names the
// error (the first holding "Error", else the first), or its error.
func errorLine(out []byte, err error) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, l := range lines {
		if strings.Contains(l, "Error") {
			return strings.TrimSpace(l)
		}
	}
	if lines[0] != "" {
		return lines[0]
	}
	return err.Error()
}

// RunPeers measures, on one thread, the project's forward pass beside
// onnxruntime's on the exported net, and the project's training step
// beside PyTorch's on the same net, each figure in turn by the project and
// by the peer for o.Rounds rounds. The runtime is limited to one thread
// (GOMAXPROCS 1) while it runs, as the peers are. It fails with a
// MissingError when a peer's runtime is missing.
func RunPeers(ctx context.Context, o PeerOptions) (r PeerReport, err error) {
	if o.Duration <= 0 {
		return r, errors.New("bench: the duration must be positive")
	}
	if o.Game == nil || o.Weights == nil {
		return r, errors.New("bench: no game or no net")
	}
	if o.Rounds == 0 {
		o.Rounds = PeerRounds
	}
	if o.Rounds < 0 {
		return r, fmt.Errorf("bench: %d rounds", o.Rounds)
	}
	if o.Batches == nil {
		o.Batches = PeerBatches
	}
	if o.TrainBatches == nil {
		o.TrainBatches = PeerTrainBatches
	}
	if o.Peers == nil {
		o.Peers = Peers
	}
	for _, b := range append(slices.Clone(o.Batches), o.TrainBatches...) {
		if b <= 0 {
			return r, fmt.Errorf("bench: batch of %d", b)
		}
	}
	cfg := o.Weights.Config
	if cfg.Shape != o.Game.FeatureShape() || cfg.Actions != o.Game.ActionCount() {
		return r, fmt.Errorf("bench: the net (%v) is not one for %s", cfg, o.Game.Name())
	}
	nodeEnv, python, err := FindPeers(ctx, o.Peers)
	if err != nil {
		return r, err
	}
	r = PeerReport{Game: o.Game.Name(), Net: o.NetName, Config: cfg.String(), BLAS: nn.BLAS, Versions: map[string]string{}}
	dir, err := os.MkdirTemp("", "trench-peers-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	add := func(l PeerLine) {
		r.Lines = append(r.Lines, l)
		if o.Progress != nil {
			o.Progress(l)
		}
	}
	states := samplePositions(o.Game, 256)
	for _, p := range o.Peers {
		var err error
		switch p {
		case PeerONNXRuntime:
			err = compareForward(ctx, o, &r, dir, nodeEnv, states, add)
		case PeerPyTorch:
			err = compareTraining(ctx, o, &r, dir, python, states, add)
		}
		if err != nil {
			return r, err
		}
	}
	return r, ctx.Err()
}

// sample is one measurement: seconds per call, elapsed and of CPU time.
type sample struct{ wall, cpu float64 }

// timeCalls calls f a few times to warm up, then for at least d, and
// returns the time per call.
func timeCalls(ctx context.Context, d time.Duration, f func() error) (sample, error) {
	for range 5 {
		if err := f(); err != nil {
			return sample{}, err
		}
	}
	cpu0, start, calls := processCPU(), time.Now(), 0
	for calls == 0 || time.Since(start) < d && ctx.Err() == nil {
		if err := f(); err != nil {
			return sample{}, err
		}
		calls++
	}
	wall, cpu := time.Since(start).Seconds(), (processCPU() - cpu0).Seconds()
	return sample{wall / float64(calls), cpu / float64(calls)}, ctx.Err()
}

// compareForward times the project's forward pass and onnxruntime's at
// each of o.Batches, and onnxruntime's per-call overhead.
func compareForward(ctx context.Context, o PeerOptions, r *PeerReport, dir string, env []string, states []engine.State, add func(PeerLine)) error {
	model, err := onnx.Encode(o.Weights, onnx.Source{Game: o.Game.Name(), Checkpoint: o.NetName})
	if err != nil {
		return err
	}
	positions := slices.Max(o.Batches)
	input := encode(o.Game, states, positions)
	files := map[string][]byte{"net.onnx": model, "trivial.onnx": trivialModel(), "input.bin": floatBytes(input)}
	if err := writeFiles(dir, files, "peers/ort.js"); err != nil {
		return err
	}
	proc, err := startPeer(ctx, env, "node", filepath.Join(dir, "ort.js"), filepath.Join(dir, "net.onnx"),
		filepath.Join(dir, "trivial.onnx"), filepath.Join(dir, "input.bin"), fmt.Sprint(positions))
	if err != nil {
		return err
	}
	defer proc.close()
	r.Versions[PeerONNXRuntime] = "onnxruntime-node " + proc.version("onnxruntime")
	inf, err := nn.NewInference(o.Weights)
	if err != nil {
		return err
	}
	c := o.Weights.Config
	ws := new(nn.Workspace)
	lines := make([]PeerLine, len(o.Batches))
	r.Overhead = &Timing{}
	for round := 0; round < o.Rounds; round++ {
		for i, b := range o.Batches {
			pol, val, sc := make([]float32, b*c.Actions), make([]float32, b*c.Seats*3), make([]float32, b*c.Seats)
			own, err := timeCalls(ctx, o.Duration, func() error {
				inf.ForwardWith(ws, input[:b*c.Shape.Size()], b, pol, val, sc)
				return nil
			})
			if err != nil {
				return err
			}
			lines[i].Project.add(own)
			peer, err := proc.time(fmt.Sprintf("net %d %g", b, o.Duration.Seconds()))
			if err != nil {
				return err
			}
			lines[i].Other.add(peer)
		}
		overhead, err := proc.time(fmt.Sprintf("trivial 1 %g", o.Duration.Seconds()))
		if err != nil {
			return err
		}
		r.Overhead.add(overhead)
	}
	for i, b := range o.Batches {
		l := lines[i]
		l.Name, l.Peer, l.Items = fmt.Sprintf("forward pass, batch %d", b), PeerONNXRuntime, b
		if b == 1 {
			l.Note = fmt.Sprintf("onnxruntime less its per-call overhead: %.2f× the project's time", l.lessOverhead(*r.Overhead))
		}
		add(l)
	}
	return nil
}

// compareTraining checks that PyTorch's rebuilt net gives the project's
// losses, then times both training steps at each of o.TrainBatches.
func compareTraining(ctx context.Context, o PeerOptions, r *PeerReport, dir, python string, states []engine.State, add func(PeerLine)) error {
	c := o.Weights.Config
	tc := nn.DefaultTrainConfig()
	tc.Threads = 1
	batches := map[int]nn.Batch{}
	for _, n := range o.TrainBatches {
		batches[n] = trainBatch(c, o.Game, states, n)
	}
	files, err := torchFiles(o.Weights, tc, batches)
	if err != nil {
		return err
	}
	if err := writeFiles(dir, files, "peers/torch_step.py"); err != nil {
		return err
	}
	proc, err := startPeer(ctx, nil, python, filepath.Join(dir, "torch_step.py"), dir)
	if err != nil {
		return err
	}
	defer proc.close()
	r.Versions[PeerPyTorch] = "torch " + proc.version("torch")
	if r.LossDiff, err = checkLosses(o.Weights, tc, batches[o.TrainBatches[0]], proc); err != nil {
		return err
	}
	lines := make([]PeerLine, len(o.TrainBatches))
	for round := 0; round < o.Rounds; round++ {
		for i, n := range o.TrainBatches {
			t, err := nn.NewTrainer(o.Weights.Clone(), tc)
			if err != nil {
				return err
			}
			own, err := timeCalls(ctx, o.Duration, func() error {
				_, err := t.Step(batches[n])
				return err
			})
			if err != nil {
				return err
			}
			lines[i].Project.add(own)
			peer, err := proc.time(fmt.Sprintf("time %d %g", n, o.Duration.Seconds()))
			if err != nil {
				return err
			}
			lines[i].Other.add(peer)
		}
	}
	for i, n := range o.TrainBatches {
		l := lines[i]
		l.Name, l.Peer, l.Items = fmt.Sprintf("training step, batch %d", n), PeerPyTorch, n
		l.Note = "forward, backward, SGD with Nesterov momentum"
		add(l)
	}
	return nil
}

// checkLosses runs two training steps of the project and of PyTorch from
// the same weights on b and returns the largest relative difference of
// their losses, or an error when it exceeds lossTolerance: then the two
// nets are not the same and their times say nothing.
func checkLosses(w *nn.Weights, tc nn.TrainConfig, b nn.Batch, proc *peerProc) (float64, error) {
	const steps = 2
	var theirs [][3]float64
	if err := proc.ask(fmt.Sprintf("losses %d %d", b.N, steps), &theirs); err != nil {
		return 0, err
	}
	if len(theirs) != steps {
		return 0, fmt.Errorf("bench: pytorch gave %d steps' losses, want %d", len(theirs), steps)
	}
	t, err := nn.NewTrainer(w.Clone(), tc)
	if err != nil {
		return 0, err
	}
	var worst float64
	for s := range steps {
		l, err := t.Step(b)
		if err != nil {
			return 0, err
		}
		for k, ours := range [3]float64{l.Policy, l.Value, l.Score} {
			d := math.Abs(ours-theirs[s][k]) / max(math.Abs(ours), 1e-3)
			if !(d <= lossTolerance) {
				return 0, fmt.Errorf("bench: pytorch's net is not the project's: step %d's losses (policy, value, score) are %v, the project's %v",
					s+1, theirs[s], [3]float64{l.Policy, l.Value, l.Score})
			}
			worst = max(worst, d)
		}
	}
	return worst, nil
}

// torchMeta is torch_step.py's meta.json.
type torchMeta struct {
	Config  nn.Config      `json:"config"`
	Tensors []torchTensor  `json:"tensors"`
	Train   torchTrain     `json:"train"`
	Batches []torchBatchID `json:"batches"`
}

type torchTensor struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
}

type torchTrain struct {
	LR          float64 `json:"lr"`
	Momentum    float64 `json:"momentum"`
	WeightDecay float64 `json:"weight_decay"`
	ScoreWeight float64 `json:"score_weight"`
	BNMomentum  float64 `json:"bn_momentum"`
}

type torchBatchID struct {
	N    int    `json:"n"`
	File string `json:"file"`
}

// torchFiles returns the files torch_step.py reads: the net, the
// optimizer's settings and the batches.
func torchFiles(w *nn.Weights, tc nn.TrainConfig, batches map[int]nn.Batch) (map[string][]byte, error) {
	m := torchMeta{Config: w.Config, Train: torchTrain{LR: tc.Rate.Rate(0), Momentum: tc.Momentum,
		WeightDecay: tc.WeightDecay, ScoreWeight: tc.ScoreWeight, BNMomentum: tc.BNMomentum}}
	var weights []byte
	for _, t := range w.Tensors {
		m.Tensors = append(m.Tensors, torchTensor{t.Name, t.Shape})
		weights = append(weights, floatBytes(t.Data)...)
	}
	files := map[string][]byte{"net.bin": weights}
	for _, n := range slices.Sorted(maps.Keys(batches)) {
		b := batches[n]
		if b.Weight != nil {
			return nil, errors.New("bench: pytorch's step has no sample weights")
		}
		name := fmt.Sprintf("batch%d.bin", n)
		var data []byte
		for _, part := range [][]float32{b.Input, b.Policy, b.Value, b.Score, b.ValueOffset, b.ScoreOffset, b.PolicyOffset} {
			data = append(data, floatBytes(part)...)
		}
		files[name] = data
		m.Batches = append(m.Batches, torchBatchID{n, name})
	}
	meta, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	files["meta.json"] = meta
	return files, nil
}

// floatBytes is v as little-endian float32.
func floatBytes(v []float32) []byte {
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

// writeFiles writes files and the embedded script into dir.
func writeFiles(dir string, files map[string][]byte, script string) error {
	src, err := peerScripts.ReadFile(script)
	if err != nil {
		return err
	}
	files[filepath.Base(script)] = src
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// trivialModel is an ONNX model whose one node, Identity, passes its
// input ("x", batch × 1 float32) through: timing it gives a runtime's cost
// per call without any work.
func trivialModel() []byte {
	const (
		float32Type = 1
		bytesType   = protowire.BytesType
		varintType  = protowire.VarintType
	)
	str := func(m []byte, num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(m, num, bytesType), s)
	}
	sub := func(m []byte, num protowire.Number, s []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(m, num, bytesType), s)
	}
	varint := func(m []byte, num protowire.Number, v uint64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(m, num, varintType), v)
	}
	// ValueInfoProto{name, type: TypeProto{tensor_type: {elem_type,
	// shape: {dim: [batch, 1]}}}}.
	valueInfo := func(name string) []byte {
		shape := sub(sub(nil, 1, str(nil, 2, "batch")), 1, varint(nil, 1, 1))
		tensor := sub(varint(nil, 1, float32Type), 2, shape)
		return sub(str(nil, 1, name), 2, sub(nil, 1, tensor))
	}
	node := str(str(str(str(nil, 1, "x"), 2, "y"), 3, "identity"), 4, "Identity")
	graph := sub(nil, 1, node)
	graph = str(graph, 2, "trivial")
	graph = sub(graph, 11, valueInfo("x"))
	graph = sub(graph, 12, valueInfo("y"))
	model := varint(nil, 1, onnx.IRVersion)
	model = sub(model, 7, graph)
	return sub(model, 8, varint(str(nil, 1, ""), 2, onnx.Opset))
}

// peerProc is a peer's script, running, answering one line of JSON per
// command.
type peerProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Scanner
	stderr *bytes.Buffer
	ready  map[string]any
}

// startPeer starts a peer's script and waits for its line saying it is
// ready.
func startPeer(ctx context.Context, env []string, name string, args ...string) (*peerProc, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	p := &peerProc{cmd: cmd, stderr: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: starting %s: %w", name, err)
	}
	p.out = bufio.NewScanner(stdout)
	if err := p.read(&p.ready); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// version is the ready line's field key, or "unknown".
func (p *peerProc) version(key string) string {
	if v, ok := p.ready[key].(string); ok {
		return v
	}
	return "unknown"
}

// read decodes the peer's next line into v.
func (p *peerProc) read(v any) error {
	if !p.out.Scan() {
		err := p.out.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		werr := p.cmd.Wait()
		return fmt.Errorf("bench: %s stopped (%v, %v): %s", filepath.Base(p.cmd.Path), err, werr, strings.TrimSpace(p.stderr.String()))
	}
	if err := json.Unmarshal(p.out.Bytes(), v); err != nil {
		return fmt.Errorf("bench: %s's answer %q: %w", filepath.Base(p.cmd.Path), p.out.Text(), err)
	}
	return nil
}

// ask sends one command and decodes the answer into v.
func (p *peerProc) ask(command string, v any) error {
	if _, err := io.WriteString(p.stdin, command+"\n"); err != nil {
		return fmt.Errorf("bench: %s: %w", filepath.Base(p.cmd.Path), err)
	}
	return p.read(v)
}

// time sends a timing command and returns the time per call it reports.
func (p *peerProc) time(command string) (sample, error) {
	var t struct {
		Calls     int
		Wall, CPU float64
	}
	if err := p.ask(command, &t); err != nil {
		return sample{}, err
	}
	if t.Calls <= 0 || !(t.Wall > 0) {
		return sample{}, fmt.Errorf("bench: %s timed %d calls in %v s", filepath.Base(p.cmd.Path), t.Calls, t.Wall)
	}
	return sample{t.Wall / float64(t.Calls), t.CPU / float64(t.Calls)}, nil
}

// close ends the peer: its stdin closes, it finishes its loop and exits.
func (p *peerProc) close() {
	p.stdin.Close()
	p.cmd.Wait()
}
