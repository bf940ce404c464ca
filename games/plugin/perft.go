package plugin

// Perft is how trench perft counts a game's move sequences: with the
// game's fast concrete position type rather than the engine contract, so
// that counts are quick, and with any reference file format of its own.
type Perft struct {
	// Start is the start position's string.
	Start string
	// Parse reads a position string.
	Parse func(text string) (PerftPosition, error)
	// IsReference and CheckReference read the game's reference move
	// files, if it has any (else both are nil): CheckReference returns ""
	// when the rules agree with the line and otherwise the difference.
	IsReference    func(line string) bool
	CheckReference func(line string) (string, error)
}

// PerftPosition counts move sequences from one position.
type PerftPosition interface {
	// Perft is the number of move sequences of depth plies.
	Perft(depth int) uint64
	// Divide is the count below each move, at depth plies in all.
	Divide(depth int) []DivideLine
}

// DivideLine is one root move's count.
type DivideLine struct {
	Move  string
	Nodes uint64
}
