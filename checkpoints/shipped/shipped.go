// Package shipped holds the nets that ship inside the trench binary: the
// default opponents of "trench play", "trench serve" and "trench engine"
// when no checkpoint is given, one for Trench and one for Trichess. Their
// training and measurements are described in README.md beside them.
package shipped

import _ "embed"

// Ref is the reference that names a built-in net wherever a net is
// named (a flag, a player's settings, a teacher): the net of the kind
// asked for that ships for the game, a conv net (Default, Trichess) or
// the NNUE.
const Ref = "default"

//go:embed default.tnet
var defaultNet []byte

//go:embed trichess.tnet
var trichessNet []byte

// Name labels the embedded Trench net in messages and errors.
const Name = "embedded default net"

// TrichessName labels the embedded Trichess net in messages and errors.
const TrichessName = "embedded Trichess net"

// Default returns the checkpoint file image of the shipped Trench net,
// readable by checkpoints.Decode. The slice is shared: callers must not
// modify it.
func Default() []byte { return defaultNet }

// Trichess returns the checkpoint file image of the shipped Trichess net,
// as Default does for Trench's.
func Trichess() []byte { return trichessNet }

//go:embed trench.nnue
var nnueNet []byte

// NNUEName labels the embedded Trench NNUE in messages and errors.
const NNUEName = "embedded NNUE"

// NNUE returns the file image of the shipped Trench NNUE, the
// efficiently updatable net of the alphabeta bot, readable by
// nnue.Decode. The slice is shared: callers must not modify it.
func NNUE() []byte { return nnueNet }
