//go:build !unix

package machine

import "time"

// CPUTime reports that the OS does not tell the process's CPU time.
func CPUTime() (time.Duration, bool) { return 0, false }
