package trichess

import "trench/engine/trichess"

// Move-ordering scores: the table's move first, then captures by the
// most valuable victim and least valuable attacker, liberations, the
// killer moves, and the other moves by their history.
const (
	orderTT        = 1 << 30
	orderCapture   = 1 << 24
	orderLiberate  = 1 << 23
	orderKiller    = 1 << 22
	historyCeiling = 1 << 20
)

// pieceOrder is a kind's worth for ordering captures: the rules' points,
// the king (which is never taken) last.
var pieceOrder = [6]int32{1, 3, 3, 5, 9, 10}

// captureOrder is the ordering score of m in p when it takes a piece,
// else 0.
func captureOrder(p *trichess.Position, m trichess.Move) int32 {
	_, victim, ok := p.PieceAt(m.To())
	if !ok {
		return 0
	}
	_, attacker, _ := p.PieceAt(m.From())
	return orderCapture + 64*pieceOrder[victim] - pieceOrder[attacker]
}

// scoreMoves writes the ordering score of each of moves in p, searched
// ply plies from the root, into order.
func (s *Searcher) scoreMoves(p *trichess.Position, ply int, moves []trichess.Move, order []int32, ttMove trichess.Move) {
	side := p.SideToMove()
	for i, m := range moves {
		var o int32
		switch {
		case m == ttMove:
			o = orderTT
		case p.IsCapture(m):
			o = captureOrder(p, m)
		default:
			if k, ok := m.Liberation(); ok {
				o = orderLiberate + pieceOrder[k]
			} else if m == s.killers[ply][0] {
				o = orderKiller + 1
			} else if m == s.killers[ply][1] {
				o = orderKiller
			} else {
				o = s.history[side][m.From()][m.To()]
			}
		}
		order[i] = o
	}
}

// pick swaps the best-ordered of moves[i:] into place i and returns it.
func pick(moves []trichess.Move, order []int32, i int) trichess.Move {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if order[j] > order[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	order[i], order[best] = order[best], order[i]
	return moves[i]
}

// bestOrdered is the move of moves that the ordering puts first: what a
// BRS+ opponent who does not search plays.
func (s *Searcher) bestOrdered(p *trichess.Position, ply int, moves []trichess.Move, order []int32) trichess.Move {
	var ttMove trichess.Move
	if en, ok := s.tt.Probe(s.key(p)); ok {
		ttMove = en.Move.move
	}
	s.scoreMoves(p, ply, moves, order, ttMove)
	best := 0
	for j := 1; j < len(moves); j++ {
		if order[j] > order[best] {
			best = j
		}
	}
	return moves[best]
}

// cutoff remembers m, which refuted the position at ply searched depth
// plies, as a killer and in the history when it takes nothing.
func (s *Searcher) cutoff(p *trichess.Position, ply, depth int, m trichess.Move) {
	if p.IsCapture(m) {
		return
	}
	if s.killers[ply][0] != m {
		s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], m
	}
	h := &s.history[p.SideToMove()][m.From()][m.To()]
	*h += int32(depth * depth)
	if *h >= historyCeiling {
		for c := range s.history {
			for f := range s.history[c] {
				for t := range s.history[c][f] {
					s.history[c][f][t] /= 2
				}
			}
		}
	}
}
