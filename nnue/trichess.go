package nnue

import "trench/engine/trichess"

// Trichess's features from perspective c, a seat; a player's rel is 0
// for c, 1 for the seat after c in the order of play, 2 for the seat
// before it:
//
//	rel·576 + kind·96 + orient(c, s)  a piece of kind (trichess.Kind,
//	                                  pawn 0 to king 5) on square s
//	1728 + rel·40 + material          a player's material on the board, 0..39
//	1848 + rel·2 + j                  non-aggression: the player is protected
//	                                  from the player after it (j = 0) or
//	                                  before it (j = 1), having at least 3
//	                                  points less on the board
//	1854 + rel·2 + queen              a castling right kept, king-side then
//	                                  queen-side
//	1860 + min(quiet/10, 15)          plies since the last capture or pawn
//	                                  move, in buckets of 10
//	1876 + rel                        the player to move
//
// orient(c, s) rotates the board by c's seat so that c's section comes
// first: (s − 32c) mod 96. The board's geometry is the same under the
// rotation, so every seat sees its own army from the same side, and one
// net serves all three.
const (
	trichessKinds   = 6
	trichessSquares = trichess.NumSquares
	trichessRelSize = trichessKinds * trichessSquares
	tcMaterialBase  = 3 * trichessRelSize
	tcMaxMaterial   = trichess.ArmyPoints
	tcProtectedBase = tcMaterialBase + 3*(tcMaxMaterial+1)
	tcCastleBase    = tcProtectedBase + 6
	tcQuietBase     = tcCastleBase + 6
	tcQuietBucket   = 10
	tcMaxQuietIndex = trichess.QuietLimit / tcQuietBucket
	tcMoverBase     = tcQuietBase + tcMaxQuietIndex + 1
	// TrichessInputs is the number of Trichess's features
	// (TrichessFeatures).
	TrichessInputs = tcMoverBase + 3
	// tcMaxCounters bounds the active features past the pieces and the
	// quiet bucket: three materials, three protections (at most three
	// of the six hold, as "protected from" orders the players strictly)
	// and six castling rights.
	tcMaxCounters = 3 + 3 + 6
	// TrichessMaxActive bounds the active features of one perspective:
	// 48 pieces, the counters, the quiet bucket and the player to move.
	TrichessMaxActive = 48 + tcMaxCounters + 2
)

// Trichess is Trichess's feature set (TrichessFeatures).
var Trichess = &FeatureSet{ID: 2, Game: "trichess", Inputs: TrichessInputs, Perspectives: 3, MaxActive: TrichessMaxActive}

// trichessRel is player x's place seen from seat c: 0 c, 1 the next
// seat, 2 the previous.
func trichessRel(c, x trichess.Color) int {
	r := int(x) - int(c)
	if r < 0 {
		r += 3
	}
	return r
}

// trichessOrient is square s as seat c sees it: (s − 32c) mod 96.
func trichessOrient(c trichess.Color, s trichess.Square) int {
	o := int(s) - 32*int(c)
	if o < 0 {
		o += trichessSquares
	}
	return o
}

// trichessPieceFeature is the feature of a piece of player x and kind k
// on square s, seen from seat c.
func trichessPieceFeature(c, x trichess.Color, k trichess.Kind, s trichess.Square) int32 {
	return int32(trichessRel(c, x)*trichessRelSize + int(k)*trichessSquares + trichessOrient(c, s))
}

// tcCounters are what the features count beyond the pieces, by seat:
// each player's material, castling rights (bit 2x for x's king-side,
// 2x+1 for its queen-side) and the quiet bucket.
type tcCounters struct {
	material [3]uint8
	castling uint8
	quiet    uint8
}

// trichessCounters reads p's counters.
func trichessCounters(p *trichess.Position) tcCounters {
	var t tcCounters
	for x := trichess.White; x <= trichess.Black; x++ {
		t.material[x] = uint8(min(p.Material(x), tcMaxMaterial))
		if p.CanCastle(x, false) {
			t.castling |= 1 << (2 * x)
		}
		if p.CanCastle(x, true) {
			t.castling |= 2 << (2 * x)
		}
	}
	t.quiet = uint8(min(p.QuietPlies()/tcQuietBucket, tcMaxQuietIndex))
	return t
}

// protections are the non-aggression protections by seat: bit 2x+j when
// player x has at least 3 points less on the board than the player after
// it (j = 0) or before it (j = 1).
func (t *tcCounters) protections() uint8 {
	var m uint8
	for x := range 3 {
		for j := range 2 {
			if int(t.material[x])+3 <= int(t.material[(x+1+j)%3]) {
				m |= 1 << (2*x + j)
			}
		}
	}
	return m
}

// appendFeatures appends the features of the materials, protections and
// castling rights from seat c to dst, in ascending order: all the
// counters' but the quiet bucket's.
func (t *tcCounters) appendFeatures(dst []int32, c trichess.Color) []int32 {
	seat := func(r int) int { return (int(c) + r) % 3 }
	for r := range 3 {
		dst = append(dst, int32(tcMaterialBase+r*(tcMaxMaterial+1)+int(t.material[seat(r)])))
	}
	prot := t.protections()
	for r := range 3 {
		for j := range 2 {
			if prot&(1<<(2*seat(r)+j)) != 0 {
				dst = append(dst, int32(tcProtectedBase+2*r+j))
			}
		}
	}
	for r := range 3 {
		for q := range 2 {
			if t.castling&(1<<(2*seat(r)+q)) != 0 {
				dst = append(dst, int32(tcCastleBase+2*r+q))
			}
		}
	}
	return dst
}

// TrichessFeatures appends to dst[:0] the active features of p seen from
// seat c (the layout above) and returns it: the pieces in the order of
// the squares as c sees them, then the counters and the player to move
// in ascending order.
func TrichessFeatures(p *trichess.Position, c trichess.Color, dst []int32) []int32 {
	dst = dst[:0]
	for o := range trichessSquares {
		s := o + 32*int(c)
		if s >= trichessSquares {
			s -= trichessSquares
		}
		if x, k, ok := p.PieceAt(trichess.Square(s)); ok {
			dst = append(dst, trichessPieceFeature(c, x, k, trichess.Square(s)))
		}
	}
	t := trichessCounters(p)
	return append(t.appendFeatures(dst, c), int32(tcQuietBase+int(t.quiet)), tcMoverFeature(c, p.SideToMove()))
}

// tcMoverFeature is the feature of player x to move, seen from seat c.
func tcMoverFeature(c, x trichess.Color) int32 {
	return int32(tcMoverBase + trichessRel(c, x))
}

// TrichessValues computes the values of n, a Trichess net, for p from
// scratch, by seat (White, Red, Black): seat c's is OutBias plus the
// activations of c's accumulator times the first H output weights, the
// next seat's times the next H and the previous seat's times the last
// H, plus the PSQT weights of c's features. It is the reference that TrichessEvaluator is tested against.
func (n *Net) TrichessValues(p *trichess.Position) [3]float32 {
	var feats [TrichessMaxActive]int32
	var accs [3][]float32
	var lin [3]float32
	for c := trichess.White; c <= trichess.Black; c++ {
		fs := TrichessFeatures(p, c, feats[:0])
		accs[c], lin[c] = n.sum(fs), n.linear(fs)
	}
	var ys [3]float32
	h := n.Hidden
	for c := range 3 {
		y := n.OutBias + lin[c]
		for i := range 3 {
			w := n.Out[i*h : (i+1)*h]
			for j, a := range accs[(c+i)%3] {
				y += screlu(a) * w[j]
			}
		}
		ys[c] = y
	}
	return ys
}
