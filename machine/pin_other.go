//go:build !linux

package machine

import "fmt"

func Pin(cpu int) error { return fmt.Errorf("machine: CPU pinning is supported on Linux only") }

const PinSupported = false
