package bench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"

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
