// Package nnue is Trench's efficiently updatable net: a learned
// evaluation cheap enough for full-width alpha-beta search.
//
// The net sees a position from each player's side (a perspective) as 700
// sparse binary features (Features): every piece by owner (the
// perspective's or the opponent's), kind and square, the square turned
// 180° for White so that both players see their army from the same
// corner; each player's score; and the quiet-ply count in buckets of 5.
// One hidden layer of H units (the feature transformer, an accumulator
// per perspective) goes through SCReLU, clamp(x, 0, 1)², and one output
// unit reads the side to move's accumulator, then the other's: its
// output is a logit, σ(y) the side to move's chance of winning.
//
// Net.Evaluate is the reference computation from scratch. Evaluator
// keeps the two accumulators along a search path, one entry per ply,
// updating a child from its parent by the features the move changes,
// lazily (only when a position is evaluated), with AVX-512 or AVX2
// kernels where the CPU has them; it is the evaluation package
// alphabeta's search takes (alphabeta.Evaluator). Save and Load keep a
// net in a file of its own format (see Encode).
package nnue
