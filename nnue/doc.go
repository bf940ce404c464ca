// Package nnue is the efficiently updatable net: a learned evaluation
// cheap enough for full-width alpha-beta search, for any game that
// declares a feature set (FeatureSet): Trench's (Trench) and Trichess's
// (Trichess).
//
// The net sees a position from each player's side (a perspective) as
// sparse binary features. Trench's 700 (Features): every piece by owner
// (the perspective's or the opponent's), kind and square, the square
// turned 180° for White so that both players see their army from the
// same corner; each player's score; and the quiet-ply count in buckets
// of 5. Trichess's 1879 (TrichessFeatures): every piece by owner (the
// seat's, the next seat's, the previous seat's), kind and square, the
// board rotated so that each seat sees its own section first; each
// player's material, the non-aggression protections, the castling
// rights, the quiet plies and the player to move. One hidden layer of
// H units (the feature transformer, an accumulator per perspective)
// goes through SCReLU, clamp(x, 0, 1)², and one output unit reads the
// accumulator of the perspective being valued, then the others' in the
// order of play: its output is a logit, for Trench σ(y) the side to
// move's chance of winning; for Trichess one such value a seat.
//
// Net.Evaluate and Net.TrichessValues are the reference computations
// from scratch. Evaluator and TrichessEvaluator keep the accumulators
// along a search path, one entry per ply, updating a child from its
// parent by the features the move changes, lazily (only when a position
// is evaluated), with AVX-512 or AVX2 kernels where the CPU has them;
// Evaluator is the evaluation package alphabeta's search takes
// (alphabeta.Evaluator). Save and Load keep a net in a file of its own
// format (see Encode), which records the feature set: each game's
// loader refuses the other's nets.
package nnue
