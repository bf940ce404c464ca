// Package neteval turns a network into a search evaluator: it encodes a
// batch of states as feature planes, runs the net's fast forward pass, and
// turns its outputs into priors over each state's legal actions and a value
// for every player.
package neteval

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"trench/engine"
	"trench/mcts"
	"trench/nn"
	"trench/tactics"
)

// DefaultScoreUtility is the weight New gives the predicted final score
// in a state's value (see NewWithScoreUtility).
const DefaultScoreUtility = 0.3

// Evaluator is an mcts.Evaluator backed by a net. It is safe for
// concurrent use; each call runs on the calling goroutine.
type Evaluator struct {
	game engine.Game
	inf  *nn.Inference
	// scoreWeight is λ, scoreScale the score that tanh maps to 0.76.
	scoreWeight, scoreScale float32
	pool                    sync.Pool
	// netNanos adds up the time spent in the forward pass.
	netNanos atomic.Int64
	// cache, if not nil, keeps the outputs of positions evaluated before.
	cache *cache
}

// buffers is one call's scratch space.
type buffers struct {
	input, policy, value, score []float32
	// outs[i] holds state i's raw outputs, acts[i] its legal actions
	// (own[i] when the caller did not give them); missed lists the states
	// the net evaluates, keys their cache keys.
	outs   [][]float32
	acts   [][]int
	own    [][]int
	missed []int
	keys   []uint64
	// leads receives the material leads of tactics.ApplyValueOffsets; offsets and
	// priors are the scratch space of tactics.PolicyOffsets.
	leads, offsets, priors []float32
}

// New returns an evaluator for game g over the net inf, checking that the
// net was made for the game, with DefaultScoreUtility and a cache of
// DefaultCacheEntries positions: a position whose encoded features and
// legal actions it has seen before takes the net's outputs from the cache
// instead of a forward pass. The cache changes no answer, only the time
// an answer takes.
func New(g engine.Game, inf *nn.Inference) (*Evaluator, error) {
	e, err := NewWithScoreUtility(g, inf, DefaultScoreUtility)
	if err != nil {
		return nil, err
	}
	e.cache = newCache(DefaultCacheEntries)
	return e, nil
}

// NewWithScoreUtility is New without a cache and with the weight λ in [0, 1] of the score in
// each player's value, as in KataGo's score utility: the value is
// (1-λ)·(win − loss) + λ·tanh(4·score/ScoreScale), where score is the net's
// predicted final score difference for that player and ScoreScale its
// config's (36 points for Trench: a General's 5 points move the score term
// by about 0.5). The score head learns the worth of material long before
// the win/draw/loss head does, which early training and weak nets need.
func NewWithScoreUtility(g engine.Game, inf *nn.Inference, lambda float64) (*Evaluator, error) {
	if !(lambda >= 0 && lambda <= 1) {
		return nil, fmt.Errorf("score utility %v is not in [0, 1]", lambda)
	}
	c := inf.Config()
	if c.Shape != g.FeatureShape() || c.Actions != g.ActionCount() {
		return nil, fmt.Errorf("the net reads %d×%d×%d planes with %d actions; %s has %d×%d×%d and %d",
			c.Shape.Planes, c.Shape.Height, c.Shape.Width, c.Actions, g.Name(),
			g.FeatureShape().Planes, g.FeatureShape().Height, g.FeatureShape().Width, g.ActionCount())
	}
	if c.Seats != g.Players() && !(c.Seats == 1 && g.Players() == 2) {
		return nil, fmt.Errorf("the net predicts %d seats; %s has %d players", c.Seats, g.Name(), g.Players())
	}
	return &Evaluator{game: g, inf: inf, scoreWeight: float32(lambda), scoreScale: c.ScoreScale / 4}, nil
}

// CacheStats returns how many positions the cache has answered and how
// many it was asked for; both are zero without a cache.
func (e *Evaluator) CacheStats() (hits, lookups int64) {
	if e.cache == nil {
		return 0, 0
	}
	h := e.cache.hits.Load()
	return h, h + e.cache.misses.Load()
}

