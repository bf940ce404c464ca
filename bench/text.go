package bench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"

	"trench/engine"
	"trench/nn"
)

// PresetWeights returns a net of the named size preset for game g (with a
// seat per player when g has more than two), its weights drawn from a
// fixed seed: speed does not depend on what the net has learnt.
func PresetWeights(g engine.Game, preset string) (*nn.Weights, error) {
	c, err := nn.PresetFor(preset, g)
	if err != nil {
		return nil, err
	}
	if p := g.Players(); p > 2 {
		c.Seats = p
	}
	return nn.NewWeights(c, rand.New(rand.NewPCG(1, 2)))
}

// WriteHeader writes the line a text report starts with: the game, the
// net, its size and cost, the BLAS in use and the cores.
func WriteHeader(w io.Writer, o Options) {
	fmt.Fprintf(w, "%s, net %s (%s, %.3g MFLOP a position), blas %s, %d cores\n",
		o.Game.Name(), o.NetName, o.Weights.Config, float64(o.Weights.Config.FLOPs())/1e6, nn.BLAS, runtime.GOMAXPROCS(0))
}

// String is the line's row in a text report: its name, value, unit and
// note, aligned.
func (l Line) String() string {
	note := ""
	if l.Note != "" {
		note = " (" + l.Note + ")"
	}
	return fmt.Sprintf("  %-62s %12.1f %s%s", l.Name, l.Value, l.Unit, note)
}

// WritePeerHeader writes the lines a text comparison with the peers
// starts with: the game, the net, the BLAS, the peers' versions, how the
// figures are taken, onnxruntime's per-call overhead and how closely
// PyTorch's losses matched.
func WritePeerHeader(w io.Writer, r PeerReport) {
	fmt.Fprintf(w, "%s, net %s (%s), blas %s, one thread\n", r.Game, r.Net, r.Config, r.BLAS)
	for _, p := range Peers {
		if v, ok := r.Versions[p]; ok {
			fmt.Fprintf(w, "  %s: %s\n", p, v)
		}
	}
	fmt.Fprintln(w, "  times per call: the best round's CPU time of the whole process (elapsed time in brackets); ratio = the peer's time / the project's")
	if r.Overhead != nil {
		wall, cpu := r.Overhead.Best()
		fmt.Fprintf(w, "  onnxruntime's per-call overhead (an Identity node on one float, the same path): %s (%s)\n", micro(cpu), micro(wall))
	}
	if _, ok := r.Versions[PeerPyTorch]; ok {
		fmt.Fprintf(w, "  pytorch's losses over two steps match the project's within %.1g (relative)\n", r.LossDiff)
	}
}

// String is the line's row in a text comparison: the figure, each side's
// time per call and rate, and the ratio.
func (l PeerLine) String() string {
	unit := "positions/s"
	if strings.HasPrefix(l.Name, "training") {
		unit = "samples/s"
	}
	side := func(t Timing) string {
		wall, cpu := t.Best()
		per := cpu
		if per == 0 {
			per = wall
		}
		return fmt.Sprintf("%9s (%9s) %9.0f %s", micro(cpu), micro(wall), float64(l.Items)/per, unit)
	}
	s := fmt.Sprintf("  %-24s project %s   %s %s   %.2f×", l.Name, side(l.Project), l.Peer, side(l.Other), l.Ratio())
	if l.Note != "" {
		s += " (" + l.Note + ")"
	}
	return s
}

// micro formats seconds as µs or ms.
func micro(s float64) string {
	if s >= 1e-3 {
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.1f µs", s*1e6)
}
