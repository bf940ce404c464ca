// Package alphabeta is a classical Trench engine, the yardstick the nets
// must beat: iterative-deepening negamax with alpha-beta and principal
// variation search, move ordering (the transposition table's move, the
// most valuable captures first, killer moves, the history heuristic),
// a transposition table on the Zobrist hash, a quiescence search over
// captures, and an evaluation of the score, the material and simple
// positional terms (advance, trench occupation, the General's safety).
// A search is limited by depth, time or nodes.
//
// The evaluation is an Evaluator, told of every move along the search's
// path: Hand, the hand-written one above, by default; Rules, the score
// difference alone; or an efficiently updatable net (package nnue,
// which alphabeta does not import), given to NewWith.
//
// It plays Trench only, on engine/trench's fast Position; FromState
// refuses states of other games with an error.
package alphabeta
