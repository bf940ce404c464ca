// Package trichess implements Trichess (docs/trichess.md), the
// three-player chess variant, on the engine contract: the 96-square board
// and its step geometry with precomputed step tables, move generation with
// check, the shield rule, non-aggression, liberation and castling, every
// ending with its titles and points, position strings and move notation, a
// Zobrist hash, perft, the network's feature planes and action encoding.
//
// Position is the fast concrete type used by perft; State wraps it as an
// engine.State (adding the repetition history) for search, training and
// play.
package trichess

import (
	"fmt"
	"slices"

	"trench/internal/excerpt"
)

// Color is a player: White, Red or Black, in the order of play.
type Color uint8

// The players, in the order of play; each passes the turn to the player on
// its right.
const (
	White Color = iota
	Red
	Black
	numColors = 3
)

// Next is the player who moves after c (c's right neighbour).
func (c Color) Next() Color { return (c + 1) % numColors }

// Prev is the player who moves before c (c's left neighbour).
func (c Color) Prev() Color { return (c + 2) % numColors }

// Letter is the colour's lower-case letter: w, r or b.
func (c Color) Letter() byte { return "wrb"[c] }

// String is the colour's name.
func (c Color) String() string {
	switch c {
	case White:
		return "White"
	case Red:
		return "Red"
	case Black:
		return "Black"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// Kind is a kind of piece.
type Kind uint8

// The piece kinds.
const (
	Pawn Kind = iota
	Knight
	Bishop
	Rook
	Queen
	King
	numKinds = 6
)

// kindLetters are the kinds' letters in Kind order.
const kindLetters = "PNBRQK"

// Letter is the kind's capital letter: P N B R Q K.
func (k Kind) Letter() byte { return kindLetters[k] }

// String is the kind's name.
func (k Kind) String() string {
	if k < numKinds {
		return [...]string{"pawn", "knight", "bishop", "rook", "queen", "king"}[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Value is the kind's value in points (the king has none).
func (k Kind) Value() int { return [...]int{1, 3, 3, 5, 9, 0}[k] }

// armyCount is how many pieces of each kind an army has.
var armyCount = [numKinds]int{8, 2, 2, 2, 1, 1}

// ArmyPoints is the value of a whole army.
const ArmyPoints = 39

// Square is one of the 96 squares: section*32 + rank*8 + file, with rank 0
// the section owner's back rank (rank 1 in notation) and file 0 file a, as
// the owner sees them.
type Square int8

// NumSquares is the number of squares on the board.
const NumSquares = 96

// NoSquare stands for no square.
const NoSquare Square = -1

// SquareAt returns the square of section sec, file f (0..7), rank r
// (0..3).
func SquareAt(sec Color, f, r int) Square { return Square(int(sec)*32 + r*8 + f) }

// Section is the colour whose territory s lies in.
func (s Square) Section() Color { return Color(s / 32) }

// File is the square's file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s) % 8 }

// Rank is the square's rank, 0 (rank 1, the owner's back rank) to 3 (rank
// 4, at the centre).
func (s Square) Rank() int { return int(s) % 32 / 8 }

// String is the square's name, e.g. "Wa1".
func (s Square) String() string {
	if s < 0 || s >= NumSquares {
		return fmt.Sprintf("Square(%d)", int8(s))
	}
	return string([]byte{"WRB"[s.Section()], byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square name such as "Wa1" or "Be4".
func ParseSquare(text string) (Square, error) {
	if len(text) != 3 {
		return NoSquare, fmt.Errorf("square %s: want a section W, R or B, a file a-h and a rank 1-4, e.g. We2", excerpt.Quote(text))
	}
	sec := -1
	switch text[0] {
	case 'W':
		sec = 0
	case 'R':
		sec = 1
	case 'B':
		sec = 2
	}
	if sec < 0 {
		_, q := excerpt.Char(text, 0)
		return NoSquare, fmt.Errorf("square %s: section %s is not W, R or B", excerpt.Quote(text), q)
	}
	if text[1] < 'a' || text[1] > 'h' {
		_, q := excerpt.Char(text, 1)
		return NoSquare, fmt.Errorf("square %s: file %s is not a-h", excerpt.Quote(text), q)
	}
	if text[2] < '1' || text[2] > '4' {
		_, q := excerpt.Char(text, 2)
		return NoSquare, fmt.Errorf("square %s: rank %s is not 1-4", excerpt.Quote(text), q)
	}
	return SquareAt(Color(sec), int(text[1]-'a'), int(text[2]-'1')), nil
}

// The four steps, seen from the section a piece stands in. Mirroring a step
// (after a move has crossed the centre) is d^1: F↔B, L↔R.
const (
	stepF = iota
	stepB
	stepL
	stepR
)

// step takes one step d from s. flip says the move has crossed the centre,
// so that d is mirrored; the returned flip is toggled when this step
// crosses. ok is false when the step leaves the board.
func step(s Square, d int, flip bool) (Square, bool, bool) {
	if flip {
		d ^= 1
	}
	sec, f, r := s.Section(), s.File(), s.Rank()
	switch d {
	case stepF:
		if r < 3 {
			return s + 8, flip, true
		}
		ns := sec.Prev() // files a-d cross to the left neighbour
		if f >= 4 {
			ns = sec.Next() // files e-h to the right neighbour
		}
		return SquareAt(ns, 7-f, 3), !flip, true
	case stepB:
		if r > 0 {
			return s - 8, flip, true
		}
	case stepL:
		if f > 0 {
			return s - 1, flip, true
		}
	case stepR:
		if f < 7 {
			return s + 1, flip, true
		}
	}
	return NoSquare, flip, false
}

// walk takes the steps of path from s in order; ok is false if one leaves
// the board.
func walk(s Square, flip bool, path ...int) (Square, bool, bool) {
	ok := true
	for _, d := range path {
		if s, flip, ok = step(s, d, flip); !ok {
			return NoSquare, flip, false
		}
	}
	return s, flip, true
}

// The step patterns of the pieces.
var (
	rookSteps   = [][]int{{stepF}, {stepB}, {stepL}, {stepR}}
	bishopPairs = [][]int{
		{stepF, stepL}, {stepL, stepF}, {stepF, stepR}, {stepR, stepF},
		{stepB, stepL}, {stepL, stepB}, {stepB, stepR}, {stepR, stepB},
	}
	knightPaths = [][]int{
		{stepF, stepF, stepL}, {stepF, stepF, stepR}, {stepF, stepL, stepL}, {stepF, stepR, stepR},
		{stepB, stepB, stepL}, {stepB, stepB, stepR}, {stepB, stepL, stepL}, {stepB, stepR, stepR},
		{stepL, stepL, stepF}, {stepL, stepL, stepB}, {stepL, stepF, stepF}, {stepL, stepB, stepB},
		{stepR, stepR, stepF}, {stepR, stepR, stepB}, {stepR, stepF, stepF}, {stepR, stepB, stepB},
	}
	pawnCapturePairs = bishopPairs[:4]
)

// Precomputed step tables. A ray is the sequence of squares a slider passes
// by repeating one pattern; rays identical to another are dropped.
var (
	rookRays    [NumSquares][][]Square
	bishopRays  [NumSquares][][]Square
	knightTo    [NumSquares][]Square
	kingTo      [NumSquares][]Square
	knightFrom  [NumSquares][]Square
	kingFrom    [NumSquares][]Square
	pawnPush    [numColors][NumSquares]Square // one step forward, or NoSquare
	pawnDouble  [numColors][NumSquares]Square // two steps from the pawn's own rank 2, or NoSquare
	pawnCapTo   [numColors][NumSquares][]Square
	pawnCapFrom [numColors][NumSquares][]Square
	// lines[s] has bit t&63 of word t>>6 set for every square t on a
	// rook or bishop ray from s.
	lines [NumSquares][2]uint64
)

// init builds the tables in order: the step tables, then the action
// table made from them.
func init() {
	initGeometry()
	initActions()
}

func initGeometry() {
	for s := Square(0); s < NumSquares; s++ {
		rookRays[s] = rays(s, rookSteps)
		bishopRays[s] = rays(s, bishopPairs)
		for _, r := range append(slices.Clip(rookRays[s]), bishopRays[s]...) {
			for _, t := range r {
				lines[s][t>>6] |= 1 << (t & 63)
			}
		}
		knightTo[s] = leaps(s, false, knightPaths)
		kingTo[s] = leaps(s, false, append(append([][]int{}, rookSteps...), bishopPairs...))
		for c := White; c < numColors; c++ {
			own := s.Section() == c
			pawnPush[c][s], pawnDouble[c][s] = NoSquare, NoSquare
			if t, _, ok := step(s, stepF, !own); ok {
				pawnPush[c][s] = t
				if own && s.Rank() == 1 {
					pawnDouble[c][s] = t + 8
				}
			}
			pawnCapTo[c][s] = leaps(s, !own, pawnCapturePairs)
		}
	}
	for s := Square(0); s < NumSquares; s++ {
		for _, t := range knightTo[s] {
			knightFrom[t] = append(knightFrom[t], s)
		}
		for _, t := range kingTo[s] {
			kingFrom[t] = append(kingFrom[t], s)
		}
		for c := range numColors {
			for _, t := range pawnCapTo[c][s] {
				pawnCapFrom[c][t] = append(pawnCapFrom[c][t], s)
			}
		}
	}
}

// rays returns the distinct rays from s of each repeated pattern.
func rays(s Square, patterns [][]int) [][]Square {
	var out [][]Square
next:
	for _, pat := range patterns {
		var ray []Square
		cur, flip := s, false
		for {
			t, f, ok := walk(cur, flip, pat...)
			if !ok || t == s || len(ray) >= NumSquares {
				break
			}
			ray = append(ray, t)
			cur, flip = t, f
		}
		if len(ray) == 0 {
			continue
		}
		for _, r := range out {
			if equalSquares(r, ray) {
				continue next
			}
		}
		out = append(out, ray)
	}
	return out
}

// leaps returns the distinct squares reached from s by the paths.
func leaps(s Square, flip bool, paths [][]int) []Square {
	var out []Square
	for _, p := range paths {
		t, _, ok := walk(s, flip, p...)
		if ok && t != s && !containsSquare(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func equalSquares(a, b []Square) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func containsSquare(list []Square, s Square) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}

// homeRank is rank index 0 of c's section: where its king and rooks start.
func home(c Color, f int) Square { return SquareAt(c, f, 0) }
