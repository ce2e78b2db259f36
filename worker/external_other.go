//go:build !unix

package worker

import "os/exec"

// ownGroup leaves cmd as it is where the OS has no process groups to
// kill: its cancellation kills it alone.
func ownGroup(*exec.Cmd) {}

// detach leaves cmd as it is where the OS has no sessions.
func detach(*exec.Cmd) {}

// killGroupOf does nothing where there are no process groups.
func killGroupOf(int) {}
