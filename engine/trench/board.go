package trench

import "math/bits"

// Square is a board square, rank*8 + file: a1 = 0, h1 = 7, a8 = 56, h8 = 63.
type Square int8

// NoSquare marks the absence of a square.
const NoSquare Square = -1

// File is the square's file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s) & 7 }

// Rank is the square's rank, 0 (rank 1) to 7 (rank 8).
func (s Square) Rank() int { return int(s) >> 3 }

// String is the square's name, e.g. "d4".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "??"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// SquareAt returns the square on file f and rank r (both 0..7).
func SquareAt(f, r int) Square { return Square(r*8 + f) }

// Color is a player: Black (moves first) or White.
type Color uint8

// The two players, numbered as engine players.
const (
	Black Color = 0
	White Color = 1
)

// Other is the opponent.
func (c Color) Other() Color { return c ^ 1 }

// String is "black" or "white".
func (c Color) String() string {
	if c == Black {
		return "black"
	}
	return "white"
}

// Kind is a piece kind; its value in points is Kind+1, and so is its range.
type Kind uint8

// The five piece kinds, in rank order.
const (
	Soldier Kind = iota
	Sergeant
	Captain
	Colonel
	General
	numKinds
)

// Value is the points a capture of this kind scores, which is also how
// many squares it may move.
func (k Kind) Value() int { return int(k) + 1 }

// String is the kind's name.
func (k Kind) String() string {
	return [...]string{"soldier", "sergeant", "captain", "colonel", "general"}[k]
}

// kindLetters are the position-string letters of each kind (Black's case).
const kindLetters = "PSKCG"

// armyCount is how many pieces of each kind an army has.
var armyCount = [numKinds]int{6, 4, 3, 2, 1}

// Direction indices. Each direction's opposite is d^1; positive ones raise
// the square index.
const (
	dirNE = iota // (+1,+1): Black's forward vertical
	dirSW        // (-1,-1): White's forward vertical
	dirE         // (+1, 0)
	dirW         // (-1, 0)
	dirN         // ( 0,+1)
	dirS         // ( 0,-1)
	dirSE        // (+1,-1): sideways, along the trench
	dirNW        // (-1,+1): sideways, along the trench
	numDirs
)

var dirDelta = [numDirs][2]int{{1, 1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}}

// dirShift is the change of square index of one step in each direction,
// and stepMask[d] the squares from which that step stays on the board.
var (
	dirShift = [numDirs]int{9, -9, 1, -1, 8, -8, -7, 7}
	stepMask [numDirs]uint64
)

// step moves every square of bb one step in direction d, dropping those
// that would leave the board.
func step(bb uint64, d int) uint64 {
	return bits.RotateLeft64(bb&stepMask[d], dirShift[d])
}

// dirPositive tells whether a step in the direction raises the index, so
// that the nearest square of a ray is its lowest bit.
var dirPositive = [numDirs]bool{true, false, true, false, true, false, false, true}

// mirrorDir maps a direction through the file↔rank mirror.
var mirrorDir = [numDirs]int{dirNE, dirSW, dirN, dirS, dirE, dirW, dirNW, dirSE}

// Masks of the trench (file+rank == 7) and each colour's own territory.
var (
	trenchMask    uint64
	territoryMask [2]uint64
)

// TrenchSquares is the bitboard of the trench: the squares with
// file+rank == 7, the diagonal from a8 to h1.
func TrenchSquares() uint64 { return trenchMask }

// Territory is the bitboard of c's own territory: file+rank < 7 for
// Black, file+rank > 7 for White.
func Territory(c Color) uint64 { return territoryMask[c] }

// ray[d][s] holds the squares from s in direction d to the edge, s
// excluded; reach[k][d][s] only the first k.Value() of them.
var (
	ray   [numDirs][64]uint64
	reach [numKinds][numDirs][64]uint64
)

// dirBetween[from][to] is the direction from one square to the other, or -1
// when they are not on one line within 7 steps.
var dirBetween [64][64]int8

// pieceDirs[c][k] lists the directions a piece of colour c and kind k moves
// in; backDirs[c] has the bit of each direction that leads from the trench
// into c's own territory; pieceReach[c][k][s] is the union of reach over
// pieceDirs[c][k] from s, every square such a piece could ever reach.
var (
	pieceDirs  [2][numKinds][]int
	backDirs   [2]uint8
	pieceReach [2][numKinds][64]uint64
)

func init() {
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		switch {
		case f+r == 7:
			trenchMask |= 1 << s
		case f+r < 7:
			territoryMask[Black] |= 1 << s
		default:
			territoryMask[White] |= 1 << s
		}
	}
	for from := 0; from < 64; from++ {
		for to := range dirBetween[from] {
			dirBetween[from][to] = -1
		}
		for d := 0; d < numDirs; d++ {
			f, r := from&7, from>>3
			for n := 1; ; n++ {
				f, r = f+dirDelta[d][0], r+dirDelta[d][1]
				if f < 0 || f > 7 || r < 0 || r > 7 {
					break
				}
				to := r*8 + f
				ray[d][from] |= 1 << to
				if n == 1 {
					stepMask[d] |= 1 << from
				}
				dirBetween[from][to] = int8(d)
				for k := Kind(0); k < numKinds; k++ {
					if n <= k.Value() {
						reach[k][d][from] |= 1 << to
					}
				}
			}
		}
	}
	orth := []int{dirE, dirW, dirN, dirS}
	for c := Black; c <= White; c++ {
		fwd, back := dirNE, dirSW
		if c == White {
			fwd, back = dirSW, dirNE
		}
		pieceDirs[c][Soldier] = orth
		pieceDirs[c][Sergeant] = append([]int{fwd}, orth...)
		pieceDirs[c][Captain] = append([]int{fwd, back}, orth...)
		pieceDirs[c][Colonel] = append([]int{fwd, dirSE, dirNW}, orth...)
		pieceDirs[c][General] = []int{dirNE, dirSW, dirE, dirW, dirN, dirS, dirSE, dirNW}
	}
	backDirs[Black] = 1<<dirSW | 1<<dirW | 1<<dirS
	backDirs[White] = 1<<dirNE | 1<<dirE | 1<<dirN
	for c := Black; c <= White; c++ {
		for k := Kind(0); k < numKinds; k++ {
			for s := range pieceReach[c][k] {
				for _, d := range pieceDirs[c][k] {
					pieceReach[c][k][s] |= reach[k][d][s]
				}
			}
		}
	}
}

// nearest returns the square of bb (non-empty, on a ray in direction d)
// closest to the ray's origin.
func nearest(bb uint64, d int) int {
	if dirPositive[d] {
		return bits.TrailingZeros64(bb)
	}
	return 63 - bits.LeadingZeros64(bb)
}

// beyond returns square b and the squares past it in direction d: a
// route in direction d that meets a piece on b keeps its squares outside
// beyond(d, b).
func beyond(d, b int) uint64 {
	return ray[d][b] | 1<<b
}

// transpose mirrors a bitboard across the a1–h8 diagonal: (f,r) -> (r,f).
func transpose(x uint64) uint64 {
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
	t := k4 & (x ^ (x << 28))
	x ^= t ^ (t >> 28)
	t = k2 & (x ^ (x << 14))
	x ^= t ^ (t >> 14)
	t = k1 & (x ^ (x << 7))
	x ^= t ^ (t >> 7)
	return x
}
