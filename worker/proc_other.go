//go:build !linux

package worker

import "os/exec"

// dieWithParent does nothing where the OS has no parent-death signal; a
// worker still exits at its next event once its parent is gone.
func dieWithParent(*exec.Cmd) {}
