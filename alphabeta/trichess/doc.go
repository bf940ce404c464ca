// Package trichess is the classical search of Trichess, the three-player
// chess variant (docs/trichess.md), the yardstick for what learning adds:
// a hand-written evaluation and a full-width three-player search on
// engine/trichess's fast Position, with iterative deepening, a
// transposition table on the Zobrist hash, move ordering (the table's
// move, the most valuable captures first, killer moves, the history
// heuristic) and a quiescence search over captures. Importers alias it,
// e.g. trichessab.
//
// The evaluation (Evaluate) gives each player a value of its own: its
// material at the rules' piece points, its pieces' mobility and its
// king's shelter. A player's lead is its value less the mean of the
// other two; a finished game's lead comes from the titles' points.
//
// Three players make three searches, chosen by Algorithm (Default, BRS,
// when none is named):
//   - BRS, Best-Reply Search in its BRS+ form (Esser et al. 2013): the
//     root player's moves alternate with one layer in which only the
//     strongest reply of either opponent is searched, the other opponent
//     playing the move its move ordering puts first; the root player's
//     lead is maximised and minimised in turn, with alpha-beta.
//   - Paranoid: the opponents are taken to play together against the root
//     player, each minimising its lead, with alpha-beta.
//   - MaxN: each player maximises its own lead (a lead per player), with
//     shallow pruning.
//
// A search is limited by depth, time or nodes (package searchlimits).
// Repetition is not judged inside the search: the Position has no
// history.
package trichess
