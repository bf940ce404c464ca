// Package neteval turns a network into a search evaluator: it encodes a
// batch of states as feature planes, runs the net's fast forward pass, and
// turns its outputs into priors over each state's legal actions and a value
// for every player.
package neteval

import (
	"fmt"
	"math"
	"sync"

	"trench/engine"
	"trench/mcts"
	"trench/nn"
)

// Evaluator is an mcts.Evaluator backed by a net. It is safe for
// concurrent use; each call runs on the calling goroutine.
type Evaluator struct {
	game engine.Game
	inf  *nn.Inference
	pool sync.Pool
}

// buffers is one call's scratch space.
type buffers struct {
	input, policy, value []float32
	actions              []int
}

// New returns an evaluator for game g over the net inf, checking that the
// net was made for the game.
func New(g engine.Game, inf *nn.Inference) (*Evaluator, error) {
	c := inf.Config()
	if c.Shape != g.FeatureShape() || c.Actions != g.ActionCount() {
		return nil, fmt.Errorf("the net reads %d×%d×%d planes with %d actions; %s has %d×%d×%d and %d",
			c.Shape.Planes, c.Shape.Height, c.Shape.Width, c.Actions, g.Name(),
			g.FeatureShape().Planes, g.FeatureShape().Height, g.FeatureShape().Width, g.ActionCount())
	}
	if c.Seats != g.Players() && !(c.Seats == 1 && g.Players() == 2) {
		return nil, fmt.Errorf("the net predicts %d seats; %s has %d players", c.Seats, g.Name(), g.Players())
	}
	return &Evaluator{game: g, inf: inf}, nil
}

// Inference returns the net's forward pass.
func (e *Evaluator) Inference() *nn.Inference { return e.inf }

// Evaluate fills out[i] with the priors (a softmax of the policy logits
// over the legal actions) and each player's value (win minus loss
// probability) for states[i].
func (e *Evaluator) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	n := len(states)
	if n == 0 {
		return nil
	}
	c := e.inf.Config()
	fs, na, seats, players := c.Shape.Size(), c.Actions, c.Seats, e.game.Players()
	b, _ := e.pool.Get().(*buffers)
	if b == nil {
		b = new(buffers)
	}
	defer e.pool.Put(b)
	b.input = grow(b.input, n*fs)
	b.policy = grow(b.policy, n*na)
	b.value = grow(b.value, n*seats*3)
	for i, s := range states {
		s.EncodeFeatures(b.input[i*fs : (i+1)*fs])
	}
	e.inf.Forward(b.input, n, b.policy, b.value, nil)
	for i, s := range states {
		o := &out[i]
		acts := o.Actions
		if acts == nil {
			b.actions = s.LegalActions(b.actions)
			acts = b.actions
		}
		logits := b.policy[i*na : (i+1)*na]
		o.Policy = o.Policy[:0]
		maxLogit := float32(math.Inf(-1))
		for _, a := range acts {
			maxLogit = max(maxLogit, logits[a])
		}
		var sum float32
		for _, a := range acts {
			p := float32(math.Exp(float64(logits[a] - maxLogit)))
			o.Policy = append(o.Policy, p)
			sum += p
		}
		for j := range o.Policy {
			o.Policy[j] /= sum
		}
		o.Values = o.Values[:0]
		for p := 0; p < players; p++ {
			o.Values = append(o.Values, 0)
		}
		mover := s.ToMove()
		wdl := b.value[i*seats*3 : (i+1)*seats*3]
		for k := 0; k < seats; k++ {
			o.Values[(mover+k)%players] = wdl[3*k] - wdl[3*k+2]
		}
		if seats == 1 && players == 2 {
			o.Values[1-mover] = -o.Values[mover]
		}
	}
	return nil
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
