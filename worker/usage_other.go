//go:build !linux

package worker

import "time"

// readUsage reads nothing where /proc is not Linux's: a quiet child is
// judged by the wall clock alone.
func readUsage(int) usage { return usage{at: time.Now()} }

// processCPU reads nothing where the kernel's clock of another process is
// not Linux's: a worker's figures are held to its wall time alone.
func processCPU(int) (time.Duration, bool) { return 0, false }
