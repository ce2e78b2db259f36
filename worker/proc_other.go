//go:build !linux

package worker

import "os/exec"

// dieWithParent does nothing where the OS has no parent-death signal: the
// child's own watch of its parent (watchParent) ends it within a second.
func dieWithParent(*exec.Cmd) {}

// peakRSS is not read outside Linux, where the unit and the field differ.
func peakRSS(*exec.Cmd) uint64 { return 0 }

// killGroup does nothing where the child has no process group of its own.
func killGroup(*exec.Cmd) {}

// closeOnExec does nothing here.
func closeOnExec(int) {}
