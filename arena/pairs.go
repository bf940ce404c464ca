package arena

// Meeting is the tally of two players' games against each other in a
// game of two seats, seen from player A.
type Meeting struct {
	A, B int
	// Wins, Draws and Losses are A's.
	Wins, Draws, Losses int
	// PointsA and PointsB are the points each captured in all the games.
	PointsA, PointsB float64
	// PairScores counts the finished pairs by A's points in them: index
	// 0..4 for 0, ½, 1, 1½, 2 (the pentanomial tally).
	PairScores [5]int
}

// Games is the number of games played.
func (m *Meeting) Games() int { return m.Wins + m.Draws + m.Losses }

// Pairs is the number of finished pairs.
func (m *Meeting) Pairs() int {
	n := 0
	for _, c := range m.PairScores {
		n += c
	}
	return n
}

// Score is A's mean score per game (a win 1, a draw ½).
func (m *Meeting) Score() float64 {
	if m.Games() == 0 {
		return 0.5
	}
	return (float64(m.Wins) + 0.5*float64(m.Draws)) / float64(m.Games())
}

// Elo is the Elo difference of A over B from the games, with its 95%
// interval from the trinomial (per-game) variance.
func (m *Meeting) Elo() Interval { return TrinomialElo(m.Wins, m.Draws, m.Losses) }

// PairElo is the same from the pentanomial (per-pair) variance, which
// accounts for the openings' bias.
func (m *Meeting) PairElo() Interval { return PentanomialElo(m.PairScores) }
