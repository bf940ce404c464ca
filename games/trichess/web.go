package trichess

import (
	"trench/engine"
	"trench/engine/trichess"
	"trench/games/plugin"
)

// webBoard is Trichess on the web page.
type webBoard struct{}

// Pieces gives each piece as its owner's letter and its kind, e.g. "wK".
func (webBoard) Pieces(s engine.State) map[string]string {
	ts := s.(*trichess.State)
	board := map[string]string{}
	for sq := trichess.Square(0); sq < trichess.NumSquares; sq++ {
		if c, k, ok := ts.PieceAt(sq); ok {
			board[sq.String()] = string([]byte{c.Letter(), k.Letter()})
		}
	}
	return board
}

func (webBoard) Moves(s engine.State) []plugin.WebMove {
	ts := s.(*trichess.State)
	var out []plugin.WebMove
	for _, m := range ts.Moves() {
		out = append(out, describe(&ts.Position, m))
	}
	return out
}

func (webBoard) Move(prev engine.State, action int) (plugin.WebMove, bool) {
	ps := prev.(*trichess.State)
	m, ok := ps.ActionToMove(action)
	if !ok {
		return plugin.WebMove{}, false
	}
	return describe(&ps.Position, m), true
}

// Status gives the titles' points once the game is over, every player's
// material and the players in check.
func (webBoard) Status(s engine.State) plugin.WebStatus {
	ts := s.(*trichess.State)
	pts := ts.Outcome().Points()
	st := plugin.WebStatus{Scores: pts[:], QuietPlies: ts.QuietPlies(), QuietLimit: trichess.QuietLimit, MoveNumber: ts.MoveNumber()}
	for c := trichess.White; c <= trichess.Black; c++ {
		st.Material = append(st.Material, ts.Material(c))
		if !ts.Over() && ts.InCheck(c) {
			st.Checks = append(st.Checks, int(c))
		}
	}
	return st
}

// describe returns a move with the piece it takes.
func describe(p *trichess.Position, m trichess.Move) plugin.WebMove {
	lm := plugin.WebMove{Move: m.String(), From: m.From().String(), To: m.To().String(), Captures: []string{}}
	if _, _, ok := p.PieceAt(m.To()); ok {
		lm.Captures = append(lm.Captures, m.To().String())
	}
	return lm
}
