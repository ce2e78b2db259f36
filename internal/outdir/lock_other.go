//go:build !unix

package outdir

import "os"

// noFollow is not available: notLink checks before opening.
const noFollow = 0

// lockFile does not lock where the OS has no flock: the pid in the lock
// file is written, and a second writer is not refused.
func lockFile(*os.File) (held bool, err error) { return false, nil }
