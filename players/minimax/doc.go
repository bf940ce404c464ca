// Package minimax searches two-player games with a learned net inside an
// alpha-beta search, the way a chess engine uses its evaluation: an
// iterative-deepening negamax with principal variation search, a
// transposition table keyed by the position (engine.SearchKey), and at
// the leaves the net's value of the position that the capture search of
// package tactics reaches (blended, if asked, with the material lead).
// Moves are ordered by the table's move, then captures by the material
// they take, then the net's priors for the node. The leaves go through the
// net one at a time, so that a cut-off spares the rest; optionally the
// children of a node one ply above the leaves go through it in one call.
//
// It plays any game of the engine contract with two players; New refuses
// others. A search is limited by depth, time or nodes.
package minimax
