package trench

import (
	"math/bits"
	"sort"

	"trench/engine"
	"trench/engine/trench"
	"trench/games/plugin"
)

// webBoard is Trench on the web page.
type webBoard struct{}

// Pieces gives each piece's letter, upper-case for Black.
func (webBoard) Pieces(s engine.State) map[string]string {
	p := &s.(*trench.State).Position
	board := map[string]string{}
	for sq := trench.Square(0); sq < 64; sq++ {
		if c, k, ok := p.PieceAt(sq); ok {
			l := string("PSKCG"[k])
			if c == trench.White {
				l = string("pskcg"[k])
			}
			board[sq.String()] = l
		}
	}
	return board
}

func (webBoard) Moves(s engine.State) []plugin.WebMove {
	p := &s.(*trench.State).Position
	var out []plugin.WebMove
	for _, m := range p.GenerateMoves(nil) {
		out = append(out, describe(p, m))
	}
	return out
}

func (webBoard) Move(prev engine.State, action int) (plugin.WebMove, bool) {
	ps := prev.(*trench.State)
	m, ok := trench.ActionToMove(action, ps.SideToMove())
	return describe(&ps.Position, m), ok
}

func (webBoard) Status(s engine.State) plugin.WebStatus {
	p := &s.(*trench.State).Position
	return plugin.WebStatus{Scores: []int{p.Score(trench.Black), p.Score(trench.White)},
		QuietPlies: p.QuietPlies(), QuietLimit: trench.QuietLimit, WinScore: trench.WinScore, MoveNumber: p.MoveNumber()}
}

// describe returns a move with its route's captures.
func describe(p *trench.Position, m trench.Move) plugin.WebMove {
	lm := plugin.WebMove{Move: m.String(), From: m.From().String(), To: m.To().String(), Captures: []string{}}
	for b := p.Captured(m); b != 0; b &= b - 1 {
		lm.Captures = append(lm.Captures, trench.Square(bits.TrailingZeros64(b)).String())
	}
	sort.Strings(lm.Captures)
	return lm
}
