package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"trench/engine"
	"trench/games"
	"trench/internal/bench"
	"trench/internal/excerpt"
	"trench/neteval"
	"trench/nn"
)

var benchCommand = command{
	name:    "bench",
	summary: "measure the speed of the net, search, self-play and alphabeta",
	usage: `Usage:
  trench bench [--net PRESET | --checkpoint NET] [--game NAME] [--duration D] [--json]
  trench bench --peers[=onnxruntime,pytorch] [--net PRESET | --checkpoint NET] [--game NAME] [--duration D] [--json]

Measures, one after another, each for --duration: the single-core SGEMM peak
(1024³) of the build's BLAS, and beside it of gonum's pure-Go SGEMM and, in
the OpenBLAS build, of the project's own kernel; the net's fast forward pass at batch 1, 8, 32, 128 and
256 on one core, with the GFLOP/s it reaches and its share of that peak;
the gorgonia graph's inference at batch 32; training steps at batch 256
with the gorgonia graph and with the fast backend (the default, on one
goroutine, and on every core as a trainer without self-play runs it);
search simulations/s with a uniform evaluator (one tree) and with the
net (32 games searched at once, their leaves batched), with the mean
batch and the share of the time spent outside the net's forward pass (in
the trees, and encoding states and decoding outputs); one tree
searched with the net by 1 and by 2 threads, 400 simulations a move, as
trench play searches (with the tactical aids where the game has them, and
play's cache of the net's outputs, whose share of the positions is
noted; games start from 8 random plies);
self-play positions/s on every core; and for Trench the alphabeta
engine's nodes/s, then, 100000 nodes a bench position, its nodes/s with
the hand-written evaluation and with nnue nets of random weights (H=128
and 256) side by side, and the nets' time to update the accumulators
for a move and evaluate. A gorgonia training step of a large net can take
longer than --duration: at least one is timed.

The default build multiplies with the project's own kernel (package
nn/gemm; TRENCH_GEMM=avx512|avx2|generic forces a path); build with -tags
openblas for OpenBLAS (docs/speed.md). "blas" in the output says which is
in use.

With --peers it measures instead, on one thread, the project beside other
runtimes on the same net (the built-in net unless --net or --checkpoint
names another): the fast forward pass at batch 1, 32 and 256 beside
onnxruntime (onnxruntime-node, one intra-op and one inter-op thread) on
the net as trench export writes it, with onnxruntime's per-call overhead
(a model of one Identity node through the same path); and the training
step (forward, backward, SGD with Nesterov momentum) at batch 128 and 256
beside PyTorch (torch, one thread) on the same net rebuilt from the same
weights, after checking that PyTorch's losses over two steps match the
project's. Each figure is measured for --duration by the project, then by
the peer, and again (two rounds), and the best round of each is reported,
in CPU time of the whole process and in elapsed time. The scripts are
built into the binary (internal/bench/peers). They need node with
onnxruntime-node (apt-get install nodejs npm; cd onnx/testdata/ort &&
ONNXRUNTIME_NODE_INSTALL=skip npm ci, found from the working directory up,
or set NODE_PATH) and a python3 that imports torch (apt-get install
python3-torch); without them the command says so and fails.

Examples:
  trench bench                                  # the medium net, about 30 s
  trench bench --peers --duration 2s            # the built-in net beside onnxruntime and PyTorch
  trench bench --net small --duration 500ms
  trench bench --checkpoint runs/first/checkpoints/ckpt-003000.tnet --json
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		netName := fs.String("net", "medium", "the net preset measured, with random weights: "+strings.Join(nn.Presets, ", "))
		ckpt := fs.String("checkpoint", "", `measure this net instead of a preset: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in, for Trench)`)
		gameName := fs.String("game", games.All[0].Name(), "the game: "+strings.Join(games.Names(), ", "))
		duration := fs.Duration("duration", time.Second, "time given to each measurement (the whole run takes about 30 of them with the medium net)")
		asJSON := fs.Bool("json", false, "print the report as one JSON object")
		peers := fs.String("peers", "", "compare the project with these runtimes on one thread instead: "+strings.Join(bench.Peers, ", ")+" (--peers alone: both)")
		fs.Lookup("peers").NoOptDefVal = strings.Join(bench.Peers, ",")
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("--game: %w", err)
			}
			if *duration <= 0 {
				return usage("--duration must be positive, got %v", *duration)
			}
			if fs.Changed("peers") {
				return benchPeers(g, *peers, fs.Changed("net"), *netName, *ckpt, *duration, *asJSON, stdout, stderr)
			}
			o := bench.Options{Game: g, Duration: *duration}
			if *ckpt != "" {
				if fs.Changed("net") {
					return usage("give --net or --checkpoint, not both")
				}
				net, err := neteval.LoadNet(g, *ckpt)
				if err != nil {
					return usage("--checkpoint: %w", err)
				}
				net.WarnPassed(stderr)
				o.Weights, o.NetName = net.Weights, net.Source
			} else {
				if o.Weights, err = bench.PresetWeights(g, *netName); err != nil {
					return usage("--net: %w", err)
				}
				o.NetName = *netName
			}
			if !*asJSON {
				bench.WriteHeader(stdout, o)
				o.Progress = func(l bench.Line) { fmt.Fprintln(stdout, l) }
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			r, err := bench.Run(ctx, o)
			if err != nil {
				return err
			}
			if *asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			return nil
		}
	},
}

// benchPeers runs trench bench --peers: the project beside the peers
// named in list (comma-separated) on the net that --net (when netSet) or
// --checkpoint names, or the built-in one.
func benchPeers(g engine.Game, list string, netSet bool, netName, ckpt string, d time.Duration, asJSON bool, stdout, stderr io.Writer) error {
	var peers []string
	for _, p := range strings.Split(list, ",") {
		if !slices.Contains(bench.Peers, p) {
			return usage("--peers: unknown peer %s (want %s)", excerpt.Quote(p), strings.Join(bench.Peers, ", "))
		}
		if !slices.Contains(peers, p) {
			peers = append(peers, p)
		}
	}
	o := bench.PeerOptions{Game: g, Duration: d, Peers: peers}
	switch {
	case netSet && ckpt != "":
		return usage("give --net or --checkpoint, not both")
	case netSet:
		w, err := bench.PresetWeights(g, netName)
		if err != nil {
			return usage("--net: %w", err)
		}
		o.Weights, o.NetName = w, netName
	default:
		if ckpt == "" {
			ckpt = neteval.DefaultNet
		}
		net, err := neteval.LoadNet(g, ckpt)
		if err != nil {
			return usage("--checkpoint: %w", err)
		}
		net.WarnPassed(stderr)
		o.Weights, o.NetName = net.Weights, net.Source
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !asJSON {
		fmt.Fprintf(stdout, "%s beside %s, %v a measurement, %d rounds...\n", o.NetName, strings.Join(peers, " and "), d, bench.PeerRounds)
	}
	r, err := bench.RunPeers(ctx, o)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	bench.WritePeerHeader(stdout, r)
	for _, l := range r.Lines {
		fmt.Fprintln(stdout, l)
	}
	return nil
}
