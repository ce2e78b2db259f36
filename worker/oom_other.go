//go:build !linux

package worker

// readOOM reads no counters where the kernel exposes none: a SIGKILL is
// then "killed, cause unknown".
func readOOM() oomCounters { return oomCounters{} }

// physicalMemory is unknown outside Linux.
func physicalMemory() uint64 { return 0 }
