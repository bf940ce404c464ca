package trichess

import (
	"trench/engine/trichess"
	"trench/internal/ttable"
)

// maxn is the max^n search of p, ply plies from the root, depth plies
// deep: every player maximises its own lead, and the node returns the
// leads of its best child. With bounded, the previous player (who moved
// into p) already has a lead of parentBest in another line: once the
// player to move is sure of a lead that leaves the previous player no
// more than parentBest (the leads sum to 0 and none is below minLead),
// the previous player will not come here, and the search stops (shallow
// pruning).
func (s *Searcher) maxn(p *trichess.Position, ply, depth, parentBest int, bounded bool) Values {
	s.pvLen[ply] = 0
	if s.visit() && ply > 0 {
		return Values{}
	}
	if depth <= 0 || ply >= maxPly-2 {
		return s.quiesceMaxN(p, ply, 0, parentBest, bounded)
	}
	moves := p.GenerateMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		return terminalLeads(p, ply)
	}
	me := p.SideToMove()
	key := s.key(p)
	var ttMove trichess.Move
	if en, ok := s.tt.Probe(key); ok {
		ttMove = en.Move.move
		if ply > 0 && int(en.Depth) >= depth && en.Bound == ttable.Exact {
			var v Values
			v[me] = fromTable(en.Score, ply)
			v[me.Next()] = fromTable(en.Move.others[0], ply)
			v[me.Prev()] = fromTable(en.Move.others[1], ply)
			return v
		}
	}
	order := s.orders[ply][:len(moves)]
	s.scoreMoves(p, ply, moves, order, ttMove)
	var best Values
	var bestMove trichess.Move
	pruned := false
	child := &s.children[ply][0]
	for i := range moves {
		m := pick(moves, order, i)
		s.play(ply, p, child, m)
		v := s.maxn(child, ply+1, depth-1, best[me], i > 0)
		if s.stopped {
			return Values{}
		}
		if i == 0 || v[me] > best[me] {
			best, bestMove = v, m
			s.updatePV(ply, m)
		}
		if bounded && best[me]+parentBest >= -minLead {
			pruned = true
			if i > 0 {
				s.cutoff(p, ply, depth, m)
			}
			break
		}
	}
	// A pruned node's leads bound the player to move's from below only:
	// the table keeps its move, for ordering.
	bound := ttable.Exact
	if pruned {
		bound = ttable.Lower
	}
	s.tt.Store(key, depth, toTable(best[me], ply), bound, ttData{move: bestMove,
		others: [2]int32{toTable(best[me.Next()], ply), toTable(best[me.Prev()], ply)}})
	return best
}

// quiesceMaxN is max^n's quiescence search: the player to move stands
// pat on the evaluation or captures, maximising its own lead; a player
// in check in the first checkEvasions plies tries all its moves instead.
// parentBest and bounded prune as in maxn.
func (s *Searcher) quiesceMaxN(p *trichess.Position, ply, qply, parentBest int, bounded bool) Values {
	s.pvLen[ply] = 0
	if s.visit() {
		return Values{}
	}
	if p.IsFat() {
		return terminalLeads(p, ply)
	}
	me := p.SideToMove()
	var moves []trichess.Move
	var best Values
	standing := false
	if qply < checkEvasions && p.InCheck(me) {
		moves = p.GenerateMoves(s.moves[ply][:0])
		if len(moves) == 0 {
			return terminalLeads(p, ply)
		}
	} else {
		best, standing = s.evalLeads(ply, p), true
		if qply >= maxQuiesceMaxN || ply >= maxPly-1 || bounded && best[me]+parentBest >= -minLead {
			return best
		}
		moves = p.GenerateCaptures(s.moves[ply][:0])
	}
	order := s.orders[ply][:len(moves)]
	s.scoreMoves(p, ply, moves, order, 0)
	child := &s.children[ply][0]
	for i := range moves {
		m := pick(moves, order, i)
		s.play(ply, p, child, m)
		v := s.quiesceMaxN(child, ply+1, qply+1, best[me], standing || i > 0)
		if s.stopped {
			return Values{}
		}
		if !standing && i == 0 || v[me] > best[me] {
			best = v
		}
		if bounded && best[me]+parentBest >= -minLead {
			break
		}
	}
	return best
}
