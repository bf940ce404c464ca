package engine

// Describer is implemented by states that name, in their game's own words,
// how a finished game ended and what each player got: Trichess says
// "checkmate" and "seigneur", Trench "25 points" and "win". Reports and
// records use it through EndReason and Title, which fall back on Result
// for states that do not implement it.
type Describer interface {
	// EndReason names how the game ended, e.g. "checkmate"; "" while it
	// goes on.
	EndReason() string
	// Title names player's result, e.g. "seigneur" or "win"; "" while the
	// game goes on.
	Title(player int) string
}

// Material is implemented by states of games whose pieces have values:
// Materials writes the worth of each player's pieces on the board into dst
// (grown to Players() entries) and returns it. Players that weigh captures
// (greedy) use it.
type Material interface {
	Materials(dst []float32) []float32
}

// Captures is implemented by states of games whose pieces have values
// (Material): CaptureActions appends to dst[:0] the legal actions that
// take material from another player, in LegalActions order, and returns
// it. Searches use it to play out the captures pending at their leaves
// (package tactics).
type Captures interface {
	Material
	CaptureActions(dst []int) []int
}

// CaptureValues is implemented by states (Captures) that can price a
// capture without playing it: CaptureValue is the material that legal
// action takes from the players other than the mover, as much as playing
// it would remove from their Materials. Searches that price many captures
// (package tactics) use it instead of a copy of the state per capture.
type CaptureValues interface {
	Captures
	CaptureValue(action int) float32
}

// Copier is implemented by states that can be overwritten with a copy of
// another state of the same game without allocating: CopyFrom makes the
// state equal to src, as src.Clone() would be. Searches that try many
// moves (package tactics) reuse their states through it. src must be of
// the same concrete type.
type Copier interface {
	CopyFrom(src State)
}

// EndReason names how s ended: its Describer's words, else "game over";
// "" while the game goes on.
func EndReason(s State) string {
	if !s.Over() {
		return ""
	}
	if d, ok := s.(Describer); ok {
		return d.EndReason()
	}
	return "game over"
}

// Title names player's result in the finished game s: its Describer's
// words, else "win", "draw" or "loss" by the sign of the player's Result;
// "" while the game goes on or for a player out of range.
func Title(s State, player int) string {
	if !s.Over() || player < 0 || player >= s.Game().Players() {
		return ""
	}
	if d, ok := s.(Describer); ok {
		return d.Title(player)
	}
	return ResultTitle(s.Result(nil)[player])
}

// ResultTitle is "win", "draw" or "loss" for a positive, zero or negative
// result.
func ResultTitle(result float32) string {
	switch {
	case result > 0:
		return "win"
	case result < 0:
		return "loss"
	}
	return "draw"
}
