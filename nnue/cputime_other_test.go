//go:build !linux

package nnue_test

import "time"

// threadCPU is the CPU time the calling thread has used, or 0 where the
// system does not say.
func threadCPU() time.Duration { return 0 }
