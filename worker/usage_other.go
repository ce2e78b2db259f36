//go:build !linux

package worker

import "time"

// readUsage reads nothing where /proc is not Linux's: a quiet child is
// judged by the wall clock alone.
func readUsage(int) usage { return usage{at: time.Now()} }
