package worker

import "syscall"

// limitMemory caps this process's address space at n bytes.
func limitMemory(n uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n})
}
