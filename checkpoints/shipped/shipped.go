// Package shipped holds the net that ships inside the trench binary: the
// default opponent of "trench play", "trench serve" and "trench engine" when
// no checkpoint is given. Its training and measurements are described in
// README.md beside it.
package shipped

import _ "embed"

//go:embed default.tnet
var defaultNet []byte

// Name labels the embedded net in messages and errors.
const Name = "embedded default net"

// Default returns the checkpoint file image of the shipped net, readable
// by checkpoints.Decode. The slice is shared: callers must not modify it.
func Default() []byte { return defaultNet }
