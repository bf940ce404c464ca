package trichess

import (
	"cmp"
	"fmt"
	"slices"
)

// The action encoding for the network.
//
// Actions are seen from the mover's side: squares are rotated so that the
// mover's section is section 0 (White's), the next player's section 1 and
// the previous player's section 2. The board's geometry is the same under
// this rotation, so one table serves every player.
//
// The table lists, for each from-square, every square a queen or a knight
// could reach from it on an empty board (every move of every piece, pawns
// and castling included, is among them), and one action per pair. A pawn
// move onto an opponent's rank 1 is that pair's action when it frees a pawn
// or, with nothing captured, frees nothing (both leave a pawn there, and
// only one of them is ever legal); four more actions per such pair free a
// knight, bishop, rook or queen. So every legal move has exactly one action
// and every action at most one legal move.
var (
	pairAction [NumSquares][NumSquares]int32 // -1 for a pair no piece can play
	libAction  [NumSquares][NumSquares]int32 // first of 4 liberation actions (N, B, R, Q), or -1
	actionFrom []Square
	actionTo   []Square
	actionLib  []Kind // Pawn for a plain action
)

// ActionCount is the size of the action space.
const ActionCount = 2984

func initActions() {
	for f := range pairAction {
		for t := range pairAction[f] {
			pairAction[f][t], libAction[f][t] = -1, -1
		}
	}
	add := func(f, t Square, k Kind) int32 {
		actionFrom, actionTo, actionLib = append(actionFrom, f), append(actionTo, t), append(actionLib, k)
		return int32(len(actionFrom) - 1)
	}
	for f := Square(0); f < NumSquares; f++ {
		var reach [NumSquares]bool
		for _, ray := range rookRays[f] {
			for _, t := range ray {
				reach[t] = true
			}
		}
		for _, ray := range bishopRays[f] {
			for _, t := range ray {
				reach[t] = true
			}
		}
		for _, t := range knightTo[f] {
			reach[t] = true
		}
		for c := range numColors {
			for _, t := range pawnCapTo[c][f] {
				reach[t] = true
			}
		}
		for t := Square(0); t < NumSquares; t++ {
			if reach[t] {
				pairAction[f][t] = add(f, t, Pawn)
			}
		}
	}
	for f := Square(0); f < NumSquares; f++ {
		for t := Square(0); t < NumSquares; t++ {
			if t.Rank() != 0 || t.Section() == White || (pawnPush[White][f] != t && !containsSquare(pawnCapTo[White][f], t)) {
				continue
			}
			libAction[f][t] = add(f, t, Knight)
			for k := Bishop; k <= Queen; k++ {
				add(f, t, k)
			}
		}
	}
	if len(actionFrom) != ActionCount {
		panic(fmt.Sprintf("trichess: the action table has %d actions, ActionCount says %d", len(actionFrom), ActionCount))
	}
	initActionCells()
}

// The actions laid over the feature board for a convolutional policy head
// (engine.ActionCells): an action's move shape is its step on the feature
// board, from the from-square's cell to the to-square's (rows and files
// apart), with the piece a liberation frees; shapes are numbered in
// order of freed piece, rows, then files.
var (
	actionPlanes int
	actionCell   []int32 // from-cell·actionPlanes + shape
)

// moveShape is a move's step on the feature board and the piece it frees
// (Pawn for none).
type moveShape struct {
	rows, files int
	lib         Kind
}

func initActionCells() {
	shapeOf := func(a int) moveShape {
		f, t := cell(actionFrom[a], White), cell(actionTo[a], White)
		return moveShape{t/8 - f/8, t%8 - f%8, actionLib[a]}
	}
	var shapes []moveShape
	index := map[moveShape]int{}
	for a := range actionFrom {
		if sh := shapeOf(a); !slices.Contains(shapes, sh) {
			shapes = append(shapes, sh)
		}
	}
	slices.SortFunc(shapes, func(x, y moveShape) int {
		return cmp.Or(cmp.Compare(x.lib, y.lib), cmp.Compare(x.rows, y.rows), cmp.Compare(x.files, y.files))
	})
	for i, sh := range shapes {
		index[sh] = i
	}
	actionPlanes = len(shapes)
	actionCell = make([]int32, len(actionFrom))
	for a := range actionFrom {
		actionCell[a] = int32(cell(actionFrom[a], White)*actionPlanes + index[shapeOf(a)])
	}
}

// relative rotates s into the frame of player c (c's section first).
func relative(s Square, c Color) Square {
	return SquareAt((s.Section()+numColors-c)%numColors, s.File(), s.Rank())
}

// absolute rotates s back from the frame of player c.
func absolute(s Square, c Color) Square {
	return SquareAt((s.Section()+c)%numColors, s.File(), s.Rank())
}

// MoveToAction returns the action of move m played by c, or -1 if no action
// encodes it.
func MoveToAction(m Move, c Color) int {
	f, t := relative(m.From(), c), relative(m.To(), c)
	if k, ok := m.Liberation(); ok && k != Pawn {
		if b := libAction[f][t]; b >= 0 {
			return int(b) + int(k-Knight)
		}
		return -1
	}
	return int(pairAction[f][t])
}

// ActionToMove returns the move of p's side to move that action a
// encodes, and false if a is out of range. The move need not be legal.
func (p *Position) ActionToMove(a int) (Move, bool) {
	if a < 0 || a >= ActionCount {
		return 0, false
	}
	c := p.side
	from, to := absolute(actionFrom[a], c), absolute(actionTo[a], c)
	if k := actionLib[a]; k != Pawn {
		return NewLiberation(from, to, k), true
	}
	// A pawn reaching an opponent's rank 1 frees a pawn if its owner has
	// any piece captured (then freeing nothing is not a move).
	if pc := p.board[from]; pc == makePiece(c, Pawn) && to.Rank() == 0 && to.Section() != c && p.anyCaptured(c) {
		return NewLiberation(from, to, Pawn), true
	}
	return NewMove(from, to), true
}

// anyCaptured reports whether c has a piece (other than its king) off the
// board.
func (p *Position) anyCaptured(c Color) bool {
	for k := Pawn; k < King; k++ {
		if p.captured(c, k) > 0 {
			return true
		}
	}
	return false
}
