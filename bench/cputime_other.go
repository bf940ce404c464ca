//go:build !linux

package bench

import "time"

// processCPU is the CPU time the process has used on every thread, or 0
// where the system does not say.
func processCPU() time.Duration { return 0 }
