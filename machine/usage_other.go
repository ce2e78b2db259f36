//go:build !linux

package machine

import "time"

// ReadUsage reads nothing where /proc is not Linux's: a quiet child is
// judged by the wall clock alone.
func ReadUsage(int) Usage { return Usage{At: time.Now()} }

// ProcessCPU reads nothing where the kernel's clock of another process is
// not Linux's: a worker's figures are held to its wall time alone.
func ProcessCPU(int) (time.Duration, bool) { return 0, false }
