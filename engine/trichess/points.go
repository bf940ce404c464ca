package trichess

// ExpectedPoints returns the title points (seigneur 3, chevalier 2,
// vassal 1, serf 0) that a utility u of State.Result stands for,
// inverting its mapping u = (2·points − 3)/3. Given an expected utility,
// such as a search's value for a player, it gives the expected points.
func ExpectedPoints(u float64) float64 { return 1.5 * (1 + u) }
