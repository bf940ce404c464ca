package relabel

import (
	"context"
	"fmt"
	"math"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/mcts"
	"trench/searchconfig"
)

// Classical is an mcts.Evaluator whose answers come from a game's
// classical search (Trench's alphabeta, Trichess's BRS+), a teacher that
// knows nothing of the net: each state is searched to Depth plies. In a
// two-player game the player to move gets the value tanh(score/Scale),
// its score in points, or ±1 when the search found a forced win or loss,
// and the other player the negation; in a game of more players each
// gets the value the search gives its seat (plugin.ClassicalResult's
// Players, on the search's own scale). The policy is the search's best
// move alone. A Classical is not safe for concurrent use; each worker
// needs its own.
type Classical struct {
	// Searcher is the classical search, with its table kept from one
	// state to the next.
	Searcher plugin.ClassicalSearcher
	// Depth is each search's depth, in plies.
	Depth int
	// Scale is the score lead, in points, whose value is tanh(1) ≈ 0.76.
	Scale float64
}

// Evaluate searches every state, whose legal actions out[i].Actions holds
// in LegalActions order, and fills out with the searches' values and
// best moves.
func (c *Classical) Evaluate(states []engine.State, out []mcts.Evaluation) error {
	if c.Depth < 1 {
		return fmt.Errorf("relabel: a classical search needs a depth of at least 1, got %d", c.Depth)
	}
	if !(c.Scale > 0) {
		return fmt.Errorf("relabel: the classical value scale must be positive, got %v", c.Scale)
	}
	for i, st := range states {
		r, err := c.Searcher.Search(context.Background(), st, plugin.ClassicalLimits{Depth: c.Depth})
		if err != nil {
			return fmt.Errorf("relabel: searching %s: %w", st, err)
		}
		o := &out[i]
		o.Values = o.Values[:0]
		if n := st.Game().Players(); n != 2 {
			if len(r.Players) != n {
				return fmt.Errorf("relabel: the classical search of %s valued %d of its %d players", st, len(r.Players), n)
			}
			for _, v := range r.Players {
				o.Values = append(o.Values, float32(v))
			}
		} else {
			v := float32(math.Tanh(r.Score / c.Scale))
			if r.Forced != 0 {
				v = float32(r.Forced)
			}
			o.Values = append(o.Values, 0, 0)
			o.Values[st.ToMove()], o.Values[1-st.ToMove()] = v, -v
		}
		o.Policy = o.Policy[:0]
		found := false
		for _, a := range o.Actions {
			p := float32(0)
			if a == r.Action {
				p, found = 1, true
			}
			o.Policy = append(o.Policy, p)
		}
		if !found {
			return fmt.Errorf("relabel: the classical search's move %d in %s is not among the %d legal actions", r.Action, st, len(o.Actions))
		}
	}
	return nil
}

// DefaultClassicalScale is the lead in points that the classical teacher
// values tanh(1): the scale that best predicted the results of the shipped
// net's self-play games from alphabeta's scores at depths 1 to 5 (3 or 4
// at every depth; docs/experiments.md).
const DefaultClassicalScale = 4

// classicalTableBits sizes each classical teacher's table: 2^18 entries.
const classicalTableBits = 18

// CheckClassicalDepth reports whether game g has a classical search that
// can teach at depth plies: an error starting "depth must be in" or
// saying the game has none.
func CheckClassicalDepth(g engine.Game, depth int) error {
	cl := games.ClassicalOf(g)
	if cl == nil {
		return fmt.Errorf("depth: %s has no classical search (%s)", g.Name(), games.ClassicalHave())
	}
	if max := cl.MaxDepth(); depth < 1 || depth > max {
		return fmt.Errorf("depth must be in 1..%d, got %d", max, depth)
	}
	return nil
}

// CheckClassicalScale reports whether scale can value a classical
// teacher's two-player lead: an error starting "scale must be" if not.
func CheckClassicalScale(scale float64) error {
	if !(scale > 0) || math.IsInf(scale, 1) {
		return fmt.Errorf("scale must be a positive number of points, got %v", scale)
	}
	return nil
}

// ClassicalTeacher returns a maker of game g's classical teachers, each
// with a searcher and table of its own, searching depth plies with the
// evaluation eval names (the game's default when empty; nnue reads the
// NNUE net names, the one built in when net is empty or shipped.Ref)
// and valuing a two-player lead of scale points tanh(1); and a
// description of the teacher for people.
func ClassicalTeacher(g engine.Game, depth int, eval, net string, scale float64) (func() (*Classical, error), string, error) {
	if err := CheckClassicalDepth(g, depth); err != nil {
		return nil, "", fmt.Errorf("a classical teacher's %w", err)
	}
	if err := CheckClassicalScale(scale); err != nil {
		return nil, "", fmt.Errorf("a classical teacher's value %w", err)
	}
	cl := games.ClassicalOf(g)
	newSearcher := cl.NewSearcher
	doc := cl.Name()
	if eval != "" || net != "" {
		if eval == "" {
			eval = searchconfig.EvalNNUE
		}
		if eval == searchconfig.EvalNNUE && net == "" {
			// As everywhere, the nnue evaluation without a net named is
			// the one built in.
			net = shipped.Ref
		}
		ev, err := cl.Evaluation(eval, net)
		if err != nil {
			return nil, "", err
		}
		newSearcher, doc = ev.NewSearcher, fmt.Sprintf("%s with %s", cl.Name(), ev)
	}
	values := fmt.Sprintf("value scale %g points", scale)
	if g.Players() != 2 {
		values = "each seat's value as the search gives it"
	}
	return func() (*Classical, error) {
			s, err := newSearcher(classicalTableBits)
			if err != nil {
				return nil, err
			}
			return &Classical{Searcher: s, Depth: depth, Scale: scale}, nil
		},
		fmt.Sprintf("%s at depth %d (%s)", doc, depth, values), nil
}
