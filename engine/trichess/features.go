package trichess

import "trench/engine"

// The feature planes of a position, seen from the side to move: players
// are taken in the order mover, next player, previous player, and the board
// is drawn as 12 rows of 8, the three sections in the mover's frame:
//
//	rows 0-3   the previous player's section, rank 1 (row 0) to rank 4,
//	           files mirrored, so that its rank 4 touches the mover's
//	           files a-d where they cross into it
//	rows 4-7   the mover's section, rank 4 (row 4) down to rank 1
//	rows 8-11  the next player's section, rank 4 (row 8) down to rank 1,
//	           files mirrored
//
// Planes:
//
//	0-5    the mover's pawns, knights, bishops, rooks, queen, king
//	6-11   the next player's, in the same order
//	12-17  the previous player's
//	18-23  castling rights, king-side then queen-side, per player
//	24-26  material on the board / 39, per player
//	27-28  the next, then the previous player is protected from the mover
//	       by non-aggression
//	29-30  the mover is protected from the next, then the previous player
//	31-33  each player's king is in check
//	34     plies since the last capture or pawn move / 150
//	35     repetitions of this position before now / 2 (State only)
//	36     ones
const NumPlanes = 37

// FeatureShape is the shape of the encoded features.
var FeatureShape = engine.Shape{Planes: NumPlanes, Height: 12, Width: 8}

const planeSize = 96

// cell is the index within a plane of the square s in the frame of c.
func cell(s Square, c Color) int {
	r := relative(s, c)
	f, rank := r.File(), r.Rank()
	switch r.Section() {
	case 0:
		return (7-rank)*8 + f
	case 2:
		return rank*8 + 7 - f
	}
	return (11-rank)*8 + 7 - f
}

// EncodeFeatures writes the position's NumPlanes×96 features into dst;
// the repetition plane is left zero.
func (p *Position) EncodeFeatures(dst []float32) {
	dst = dst[:NumPlanes*planeSize]
	clear(dst)
	me := p.side
	players := [3]Color{me, me.Next(), me.Prev()}
	var order [numColors]int // a colour's place in players
	for i, c := range players {
		order[c] = i
	}
	for s, pc := range p.board {
		if pc != 0 {
			dst[(order[pc.color()]*numKinds+int(pc.kind()))*planeSize+cell(Square(s), me)] = 1
		}
	}
	fill := func(plane int, v float32) {
		if v != 0 {
			for i := plane * planeSize; i < (plane+1)*planeSize; i++ {
				dst[i] = v
			}
		}
	}
	b2f := func(b bool) float32 {
		if b {
			return 1
		}
		return 0
	}
	for i, c := range players {
		fill(18+2*i, b2f(p.CanCastle(c, false)))
		fill(19+2*i, b2f(p.CanCastle(c, true)))
		fill(24+i, float32(p.material[c])/ArmyPoints)
		fill(31+i, b2f(p.InCheck(c)))
	}
	fill(27, b2f(p.protected(players[1], me)))
	fill(28, b2f(p.protected(players[2], me)))
	fill(29, b2f(p.protected(me, players[1])))
	fill(30, b2f(p.protected(me, players[2])))
	fill(34, float32(p.quiet)/QuietLimit)
	fill(36, 1)
}
