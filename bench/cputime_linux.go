package bench

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is the CPU time the process has used on every thread, or 0
// where the system does not say.
func processCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
