// Package trichess plugs Trichess into the generic code: its seats, its
// perft conventions and reference move files, its expected title points,
// its endings in its own words and its boards for the terminal and the
// web page, its built-in net, and its classical search (package
// alphabeta/trichess: a hand-written evaluation searched by BRS+, the
// default, paranoid or max^n).
package trichess

import (
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trichess"
	"trench/games/plugin"
)

// Plugin is Trichess's plug-in.
var Plugin = &plugin.Plugin{
	Rules:      trichess.Game,
	Title:      "Trichess",
	Seats:      []string{"white", "red", "black"},
	Playable:   true,
	DefaultNet: &plugin.Net{Name: shipped.TrichessName, Data: shipped.Trichess},
	// At 200 ms a move the tree search with the built-in net trailed the
	// same search without it and the classical search at one table, a
	// lead of -0.85 [-1.30, -0.40] points a game over 36 games (README),
	// so a tree search people play (--kind mcts) searches without it.
	PlaysWithoutNet: true,
	PositionHelp: "A Trichess position string has five space-separated fields (docs/trichess.md, " +
		"Notation): the sections White|Red|Black, each rank 1 to rank 4 separated by \"/\" with " +
		"pieces as owner letter and kind (wK) and digits for runs of empty squares; the side to " +
		"move (w, r or b); the castling rights (KQ,KQ,-); the plies since the last capture or pawn " +
		"move; the move number. The start is " + trichess.StartFEN + ".",
	Perft: &plugin.Perft{
		Start: trichess.StartFEN,
		Parse: func(text string) (plugin.PerftPosition, error) {
			p, err := trichess.ParseFEN(text)
			return perftPosition{p}, err
		},
		IsReference:    trichess.IsReferenceLine,
		CheckReference: trichess.CheckReferenceLine,
	},
	Terminal:       view{},
	Web:            webBoard{},
	ExpectedPoints: trichess.ExpectedPoints,
	RulesResult:    func(final engine.State) string { return final.(*trichess.State).Outcome().String() },
	Classical:      classical{},
}

// perftPosition counts with the concrete position.
type perftPosition struct{ p trichess.Position }

func (t perftPosition) Perft(depth int) uint64 { return trichess.Perft(&t.p, depth) }

func (t perftPosition) Divide(depth int) []plugin.DivideLine {
	return plugin.Divide(depth, t.p.GenerateMoves(nil), func(m trichess.Move) uint64 {
		child := t.p
		child.Play(m)
		return trichess.Perft(&child, depth-1)
	})
}
