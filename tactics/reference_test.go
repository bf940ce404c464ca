package tactics_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/tactics"
)

// The capture search as first written, kept as the reference the fast
// search must agree with: it clones a position per capture and allocates
// its lines, leads and lists.

func refResolve(s engine.State) engine.State {
	if _, ok := s.(engine.Captures); !ok || s.Over() {
		return nil
	}
	q := refSearcher{players: s.Game().Players(), nodes: tactics.Nodes}
	var pv []int
	if q.players == 2 {
		_, pv = q.negamax(s, q.leads(s), tactics.Depth, -1001, 1001)
	} else {
		q.nodes = tactics.NodesMaxN
		_, pv = q.maxn(s, q.leads(s), tactics.DepthMaxN)
	}
	if len(pv) == 0 {
		return nil
	}
	r := s.Clone()
	for _, a := range pv {
		r.Play(a)
	}
	return r
}

type refSearcher struct {
	players, nodes, visited int
}

func (q *refSearcher) leads(s engine.State) []float32 {
	if s.Over() {
		r := s.Result(nil)
		for p := range r {
			r[p] *= 1000
		}
		return r
	}
	return tactics.MaterialLeads(s, nil)
}

type refChild struct {
	action int
	state  engine.State
	leads  []float32
}

func (q *refSearcher) children(s engine.State) []refChild {
	me := s.ToMove()
	var kids []refChild
	for _, a := range s.(engine.Captures).CaptureActions(nil) {
		if q.visited >= q.nodes {
			break
		}
		q.visited++
		c := s.Clone()
		c.Play(a)
		kids = append(kids, refChild{a, c, q.leads(c)})
	}
	slices.SortStableFunc(kids, func(x, y refChild) int { return cmp.Compare(y.leads[me], x.leads[me]) })
	return kids
}

func (q *refSearcher) negamax(s engine.State, leads []float32, depth int, alpha, beta float32) (float32, []int) {
	me := s.ToMove()
	best := leads[me]
	if s.Over() || depth == 0 || best >= beta {
		return best, nil
	}
	alpha = max(alpha, best)
	var pv []int
	for _, c := range q.children(s) {
		var v float32
		var line []int
		if c.state.ToMove() == me {
			v, line = q.negamax(c.state, c.leads, depth-1, alpha, beta)
		} else {
			v, line = q.negamax(c.state, c.leads, depth-1, -beta, -alpha)
			v = -v
		}
		if v > best {
			best = v
			pv = append([]int{c.action}, line...)
			if v >= beta {
				break
			}
			alpha = max(alpha, v)
		}
	}
	return best, pv
}

func (q *refSearcher) maxn(s engine.State, leads []float32, depth int) ([]float32, []int) {
	if s.Over() || depth == 0 {
		return leads, nil
	}
	me := s.ToMove()
	var pv []int
	for _, c := range q.children(s) {
		v, line := q.maxn(c.state, c.leads, depth-1)
		if v[me] > leads[me] {
			leads = v
			pv = append([]int{c.action}, line...)
		}
	}
	return leads, pv
}

// refTaken prices a capture by playing it on a copy.
func refTaken(s engine.State, a int) float32 {
	next := s.Clone()
	next.Play(a)
	mover := s.ToMove()
	was, is := s.(engine.Material).Materials(nil), next.(engine.Material).Materials(nil)
	var lost float32
	for p := range was {
		if p != mover {
			lost += was[p] - is[p]
		}
	}
	return max(lost, 0)
}

// variedStates plays n random games of g for up to maxPlies plies and
// returns a position from each, none of them over: openings, middle games
// and endings close to a win.
func variedStates(g engine.Game, n, maxPlies int, seed uint64) []engine.State {
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []engine.State
	for len(out) < n {
		s := g.Start()
		plies := rng.IntN(maxPlies)
		for ply := 0; ply < plies && !s.Over(); ply++ {
			acts := s.LegalActions(nil)
			// Prefer captures half the time, so that games reach
			// their endings with material gone.
			if caps := s.(engine.Captures).CaptureActions(nil); len(caps) > 0 && rng.IntN(2) == 0 {
				acts = caps
			}
			s.Play(acts[rng.IntN(len(acts))])
		}
		if !s.Over() {
			out = append(out, s)
		}
	}
	return out
}

// TestResolveMatchesReference checks that the capture search ends every
// one of many random positions of both games where the reference search
// does, and that it leaves its argument unchanged.
func TestResolveMatchesReference(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 600
	}
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		resolved, gameOver := 0, 0
		for i, s := range variedStates(g, n, 160, 2) {
			before := s.String()
			want, got := refResolve(s), tactics.Resolve(s)
			if s.String() != before {
				t.Fatalf("%s #%d: Resolve changed %s to %s", g.Name(), i, before, s)
			}
			switch {
			case want == nil && got == nil:
				continue
			case want == nil || got == nil:
				t.Errorf("%s #%d %s: Resolve = %v, the reference %v", g.Name(), i, s, got, want)
				continue
			case got.String() != want.String():
				t.Errorf("%s #%d %s: Resolve = %s, the reference %s", g.Name(), i, s, got, want)
			}
			resolved++
			if want.Over() {
				gameOver++
			}
		}
		t.Logf("%s: %d of %d positions resolved, %d of them to the game's end", g.Name(), resolved, n, gameOver)
		// Trichess games seldom end by a capture.
		if resolved < n/10 || g == trench.Game && gameOver == 0 {
			t.Errorf("%s: %d positions resolved, %d to the game's end: the sample does not exercise the search", g.Name(), resolved, gameOver)
		}
	}
}

// TestTakenMatchesPlaying checks the price of every capture and every
// quiet move of random positions against playing it.
func TestTakenMatchesPlaying(t *testing.T) {
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		captures := 0
		for _, s := range variedStates(g, 300, 160, 3) {
			for _, a := range s.LegalActions(nil) {
				want := refTaken(s, a)
				if got := tactics.Taken(s, a); got != want {
					t.Errorf("%s %s: %s takes %v, playing it takes %v", g.Name(), s, s.ActionString(a), got, want)
				}
				if want > 0 {
					captures++
				}
			}
		}
		if captures < 100 {
			t.Errorf("%s: only %d captures priced", g.Name(), captures)
		}
	}
}
