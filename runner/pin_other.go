//go:build !linux

package runner

import "fmt"

func pin(cpu int) error { return fmt.Errorf("runner: CPU pinning is supported on Linux only") }

const pinSupported = false
