// Package shipped holds the nets that ship inside the trench binary: the
// default opponents of "trench play", "trench serve" and "trench engine"
// when no checkpoint is given, a conv net and an NNUE for each of Trench
// and Trichess. Their training and measurements are described in
// README.md beside them.
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

//go:embed trichess.nnue
var trichessNNUE []byte

// TrichessNNUEName labels the embedded Trichess NNUE in messages and
// errors.
const TrichessNNUEName = "embedded Trichess NNUE"

// TrichessNNUE returns the file image of the shipped Trichess NNUE, as
// NNUE does for Trench's.
func TrichessNNUE() []byte { return trichessNNUE }

// BuiltInNNUE returns the name and file image of the NNUE built in for
// the game called game, and false for a game that ships none. The
// slice is shared: callers must not modify it.
func BuiltInNNUE(game string) (name string, image []byte, ok bool) {
	switch game {
	case "trench":
		return NNUEName, nnueNet, true
	case "trichess":
		return TrichessNNUEName, trichessNNUE, true
	}
	return "", nil, false
}
