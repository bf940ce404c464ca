package trichess

import "trench/engine/trichess"

// brs is Best-Reply Search (BRS+) of p, ply plies from the root, depth
// plies deep, within (alpha, beta), fail-soft. At the root player's turn
// it tries each of its moves; at the next player's it searches one layer
// for both opponents, counted as one ply: each move of the next player
// followed by the previous player's best-ordered move, and the next
// player's best-ordered move followed by each move of the previous
// player, minimising the root player's lead.
func (s *Searcher) brs(p *trichess.Position, ply, depth, alpha, beta int) int {
	sc, done, moves, order, key := s.enter(p, ply, depth, alpha, beta)
	if done {
		return sc
	}
	alpha0, beta0 := alpha, beta
	if p.SideToMove() == s.root {
		best := -infinity
		var bestMove trichess.Move
		child := &s.children[ply][0]
		for i := range moves {
			m := pick(moves, order, i)
			s.play(ply, p, child, m)
			sc := s.pvs(child, ply, depth, alpha, beta, i == 0, true, s.brs)
			if s.stopped {
				return 0
			}
			if sc > best {
				best, bestMove = sc, m
				if sc > alpha {
					alpha = sc
					s.updatePV(ply, m)
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
	// The next player's layer: the root player moves at ply 0 and a
	// layer plays both opponents' moves, so no other player moves here.
	best := infinity
	var bestMove trichess.Move
	first := true
	// The next player's moves, the previous player answering with its
	// best-ordered move.
	a, b := &s.children[ply][0], &s.children[ply][1]
	for i := range moves {
		m := pick(moves, order, i)
		s.play(ply, p, a, m)
		var sc int
		var reply trichess.Move
		replies := a.GenerateMoves(s.replies[ply][:0])
		if len(replies) == 0 {
			sc = terminalLeads(a, ply+1)[s.root]
			s.pvLen[ply+1] = 0
		} else {
			reply = s.bestOrdered(a, ply+1, replies, s.replyOrd[ply][:len(replies)])
			s.playReply(ply, a, b, reply)
			sc = s.pvs(b, ply, depth, alpha, beta, first, false, s.brs)
		}
		first = false
		if s.stopped {
			return 0
		}
		if sc < best {
			best, bestMove = sc, m
			if sc < beta {
				beta = sc
				if len(replies) > 0 {
					s.updatePV2(ply, m, reply)
				} else {
					s.updatePV(ply, m)
				}
			}
		}
		if alpha >= beta {
			s.cutoff(p, ply, depth, m)
			s.store(key, ply, depth, best, alpha0, beta0, ttData{move: bestMove})
			return best
		}
	}
	// The next player's best-ordered move, then each move of the
	// previous player.
	lead := s.bestOrdered(p, ply, moves, order)
	s.play(ply, p, a, lead)
	replies := a.GenerateMoves(s.replies[ply][:0])
	if len(replies) == 0 {
		if sc := terminalLeads(a, ply+1)[s.root]; sc < best {
			best, bestMove = sc, lead
			s.pvLen[ply+1] = 0
			s.updatePV(ply, lead)
		}
	}
	rorder := s.replyOrd[ply][:len(replies)]
	s.scoreMoves(a, ply+1, replies, rorder, 0)
	for i := range replies {
		r := pick(replies, rorder, i)
		s.playReply(ply, a, b, r)
		sc := s.pvs(b, ply, depth, alpha, beta, false, false, s.brs)
		if s.stopped {
			return 0
		}
		if sc < best {
			best, bestMove = sc, lead
			if sc < beta {
				beta = sc
				s.updatePV2(ply, lead, r)
			}
		}
		if alpha >= beta {
			s.cutoff(a, ply+1, depth, r)
			break
		}
	}
	s.store(key, ply, depth, best, alpha0, beta0, ttData{move: bestMove})
	return best
}
