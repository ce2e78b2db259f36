//go:build unix

package machine

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time the process has used, user and system, and
// whether the OS reports it.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
