package trichess

import (
	"trench/engine/trichess"
	"trench/internal/ttable"
)

// paranoid is the paranoid search of p, ply plies from the root, depth
// plies deep, within (alpha, beta): the root player maximises its lead,
// both opponents minimise it. It is fail-soft.
func (s *Searcher) paranoid(p *trichess.Position, ply, depth, alpha, beta int) int {
	sc, done, moves, order, key := s.enter(p, ply, depth, alpha, beta)
	if done {
		return sc
	}
	maximizing := p.SideToMove() == s.root
	alpha0, beta0 := alpha, beta
	best := infinity
	if maximizing {
		best = -infinity
	}
	var bestMove trichess.Move
	child := &s.children[ply][0]
	for i := range moves {
		m := pick(moves, order, i)
		s.play(ply, p, child, m)
		sc := s.pvs(child, ply, depth, alpha, beta, i == 0, maximizing, s.paranoid)
		if s.stopped {
			return 0
		}
		if s.better(maximizing, sc, best) {
			best, bestMove = sc, m
			if maximizing && sc > alpha || !maximizing && sc < beta {
				s.updatePV(ply, m)
			}
			if maximizing {
				alpha = max(alpha, sc)
			} else {
				beta = min(beta, sc)
			}
		}
		if alpha >= beta {
			s.cutoff(p, ply, depth, m)
			break
		}
	}
	s.store(key, ply, depth, best, alpha0, beta0, ttData{move: bestMove})
	return best
}

// better reports whether sc improves on best for the maximising or
// minimising player.
func (s *Searcher) better(maximizing bool, sc, best int) bool {
	if maximizing {
		return sc > best
	}
	return sc < best
}

// pvs searches child, after a move at ply, with principal variation
// search: the first move with the whole window, the others with a null
// window first, searched again with the whole window when they may be
// better.
func (s *Searcher) pvs(child *trichess.Position, ply, depth, alpha, beta int, first, maximizing bool,
	search func(*trichess.Position, int, int, int, int) int) int {
	if first {
		return search(child, ply+1, depth-1, alpha, beta)
	}
	if maximizing {
		sc := search(child, ply+1, depth-1, alpha, alpha+1)
		if sc > alpha && sc < beta && !s.stopped {
			sc = search(child, ply+1, depth-1, alpha, beta)
		}
		return sc
	}
	sc := search(child, ply+1, depth-1, beta-1, beta)
	if sc < beta && sc > alpha && !s.stopped {
		sc = search(child, ply+1, depth-1, alpha, beta)
	}
	return sc
}

// store keeps a node's result in the table: best, found within (alpha0,
// beta0), is a bound or the node's value.
func (s *Searcher) store(key uint64, ply, depth, best, alpha0, beta0 int, data ttData) {
	bound := ttable.Exact
	switch {
	case best <= alpha0:
		bound = ttable.Upper
	case best >= beta0:
		bound = ttable.Lower
	}
	s.tt.Store(key, depth, toTable(best, ply), bound, data)
}

// quiesce is the quiescence search of BRS and Paranoid: the player to
// move stands pat on the evaluation or captures, the root player
// maximising its lead and the opponents minimising it; a player in check
// in the first checkEvasions plies tries all its moves instead. qply is
// the plies of quiescence so far.
func (s *Searcher) quiesce(p *trichess.Position, ply, qply, alpha, beta int) int {
	s.pvLen[ply] = 0
	if s.visit() {
		return 0
	}
	if p.IsFat() {
		return terminalLeads(p, ply)[s.root]
	}
	maximizing := p.SideToMove() == s.root
	var moves []trichess.Move
	best := infinity
	if maximizing {
		best = -infinity
	}
	if qply < checkEvasions && p.InCheck(p.SideToMove()) {
		moves = p.GenerateMoves(s.moves[ply][:0])
		if len(moves) == 0 {
			return terminalLeads(p, ply)[s.root]
		}
	} else {
		best = s.evalLead(ply, p, s.root)
		if qply >= maxQuiesce || ply >= maxPly-1 {
			return best
		}
		if maximizing {
			if best >= beta {
				return best
			}
			alpha = max(alpha, best)
		} else {
			if best <= alpha {
				return best
			}
			beta = min(beta, best)
		}
		moves = p.GenerateCaptures(s.moves[ply][:0])
	}
	order := s.orders[ply][:len(moves)]
	s.scoreMoves(p, ply, moves, order, 0)
	child := &s.children[ply][0]
	for i := range moves {
		m := pick(moves, order, i)
		s.play(ply, p, child, m)
		sc := s.quiesce(child, ply+1, qply+1, alpha, beta)
		if s.stopped {
			return 0
		}
		if s.better(maximizing, sc, best) {
			best = sc
			if maximizing {
				alpha = max(alpha, sc)
			} else {
				beta = min(beta, sc)
			}
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// enter begins a node of the BRS+ or paranoid search, depth plies deep
// within (alpha, beta): its score and done when the node is decided
// before its moves are searched (the search stopped, the horizon, a
// finished game, a table entry that cuts), else its moves in order of
// their scores (pick takes them best first) and its table key.
func (s *Searcher) enter(p *trichess.Position, ply, depth, alpha, beta int) (score int, done bool, moves []trichess.Move, order []int32, key uint64) {
	s.pvLen[ply] = 0
	if s.visit() && ply > 0 {
		return 0, true, nil, nil, 0
	}
	if depth <= 0 || ply >= maxPly-2 {
		return s.quiesce(p, ply, 0, alpha, beta), true, nil, nil, 0
	}
	moves = p.GenerateMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		return terminalLeads(p, ply)[s.root], true, nil, nil, 0
	}
	key = s.key(p)
	var ttMove trichess.Move
	if en, ok := s.tt.Probe(key); ok {
		ttMove = en.Move.move
		if sc := fromTable(en.Score, ply); ply > 0 && int(en.Depth) >= depth && en.Cuts(sc, alpha, beta) {
			return sc, true, nil, nil, 0
		}
	}
	order = s.orders[ply][:len(moves)]
	s.scoreMoves(p, ply, moves, order, ttMove)
	return 0, false, moves, order, key
}
