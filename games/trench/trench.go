// Package trench plugs Trench into the generic code: its seats, its
// classical search (package alphabeta), its built-in net (package
// checkpoints/shipped), its perft conventions and its boards for the
// terminal and the web page.
package trench

import (
	"trench/checkpoints/shipped"
	"trench/engine/trench"
	"trench/games/plugin"
)

// Plugin is Trench's plug-in.
var Plugin = &plugin.Plugin{
	Rules:    trench.Game,
	Title:    "Trench",
	Seats:    []string{"black", "white"},
	Playable: true,
	PositionHelp: "A Trench position string has six space-separated fields: the ranks 8 to 1 " +
		"separated by \"/\" (Black's pieces upper-case P S K C G, White's lower-case, digits for " +
		"runs of empty squares), the side to move (b or w), Black's score, White's score, the " +
		"plies since the last capture and the move number; the start is " + trench.StartFEN + ".",
	DefaultNet: &plugin.Net{Name: shipped.Name, Data: shipped.Default},
	Classical:  classical{},
	Perft: &plugin.Perft{
		Start: trench.StartFEN,
		Parse: func(text string) (plugin.PerftPosition, error) {
			p, err := trench.ParseFEN(text)
			return perftPosition{p}, err
		},
	},
	Terminal: view{},
	Web:      webBoard{},
}

// perftPosition counts with the bitboard position.
type perftPosition struct{ p trench.Position }

func (t perftPosition) Perft(depth int) uint64 { return trench.Perft(&t.p, depth) }

func (t perftPosition) Divide(depth int) []plugin.DivideLine {
	return plugin.Divide(depth, t.p.GenerateMoves(nil), func(m trench.Move) uint64 {
		child := t.p
		child.Play(m)
		return trench.Perft(&child, depth-1)
	})
}
