package alphabeta

import "trench/engine/trench"

// Evaluator scores the positions a search reaches. The search tells it
// the root, then every move it makes, ply by ply, so that an evaluator
// may keep state along the path (an efficiently updatable net's
// accumulators). A Searcher owns its evaluator: one evaluator must not
// serve two engines.
type Evaluator interface {
	// SetRoot makes p the position at ply 0.
	SetRoot(p *trench.Position)
	// Push makes child, parent (the position at ply) after the legal
	// move m, the position at ply+1.
	Push(ply int, parent, child *trench.Position, m trench.Move)
	// Evaluate scores p, the position at ply, which is not over, for the
	// side to move, in centipoints, strictly within ±(Win-10000).
	Evaluate(ply int, p *trench.Position) int
}

// Hand is the hand-written evaluation, Evaluate, as an Evaluator: the
// default.
type Hand struct{}

// SetRoot does nothing: Evaluate needs no state.
func (Hand) SetRoot(*trench.Position) {}

// Push does nothing: Evaluate needs no state.
func (Hand) Push(int, *trench.Position, *trench.Position, trench.Move) {}

// Evaluate is Evaluate(p).
func (Hand) Evaluate(_ int, p *trench.Position) int { return Evaluate(p) }

// Rules is the evaluation the rules alone give, with nothing learnt or
// hand-tuned: the score difference, 100 centipoints a point. (The
// material on the board is the same up to a constant: each side's is
// the army's less what the opponent scored.) It is the evaluation of
// the first generation of a net's training.
type Rules struct{}

// SetRoot does nothing: the evaluation needs no state.
func (Rules) SetRoot(*trench.Position) {}

// Push does nothing: the evaluation needs no state.
func (Rules) Push(int, *trench.Position, *trench.Position, trench.Move) {}

// Evaluate is 100 times the side to move's score less the opponent's.
func (Rules) Evaluate(_ int, p *trench.Position) int {
	us := p.SideToMove()
	return scoreWeight * (p.Score(us) - p.Score(us.Other()))
}
