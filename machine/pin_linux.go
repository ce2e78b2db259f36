package machine

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// pin locks the calling goroutine to its OS thread and that thread to cpu.
// The goroutine must exit without unlocking, so that the runtime retires
// the pinned thread instead of reusing it.
func Pin(cpu int) error {
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("machine: pinning to CPU %d: %w", cpu, err)
	}
	return nil
}

// PinSupported reports whether pin can work here.
const PinSupported = true
