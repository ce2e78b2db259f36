//go:build !unix

package runner

import "time"

// cpuTime reports that the OS does not tell the process's CPU time.
func cpuTime() (time.Duration, bool) { return 0, false }
