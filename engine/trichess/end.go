package trichess

import "fmt"

// Title is a player's result: seigneur, chevalier, vassal or serf.
type Title uint8

// The titles, worth 3, 2, 1 and 0 points.
const (
	Serf Title = iota
	Vassal
	Chevalier
	Seigneur
)

// Points is the title's worth: seigneur 3, chevalier 2, vassal 1, serf 0.
func (t Title) Points() int { return int(t) }

// String is the title's name.
func (t Title) String() string {
	if t <= Seigneur {
		return [...]string{"serf", "vassal", "chevalier", "seigneur"}[t]
	}
	return fmt.Sprintf("Title(%d)", uint8(t))
}

// Ending is the way a game ended.
type Ending uint8

// The endings of docs/trichess.md, End and results.
const (
	// NotOver: the game goes on.
	NotOver Ending = iota
	// Checkmate: the pieces of one opponent alone mate the player to move.
	Checkmate
	// DoubleCheckmate: each opponent alone mates the player to move.
	DoubleCheckmate
	// EchecEtPat: a coalition mate, which no single opponent gives alone.
	EchecEtPat
	// Pat: the player to move is not in check and has no legal move.
	Pat
	// EchecEtFat: the last move checked both other kings.
	EchecEtFat
	// QuietPlies: QuietLimit plies without a capture or a pawn move (a pat).
	QuietPlies
	// Repetition: the same position with the same player to move for the
	// third time (a pat).
	Repetition
)

// String is the ending's name.
func (e Ending) String() string {
	if e <= Repetition {
		return [...]string{"not over", "checkmate", "double checkmate", "échec et pat", "pat", "échec et fat", "150 plies without capture or pawn move", "threefold repetition"}[e]
	}
	return fmt.Sprintf("Ending(%d)", uint8(e))
}

// Outcome is how a game ended and each player's title, indexed by Color.
type Outcome struct {
	Ending Ending
	// Titles is each player's title, by colour; meaningful once the game
	// is over.
	Titles [numColors]Title
}

// Points returns each player's points, by colour.
func (o Outcome) Points() [numColors]int {
	var pts [numColors]int
	for c, t := range o.Titles {
		pts[c] = t.Points()
	}
	return pts
}

// String describes the outcome, e.g. "checkmate: White seigneur, Red
// vassal, Black serf".
func (o Outcome) String() string {
	if o.Ending == NotOver {
		return o.Ending.String()
	}
	return fmt.Sprintf("%s: White %s, Red %s, Black %s", o.Ending, o.Titles[White], o.Titles[Red], o.Titles[Black])
}

// Outcome judges the position without its history: every ending but
// repetition.
func (p *Position) Outcome() Outcome { return p.outcome(p.hasLegalMove()) }

// outcome judges the position given whether the side to move has a legal
// move.
func (p *Position) outcome(hasMoves bool) Outcome {
	me := p.side
	next, prev := me.Next(), me.Prev()
	all := func(t Title) [numColors]Title { return [numColors]Title{t, t, t} }
	switch {
	case p.IsFat():
		o := Outcome{Ending: EchecEtFat, Titles: all(Serf)}
		o.Titles[prev] = Seigneur
		return o
	case hasMoves && p.quiet >= QuietLimit:
		return Outcome{Ending: QuietPlies, Titles: all(Vassal)}
	case hasMoves:
		return Outcome{}
	case !p.InCheck(me):
		return Outcome{Ending: Pat, Titles: all(Vassal)}
	}
	nextAlone, prevAlone := p.matesAlone(next), p.matesAlone(prev)
	var o Outcome
	switch {
	case nextAlone && prevAlone:
		o = Outcome{Ending: DoubleCheckmate, Titles: all(Chevalier)}
		o.Titles[me] = Serf
	case nextAlone || prevAlone:
		mater, third := next, prev
		if prevAlone {
			mater, third = prev, next
		}
		o.Ending = Checkmate
		o.Titles[mater], o.Titles[third], o.Titles[me] = Seigneur, Vassal, Serf
	default:
		o.Ending = EchecEtPat
		o.Titles[prev], o.Titles[me], o.Titles[next] = Vassal, Chevalier, Chevalier
	}
	return o
}

// matesAlone reports whether x's pieces alone mate the side to move (which
// has no legal move): x gives check, and every pseudo-legal move (those
// non-aggression refuses aside) leaves the king attacked by x.
func (p *Position) matesAlone(x Color) bool {
	me := p.side
	if !p.checkedBy(me, x) {
		return false
	}
	var buf [MaxMoves]Move
	for _, m := range p.genPseudo(buf[:0], false) {
		child := *p
		child.Play(m)
		if p.refused(m, &child) {
			continue
		}
		if !child.checkedBy(me, x) {
			return false
		}
	}
	return true
}
