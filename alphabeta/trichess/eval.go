package trichess

import "trench/engine/trichess"

// Values holds one value per player, indexed by trichess.Color, in
// centipoints (100 is one of the rules' piece points).
type Values [3]int

// Evaluation weights, in centipoints. All are even, so that a lead (a
// value less the mean of the other two) is a whole number.
const (
	// pieceWeight values a point of material, at the rules' piece
	// points.
	pieceWeight = 100
	// mobilityWeight rewards each square a knight, bishop, rook or queen
	// reaches.
	mobilityWeight = 4
	// shelterWeight rewards each own piece next to the king, up to
	// shelterMax of them.
	shelterWeight = 10
	shelterMax    = 3
	// kingAway costs a king that has left its own section; kingRank each
	// rank it stands above its back rank at home.
	kingAway = 60
	kingRank = 12
)

// Evaluate is the hand-written evaluation of p, which is not over: each
// player's material at the rules' piece points, the mobility of its
// pieces and its king's safety (its shelter of own pieces, and its
// distance from its back rank).
func Evaluate(p *trichess.Position) Values {
	mob := p.Mobility()
	var v Values
	for c := trichess.White; c <= trichess.Black; c++ {
		x := pieceWeight*p.Material(c) + mobilityWeight*mob[c]
		x += shelterWeight * min(p.KingShelter(c), shelterMax)
		if k := p.King(c); k != trichess.NoSquare {
			if k.Section() != c {
				x -= kingAway
			} else {
				x -= kingRank * k.Rank()
			}
		}
		v[c] = x
	}
	return v
}

// Lead is c's value less the mean of the other two players'.
func (v Values) Lead(c trichess.Color) int {
	return v[c] - (v[c.Next()]+v[c.Prev()])/2
}

// Leads is every player's lead; they sum to 0.
func (v Values) Leads() Values {
	var l Values
	for c := trichess.White; c <= trichess.Black; c++ {
		l[c] = v.Lead(c)
	}
	return l
}
