//go:build !linux

package train

import "time"

// processCPU is the CPU time the process has used, or 0 where the system
// does not say.
func processCPU() time.Duration { return 0 }