// Inference returns the net's forward pass.
func (e *Evaluator) Inference() *nn.Inference { return e.inf }

// NetTime returns the time spent so far in the net's forward pass, summed
// over all calls (concurrent calls each count in full). The rest of an
// Evaluate call encodes the states and turns the outputs into priors and
// values.
func (e *Evaluator) NetTime() time.Duration { return time.Duration(e.netNanos.Load()) }

// Evaluate fills out[i] with the priors (a softmax of the policy logits
// over the legal actions) and each player's value (win minus loss
// probability, blended with the predicted score; see NewWithScoreUtility)
// for states[i]. A net with a material value base or a capture policy
// base has its offsets (tactics.ValueOffsets and tactics.PolicyOffsets) added to its
// outputs first.
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
	for len(b.outs) < n {
		b.outs = append(b.outs, nil)
		b.own = append(b.own, nil)
	}
	b.acts = b.acts[:0]
	// Each state's raw outputs, from the cache or the net, go to
	// b.outs[i]: its legal actions' logits, then seats×3 win/draw/loss
	// probabilities and seats scores. The states the cache does not know
	// are packed at the front of b.input and evaluated together.
	misses := 0
	b.missed = b.missed[:0]
	for i, s := range states {
		acts := out[i].Actions
		if acts == nil {
			b.own[i] = s.LegalActions(b.own[i])
			acts = b.own[i]
		}
		b.acts = append(b.acts, acts)
		b.outs[i] = grow(b.outs[i], len(acts)+seats*4)
		x := b.input[misses*fs : (misses+1)*fs]
		s.EncodeFeatures(x)
		if e.cache != nil {
			key := e.cache.key(x, acts)
			if e.cache.get(key, b.outs[i]) {
				continue
			}
			b.keys = append(b.keys[:len(b.missed)], key)
		}
		b.missed = append(b.missed, i)
		misses++
	}
	if misses > 0 {
		b.policy = grow(b.policy, misses*na)
		b.value = grow(b.value, misses*seats*3)
		b.score = grow(b.score, misses*seats)
		start := time.Now()
		e.inf.Forward(b.input, misses, b.policy, b.value, b.score)
		e.netNanos.Add(int64(time.Since(start)))
	}
	for m, i := range b.missed {
		o, logits := b.outs[i], b.policy[m*na:(m+1)*na]
		for j, a := range b.acts[i] {
			o[j] = logits[a]
		}
		rest := o[len(b.acts[i]):]
		copy(rest[:seats*3], b.value[m*seats*3:(m+1)*seats*3])
		copy(rest[seats*3:], b.score[m*seats:(m+1)*seats])
		if e.cache != nil {
			e.cache.put(b.keys[m], o)
		}
	}
	for i, s := range states {
		o := &out[i]
		acts, raw := b.acts[i], b.outs[i]
		o.Policy = append(o.Policy[:0], raw[:len(acts)]...)
		if c.PolicyBase == nn.PolicyBaseCapture {
			b.offsets, b.priors = tactics.PolicyOffsets(s, acts, b.offsets, b.priors)
			for j, off := range b.offsets {
				o.Policy[j] += off
			}
		}
		maxLogit := float32(math.Inf(-1))
		for _, z := range o.Policy {
			maxLogit = max(maxLogit, z)
		}
		var sum float32
		for j, z := range o.Policy {
			p := float32(math.Exp(float64(z - maxLogit)))
			o.Policy[j] = p
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
		wdl := raw[len(acts) : len(acts)+seats*3]
		score := raw[len(acts)+seats*3:]
		if c.ValueBase == nn.ValueBaseMaterial {
			b.leads = tactics.ApplyValueOffsets(s, wdl, score, b.leads)
		}
		for k := 0; k < seats; k++ {
			v := (1-e.scoreWeight)*(wdl[3*k]-wdl[3*k+2]) + e.scoreWeight*float32(math.Tanh(float64(score[k]/e.scoreScale)))
			o.Values[(mover+k)%players] = v
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
